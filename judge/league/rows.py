"""One finished game as the league counts it: a small row, made once from the game's `Finished`
(judge/league/records.py) and kept in the index of its source (judge/league/index.py), so
that the league never reads a record's moves again.

    {"ruleset": "mogul", "game": "friday", "ended": "2026-05-20T18:04:11Z", "agreed": false,
     "ranks": {"alice": 1, "bob": 2}, "spans": {"alice": [[1, "alice"]], "bob": [[1, "bob"], [12, "dave"]]},
     "resigned": [[30, "bob", "dave"]],
     "conduct": {"alice": [40, 40, 0, 0, 0, 0], ...}, # orders, timed, missed, unanswered, resigned, abandoned
     "key": "2ccb...89bd",                          # the commitment: a game found twice counts once
     "audit": "passes", "why": ""}                  # or "fails" and why, or "not audited" and why

`conduct` is each registered name's conduct in the game (judge/league/reliability.py) before
any alias: the league adds up the rows of the names an alias makes one player."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from judge.engine.errors import GameFileError
from judge.league.records import Finished
from judge.league.reliability import Conduct, of_game

PASSES, FAILS, UNAUDITED = "passes", "fails", "not audited"
CONDUCT = ("orders", "timed", "missed", "unanswered", "resigned", "abandoned")


@dataclass
class GameRow:
    ruleset: str
    game: str
    ended: str  # ISO UTC, "" when the record does not say
    agreed: bool
    ranks: dict[str, int]  # seat -> final rank
    spans: dict[str, list[tuple[int, str]]]  # seat -> [(from move, player)]
    resigned: list[tuple[int, str, str]]  # (move, seat, player)
    conduct: dict[str, list[int]] = field(default_factory=dict)  # player -> CONDUCT figures
    key: str = ""
    audit: str = PASSES
    why: str = ""

    def final(self, seat: str) -> str:
        return self.spans[seat][-1][1]

    def order(self) -> tuple[str, str, str]:
        """Games are taken in order of their end (those that do not say first), then by name."""
        return (self.ended, self.ruleset, self.game)

    @property
    def counted(self) -> bool:
        """Whether the league counts it: its audit passes, or it cannot be audited at all."""
        return self.audit != FAILS

    def conducts(self) -> dict[str, Conduct]:
        return {p: Conduct(**dict(zip(CONDUCT, figures, strict=True))) for p, figures in self.conduct.items()}


def of(game: Finished, key: str = "", audit: str = PASSES, why: str = "") -> GameRow:
    """The row of a finished game (its conduct computed once, by registered name)."""
    conduct = {p: [getattr(c, f) for f in CONDUCT] for p, c in of_game(game).items()}
    return GameRow(game.ruleset, game.game, game.ended, game.agreed, dict(game.ranks),
                   {s: list(spans) for s, spans in game.spans.items()}, list(game.resigned), conduct,
                   key or f"{game.ruleset}/{game.game}", audit, why)


def as_data(row: GameRow) -> dict:
    return asdict(row)


def from_data(data: dict) -> GameRow:
    """The row `as_data` wrote (GameFileError for anything else)."""
    try:
        audit = str(data["audit"])
        if audit not in (PASSES, FAILS, UNAUDITED):
            raise ValueError(f"audit {audit!r}")
        return GameRow(str(data["ruleset"]), str(data["game"]), str(data["ended"]), bool(data["agreed"]),
                       {str(s): int(r) for s, r in data["ranks"].items()},
                       {str(s): [(int(m), str(p)) for m, p in spans] for s, spans in data["spans"].items()},
                       [(int(m), str(s), str(p)) for m, s, p in data["resigned"]],
                       {str(p): _figures(figures) for p, figures in data["conduct"].items()},
                       str(data["key"]), audit, str(data["why"]))
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise GameFileError(f"not a row of the league's index ({type(e).__name__} {e})") from None


def _figures(figures) -> list[int]:
    """A player's CONDUCT figures, all of them (a row of another shape is made again)."""
    out = [int(x) for x in figures]
    if len(out) != len(CONDUCT):
        raise ValueError(f"conduct of {len(out)} figures")
    return out
