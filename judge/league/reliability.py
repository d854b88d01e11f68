"""How each player of a finished game kept to it, from its public record (docs/league.md):

- orders: the orders awaited from them, every order logged for a seat while they held it;
- timed: those awaited under a deadline (every order of a game with deadlines, and of a game
  whose record is too old to say);
- missed: deadlines they missed (the judge gave an order for them: `judge tick`'s notices;
  one undone by a later rollback over its move no longer counts);
- unanswered: orders of their seat given by the judge's bot after they resigned, under a deadline;
- on time = timed - missed - unanswered, and reliability = on time / timed (None: no
  order was awaited under a deadline, shown "no deadlines");
- resigned: games they resigned from; abandoned: seats they left before the end, handed on
  to another player by the game master without resigning."""
from __future__ import annotations

from dataclasses import dataclass, fields

from judge.league.records import UNNAMED, Finished


@dataclass
class Conduct:
    orders: int = 0
    timed: int = 0
    missed: int = 0
    unanswered: int = 0
    resigned: int = 0
    abandoned: int = 0

    @property
    def on_time(self) -> int:
        return max(self.timed - self.missed - self.unanswered, 0)

    @property
    def reliability(self) -> float | None:
        """The share of the orders awaited under a deadline given before it (None: none such)."""
        return self.on_time / self.timed if self.timed else None

    def add(self, other: "Conduct") -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def of_game(game: Finished, name=lambda player: player) -> dict[str, Conduct]:
    """Each player's conduct in `game`, keyed by `name(player)` (aliases), in seat order."""
    out: dict[str, Conduct] = {}

    def of(player: str) -> Conduct | None:
        return None if player == UNNAMED else out.setdefault(name(player), Conduct())

    for seat, spans in game.spans.items():
        for _, player in spans:
            of(player)
    gone = {(seat, player): move for move, seat, player in game.resigned}
    for move, seat in game.orders:
        player = game.holder(seat, move)
        if (c := of(player)) is None:
            continue
        c.orders += 1
        if game.deadlines is not False:  # (None: a record too old to say; counted as before)
            c.timed += 1
            if (seat, player) in gone and move >= gone[(seat, player)]:
                c.unanswered += 1
    for _, _, player in game.missed:
        if (c := of(player)) is not None:
            c.missed += 1
    for seat, player in gone:
        if (c := of(player)) is not None:
            c.resigned += 1
    for seat, spans in game.spans.items():
        left = {player for _, player in spans} - {game.final(seat)} - {p for s, p in gone if s == seat}
        for player in sorted(left):
            if (c := of(player)) is not None:
                c.abandoned += 1
    return out
