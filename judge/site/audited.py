"""A finished game's results as the site shows them: taken from the replay that `judge audit`
performs (the log replayed from the committed seed and setup), never from a field of the record
that no audit covers (`[view]`'s standings, `standings`, the moves' scores). A record whose
field disagrees with its replay is shown with the replay's values and marked; one whose log
does not replay shows no result at all.

A running game's record has nothing to audit yet (the seed is secret): it is shown as it is."""
from __future__ import annotations


def results(record: dict) -> tuple[dict, list[str]]:
    """(the record with its results replaced by the replay's, what disagreed: one line a field).
    A running game's record comes back as it is."""
    from judge.record import history, moves
    from judge.record.public import finished_game

    if not record.get("complete"):
        return record, []
    try:
        game = finished_game(record, record["game"])
        replayed = game.replay()
        start: dict[int, list] = {}

        def visit(now) -> None:
            shown = moves.scores(now.view(None, report=False))
            seats = [shown[p] for p in now.players if p in shown]
            start[now.move] = seats if len(seats) == len(now.players) else []

        history.each_move(game, visit)
    except Exception as e:  # noqa: BLE001 - a record edited into what no rule replays: no result
        return ({**record, "view": {**record["view"], "standings": []}, "standings": []},
                [f"its log does not replay from the committed seed ({type(e).__name__}: {e}), so it has no result"])
    from judge.record.public import tomlable

    standings = tomlable(replayed.ruleset.standings(replayed.state))  # (as the record keeps them)
    marks, view = [], record["view"]
    if view.get("standings") != standings:
        marks.append(f"its public view's standings ({_ranking(view.get('standings'))}) are not its replay's "
                     f"({_ranking(standings)})")
    if record.get("standings", standings) != standings:
        marks.append(f"its standings ({_ranking(record.get('standings'))}) are not its replay's")
    rows = [r for r in record.get("moves", []) if isinstance(r, dict)]
    wrong = [r["move"] for r in rows if r.get("scores", []) != start.get(r.get("move"), r.get("scores", []))]
    if wrong:
        marks.append(f"its scores at move{'s' if len(wrong) > 1 else ''} {', '.join(map(str, wrong[:5]))}"
                     f"{' ...' if len(wrong) > 5 else ''} are not its replay's")
    fixed = [{**r, "scores": start.get(r.get("move"), r.get("scores", []))} for r in rows]
    return {**record, "view": {**view, "standings": standings}, "standings": standings, "moves": fixed}, marks


def _ranking(rows) -> str:
    """"1. alice 120, 2. bob 96" (what a marked field said)."""
    if not isinstance(rows, list) or not rows:
        return "none"
    return ", ".join(f"{r.get('rank', '?')}. {r.get('player', '?')} {r.get('score', '?')}" for r in rows[:6]
                     if isinstance(r, dict)) + (" ..." if len(rows) > 6 else "")
