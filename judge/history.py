"""Any past report on demand: the game replayed to a move, and the list of moves with what the
public saw at each (the orders as the public record shows them, the public events)."""
from __future__ import annotations

from .corrections import before_move
from .game import Game
from .record import public_log

__all__ = ["all_events", "at_move", "moves"]


def at_move(game: Game, move: int) -> Game:
    """The game as it stood at the start of `move` (the current game for its current move)."""
    return game if move == game.move and not _entries_at(game, move) else before_move(game, move)


def _entries_at(game: Game, move: int) -> list[str]:
    return [e for e in game.log if e.split(" ", 1)[0] == str(move)]


class _Watched(Game):
    """A game whose replay keeps every event it emits (the state keeps only the last few)."""

    def _apply(self, state, order, rng) -> None:
        before = list(state["events"])
        super()._apply(state, order, rng)
        if self.emitted is None:
            self.emitted = before  # the setup's events
        self.emitted += [e for e in state["events"] if not any(e is b for b in before)]


def all_events(game: Game) -> list[dict]:
    """Every event of the game so far, those seen by some players only included (with "to")."""
    watched = _Watched(game.ruleset, game.players, game.options, game.setup, game.rng, {}, list(game.log),
                       game.meta, game.salt, game.commitment, game.corrections)
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
