"""Bot games in bulk: `judge simulate`, the bot tests and the benchmarks all play through here.

Every game of a simulation has its own seed (the first seed plus the game's index), and the
bot kinds rotate round the table from game to game, so each kind plays every seat equally often.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from judge.engine import bots
from judge.engine.errors import UsageError
from judge.engine.game import Game
from judge.engine.ruleset import get
from judge.engine.standing import is_secret_entry

MAX_SEED = 2**63 - 1


@dataclass
class Result:
    seed: int
    players: list[str]
    kinds: dict[str, str]
    orders: int
    winners: list[str]
    winning_score: int
    exchanges: int = 0  # waits by mail: a new one whenever the awaited players change
    rounds: int = 0


@dataclass
class Summary:
    players: list[str]
    games: int = 0
    lengths: list[int] = field(default_factory=list)
    exchanges: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    winning_scores: list[int] = field(default_factory=list)
    wins_by_seat: dict[str, int] = field(default_factory=dict)
    wins_by_kind: dict[str, int] = field(default_factory=dict)
    seats_by_kind: dict[str, int] = field(default_factory=dict)

    def add(self, r: Result) -> None:
        self.games += 1
        self.lengths.append(r.orders)
        self.exchanges.append(r.exchanges)
        self.rounds.append(r.rounds)
        self.winning_scores.append(r.winning_score)
        for p in r.players:
            kind = r.kinds[p]
            self.seats_by_kind[kind] = self.seats_by_kind.get(kind, 0) + 1
            self.wins_by_kind.setdefault(kind, 0)
            self.wins_by_seat.setdefault(p, 0)
        for p in r.winners:
            self.wins_by_seat[p] += 1
            self.wins_by_kind[r.kinds[p]] += 1

    def win_rate(self, kind: str) -> float:
        """Wins per seat played by bots of `kind` (a shared win counts for each winner)."""
        return self.wins_by_kind[kind] / self.seats_by_kind[kind]

    def lines(self) -> list[str]:
        n = len(self.players)
        out = [f"{self.games} game{'s' if self.games != 1 else ''}, {n} players",
               f"game length (orders): {_spread(self.lengths)}",
               f"exchanges by mail (a new one whenever the awaited players change): {_spread(self.exchanges)}; "
               f"{sum(self.exchanges) / max(1, sum(self.rounds)):.2f} a round",
               f"winning score: {_spread(self.winning_scores)}",
               "wins by seat (shared wins count for each winner):"]
        for i, p in enumerate(self.players, 1):
            w = self.wins_by_seat[p]
            out.append(f"  seat {i} {p:<8} {w:6d}  {_percent(w, self.games)}")
        out.append(f"wins by bot (per seat played; an even share is {100 / n:.1f}%):")
        for kind in sorted(self.wins_by_kind):
            w, seats = self.wins_by_kind[kind], self.seats_by_kind[kind]
            out.append(f"  {kind:<13} {w:6d} win{'s' if w != 1 else ''} in {seats} seat{'s' if seats != 1 else ''}  "
                       f"{_percent(w, seats)}")
        return out


def _spread(values: list[int]) -> str:
    return f"min {min(values)}, mean {sum(values) / len(values):.1f}, max {max(values)}"


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%"


def usual_players(rs) -> int:
    """The table the tests and benchmarks play at: 4 players, or the nearest count allowed."""
    return max(rs.min_players, min(4, rs.max_players))


def parse_kinds(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    bad = [k for k in kinds if k not in bots.KINDS]
    if not kinds or bad:
        raise UsageError(f"--bots is a comma-separated list of {', '.join(bots.KINDS)}, not '{text}'")
    return kinds


def seat_kinds(kinds: list[str], players: list[str], index: int) -> dict[str, str]:
    """The bot of each seat in game number `index`: the list cycled and rotated by the index."""
    return {p: kinds[(i + index) % len(kinds)] for i, p in enumerate(players)}


def play_game(ruleset: str, players: list[str], seed: int, kinds: dict[str, str],
              options: dict | None = None, standing: bool = False) -> Result:
    game = Game.new(ruleset, players, seed=seed, options=options)
    exchanges = bots.play_out(game, kinds, standing=standing)
    rows = game.ruleset.standings(game.state)
    orders = sum(1 for e in game.log if not is_secret_entry(e))
    return Result(seed, list(players), kinds, orders, game.ruleset.winners(game.state), rows[0]["score"],
                  exchanges, game.ruleset.standing_round(game.state))


def simulate(ruleset: str, n: int, games: int, seed: int, kinds: list[str], options: dict | None = None,
             standing: bool = False):
    """The Results of `games` bot games (seeds seed, seed+1, ...), played as they are read.
    Bad arguments are refused here, before any game is played."""
    rs = get(ruleset)
    if not rs.min_players <= n <= min(rs.max_players, len(bots.NAMES)):
        raise UsageError(f"{rs.name} is for {rs.min_players} to {rs.max_players} players, not {n}")
    if games < 1:
        raise UsageError("--games must be at least 1")
    if not 0 <= seed <= MAX_SEED - games:
        raise UsageError(f"the seed is a whole number from 0 to {MAX_SEED - games}")
    players = bots.NAMES[:n]
    return (play_game(ruleset, players, seed + i, seat_kinds(kinds, players, i), options, standing)
            for i in range(games))
