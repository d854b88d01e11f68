"""The game master's corrections, kept as a trace in the game file's [[corrections]]:

- a rollback returns the game to an earlier move; the orders it undid stay in the trace;
- a replacement hands a seat to a new player. The seat keeps its name in the state, the log
  and the commitment (so replay and `judge verify` are untouched); the trace records who
  plays it now and since which move. In a mail game the seat's address and password in
  [meta] change as well (they never reach the trace).

Both appear in the public record (secret undone orders as "secret order").
"""
from __future__ import annotations


from judge.engine import facts
from judge.engine.errors import LogEndsEarly, UsageError
from judge.engine.game import NAME, Game
from judge.engine.orderlog import LogEntry
from judge.engine.ruleset import GM
from judge.record import conduct
from judge.record.entries import public_entries

def _move_of(entry: str) -> int:
    parts = LogEntry.read(entry)
    return parts.move if parts else 0


def check_move(game: Game, move: int) -> None:
    if not 1 <= move <= game.move:
        raise UsageError(f"move {move} is not in this game (moves 1 to {game.move})")


def before_move(game: Game, move: int) -> tuple[Game, int]:
    """The game as it stood at the start of `move`, replayed from its log, to go on from there,
    and how many entries of the log it kept: refused for a move that a standing order played
    the moment it began (replayed, the game would play it again at once). The judge's entries
    of what stays true (the rules' version, a resignation, a seat handed on: facts.py
    KEPT_BY_ROLLBACK) that were logged at `move` or later are logged again at `move`."""
    check_move(game, move)
    past = game.copy()
    past.log = [e for e in game.log if _move_of(e) < move]
    kept = len(past.log)
    again = [f for f in facts.facts(game.log[kept:]) if f.kind in facts.KEPT_BY_ROLLBACK]
    upgrades = [f for f in again if f.kind == "upgrade"]
    if upgrades:  # (the log kept was played under the version the first of them left)
        past.ruleset = past.at_version(upgrades[0].args[0])
    try:
        past = past.replay()
    except LogEndsEarly:
        raise UsageError(f"move {move} was played by a standing order the moment it began: roll back to "
                         f"move {move - 1} or earlier, or to a later move") from None
    for f in again:
        past.note(facts.text(f.kind, *f.args))
    return past, kept


def rollback(game: Game, move: int, reason: str, when: str) -> tuple[Game, list[str]]:
    """The game returned to the start of `move`, with the undone orders in its trace."""
    if not reason.strip():
        raise UsageError("give the reason for the rollback (--reason TEXT): it is shown to every player")
    if game.is_over() and game.commitment:
        raise UsageError("the game is over and its seed is revealed: played again from an earlier move, "
                         "every card and roll to come would be known in advance")
    past, kept = before_move(game, move)
    undone = game.log[kept:]
    if len(undone) == len(past.log) - kept:  # (only entries of the judge, logged again)
        raise UsageError(f"nothing to undo: no order was given at move {move} or after")
    lost = standing_undone(game, past)
    past.corrections.append({"kind": "rollback", "time": when, "from_move": game.move, "to_move": move,
                             "reason": reason.strip(), "undone": undone,
                             **({"standing_undone": lost} if lost else {})})
    return past, undone


def standing_undone(game: Game, past: Game) -> dict:
    """Each player's standing orders that `game` held and `past` (the game rolled back) does
    not: their secret, told to them alone in their report (the public record leaves it out)."""
    from judge.engine.standing import orders_of

    out = {}
    for p in game.players:
        kept = [o["text"] for o in orders_of(past.state, p)]
        lost = [o["text"] for o in orders_of(game.state, p) if o["text"] not in kept]
        if lost:
            out[p] = lost
    return out


def holder(game: Game, seat: str) -> str:
    """Who plays `seat` now."""
    for c in reversed(game.corrections):
        if c["kind"] == "replace" and c["seat"] == seat:
            return c["player"]
    return seat


def seat_of(game: Game, name: str) -> str:
    """The seat called `name`, or played now by `name` (any case)."""
    for seat in game.players:
        if name.lower() in (seat.lower(), holder(game, seat).lower()):
            return seat
    raise UsageError(f"no player '{name}' in this game (seats: {', '.join(game.players)})")


UNNAMED = facts.UNNAMED  # a seat handed on without a name


def replace(game: Game, old: str, new: str, when: str, reason: str = "") -> str:
    """Hand the seat of `old` to the new player `new` ("": not named), in the trace. Return
    the seat. (In a mail game the seat's address and password change too: judge/change/
    corrections.py `hand_seat`.)"""
    seat = seat_of(game, old)
    if game.is_over():
        raise UsageError("the game has ended: there is no seat to hand on")
    new = new or UNNAMED
    if new != UNNAMED and (not NAME.match(new) or new.lower() == GM):
        raise UsageError(f"player name '{new}' must start with a letter a-z or A-Z and hold only such letters, digits, - and _ "
                         "(at most 20), and not be gm")
    taken = {n.lower() for s in game.players if s != seat for n in (s, holder(game, s))}
    if new.lower() in taken or new.lower() == holder(game, seat).lower():
        raise UsageError(f"'{new}' already plays in this game")
    game.corrections.append({"kind": "replace", "time": when, "seat": seat, "player": new,
                             "previous": holder(game, seat), "since": game.move,
                             **({"reason": reason.strip()} if reason.strip() else {})})
    conduct.handed(game, seat, new)  # (a game of file format 2 logs it: the league reads it there)
    return seat


def seats(game: Game) -> dict:
    """The seats played by someone else than their first player: who and since which move."""
    out = {}
    for c in game.corrections:
        if c["kind"] == "replace":
            out[c["seat"]] = {"player": c["player"], "since": c["since"]}
    return out


def public(game: Game) -> list[dict]:
    """The trace as the public may read it while the game runs."""
    if game.is_over():
        return game.corrections
    return [{**{k: v for k, v in c.items() if k != "standing_undone"}, "undone": public_entries(game, c["undone"])}
            if "undone" in c else c for c in game.corrections]


def describe(c: dict) -> str:
    """One public line for a correction (mails, commit messages, a site's pages and feeds, which
    read it from a record that may lack a key)."""
    if c.get("kind") == "rollback":
        return (f"the game master rolled the game back from move {c.get('from_move')} to move {c.get('to_move')}: "
                f"{c.get('reason', '')}")
    if c.get("kind") == "replace":
        return f"{c.get('player')} plays the seat {c.get('seat')} from move {c.get('since')} (was {c.get('previous')})"
    return f"correction: {c.get('kind')}"
