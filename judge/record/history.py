"""Any past report on demand: the game replayed to a move, and the list of moves with what the
public saw at each (the orders as the public record shows them, the public events)."""
from __future__ import annotations

from judge.record.corrections import check_move
from judge.engine.game import Game
from judge.record.entries import public_log

__all__ = ["all_events", "at_move", "each_move", "moves"]


def at_move(game: Game, move: int) -> Game:
    """The game as it stood at the start of `move` (the current game for its current move),
    for its reports: replayed until the order that began it, even when a standing order was
    carried out at once (the game never rested there, but the table saw it)."""
    check_move(game, move)
    if move == game.move and not any(e.split(" ", 1)[0] == str(move) for e in game.log):
        return game
    stopping = _replaying(_Stopping, game)
    stopping.target = move
    if move == 1:  # (no order begins it: the setup)
        stopping.log = []
    try:
        return stopping.replay()
    except _Reached as reached:
        return reached.game


def _replaying(cls, game: Game) -> Game:
    """`game`'s header and log in `cls`, a Game whose replay watches every order applied."""
    return cls(game.ruleset, game.players, game.options, game.setup, game.rng, {}, list(game.log),
               game.meta, game.salt, game.commitment, game.corrections, game.format)


class _Reached(Exception):
    def __init__(self, game: Game):
        self.game = game


class _Stopping(Game):
    """A game whose replay stops the moment an order begins move `target`."""

    def _apply(self, state, order, rng) -> None:
        super()._apply(state, order, rng)
        if state["move"] == self.target:
            raise _Reached(self._like(self.copy_state(state), rng.at(rng.draws)))


class _Watched(Game):
    """A game whose replay keeps every event it emits (the state keeps only the last few)."""

    def _apply(self, state, order, rng) -> None:
        before = list(state["events"])
        super()._apply(state, order, rng)
        if self.emitted is None:
            self.emitted = before  # the setup's events
        kept = {id(b) for b in before}  # (the same objects: an event equal to an earlier one is new)
        self.emitted += [e for e in state["events"] if id(e) not in kept]


def all_events(game: Game) -> list[dict]:
    """Every event of the game so far, those seen by some players only included (with "to")."""
    watched = _replaying(_Watched, game)
    watched.emitted = None
    watched.replay()
    return game.state["events"] if watched.emitted is None else watched.emitted


def moves(game: Game) -> list[dict]:
    """One row a move: {move, orders, events}, from the public's point of view."""
    events = all_events(game)
    rows: dict[int, dict] = {}

    def row(move: int) -> dict:
        return rows.setdefault(move, {"move": move, "orders": [], "events": []})

    for entry in public_log(game):  # the whole log once the game is over
        number, _, rest = entry.partition(" ")
        row(int(number))["orders"].append(rest)
    for e in events:
        if "to" not in e:
            row(e["move"])["events"].append(e["text"])
    return [rows[m] for m in sorted(rows)]


class _Visiting(_Watched):
    """A replay that shows the game at the start of every move to `visit` (the game is shared
    with the replay: read it at once, never keep it), keeping every event as it goes."""

    def _apply(self, state, order, rng) -> None:
        if not self.begun:
            self.begun = True
            self._visit(state, rng)  # move 1: the setup
        move = state["move"]
        super()._apply(state, order, rng)
        if state["move"] != move:
            self._visit(state, rng)

    def _visit(self, state, rng) -> None:
        if state["move"] >= self.start:
            self.visit(self._like(state, rng))


def each_move(game: Game, visit, start: int = 1) -> list[dict]:
    """Replay `game`, calling `visit(game as it stood at the start of move N)` for every move N
    from `start` to the current one (each as `at_move` shows it: a move begun and ended at once
    by a standing order is shown too). Return every event of the game (`all_events`, from the
    same replay)."""
    visiting = _replaying(_Visiting, game)
    visiting.visit, visiting.start, visiting.begun, visiting.emitted = visit, start, False, None
    replayed = visiting.replay()
    if not visiting.begun and replayed.move >= start:  # no order applied yet: the setup
        visit(replayed)
    return replayed.state["events"] if visiting.emitted is None else visiting.emitted
