"""A finished game's results as the site shows them: taken from the replay that `judge audit`
performs (the log replayed from the committed seed and setup), never from a field of the record
that no audit covers (`[view]`'s standings, `standings`, each move's orders, events, scores and
prices: its missed deadlines and resignations among them). A record whose field disagrees with
its replay is shown with the replay's values and marked; one whose log does not replay shows no
result at all. (Each move's report, rendered text, is shown as the record keeps it: rendering a
report a move costs half a second a game.)

A running game's record has nothing to audit yet (the seed is secret): it is shown as it is."""
from __future__ import annotations


ROW_FIELDS = ("orders", "events", "scores", "prices")  # what a row says that the replay gives again


def results(record: dict) -> tuple[dict, list[str]]:
    """(the record with its results replaced by the replay's, what disagreed: one line a field).
    A running game's record comes back as it is."""
    from judge.engine import chain
    from judge.record import history, moves
    from judge.record.public import finished_game, tomlable, wrong_heads

    if not record.get("complete"):
        return record, []
    try:
        game = finished_game(record, record["game"])
        replayed = game.replay()
        seen: dict[int, dict] = {}
        events = history.each_move(
            game, lambda now: seen.__setitem__(now.move, moves.figures(now, now.view(None, report=False))))
        for move, said in moves.told(game, events).items():
            seen.setdefault(move, {}).update(said)
    except Exception as e:  # noqa: BLE001 - a record edited into what no rule replays: no result
        return ({**record, "view": {**(record.get("view") or {}), "standings": []}, "standings": []},
                [f"its log does not replay from the committed seed ({type(e).__name__}: {e}), so it has no result"])
    standings = tomlable(replayed.ruleset.standings(replayed.state))  # (as the record keeps them)
    marks, view = [], record.get("view") or {}
    if view.get("standings") != standings:
        marks.append(f"its public view's standings ({_ranking(view.get('standings'))}) are not its replay's "
                     f"({_ranking(standings)})")
    if record.get("standings", standings) != standings:
        marks.append(f"its standings ({_ranking(record.get('standings'))}) are not its replay's")
    rows = [r for r in record.get("moves", []) if isinstance(r, dict)]
    fixed = [{**r, **{k: tomlable(seen[r["move"]].get(k, [])) for k in ROW_FIELDS}} if r.get("move") in seen else r
             for r in rows]
    for key in ROW_FIELDS:
        wrong = [r.get("move") for r, right in zip(rows, fixed) if r.get(key, []) != right.get(key, [])]
        if wrong:
            marks.append(f"its {key} at move{'s' if len(wrong) > 1 else ''} {', '.join(map(str, wrong[:5]))}"
                         f"{' ...' if len(wrong) > 5 else ''} are not its replay's")
    wrong = wrong_heads(record, game)  # (the heads shown: those of its log's chain, judge/engine/chain.py)
    if wrong:
        marks.append(f"its log's heads at move{'s' if len(wrong) > 1 else ''} {', '.join(map(str, wrong[:5]))}"
                     f"{' ...' if len(wrong) > 5 else ''} are not those its log gives")
        after = chain.after_each_move(game.commitment, game.salt, game.log)
        fixed = [{**r, "head": after.get(r.get("move"), "")} if "head" in r else r for r in fixed]
        record = {**record, "log_head": game.log_head()}
    return {**record, "view": {**view, "standings": standings}, "standings": standings, "moves": fixed}, marks


def _ranking(rows) -> str:
    """"1. alice 120, 2. bob 96" (what a marked field said)."""
    if not isinstance(rows, list) or not rows:
        return "none"
    return ", ".join(f"{r.get('rank', '?')}. {r.get('player', '?')} {r.get('score', '?')}" for r in rows[:6]
                     if isinstance(r, dict)) + (" ..." if len(rows) > 6 else "")
