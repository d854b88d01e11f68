"""The league: every player's rating and reliability over finished games, per ruleset and over
all of them, as a text table, JSON or CSV (docs/league.md).

Players are their registered names (a seat's, or the name of whoever the game master handed
it to), compared without regard to case; `aliases` (judge.toml [league] aliases) maps other
names to one player. Games are taken in order of their end, so the same records always give
the same table, byte for byte."""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field

from judge.league import rating, rows
from judge.league.records import UNNAMED
from judge.league.reliability import Conduct
from judge.league.rows import CONDUCT, GameRow

ALL = "all"  # the section over every ruleset


@dataclass
class Row:
    player: str
    skill: rating.Skill = field(default_factory=rating.Skill)
    games: int = 0  # games rated: held a seat at the end, or resigned
    wins: int = 0
    conduct: Conduct = field(default_factory=Conduct)


@dataclass
class Section:
    ruleset: str  # a ruleset's name, or ALL
    rows: list[Row]  # best first
    count: int = 0  # finished games counted
    first: str = ""  # the first and last day a counted game ended ("" when none says)
    last: str = ""
    undated: int = 0  # counted games whose record does not say when they ended

    @property
    def span(self) -> str:
        dated = f", ended {self.first}" + (f" to {self.last}" if self.last != self.first else "") if self.first else ""
        return dated + (f"{';' if dated else ','} {self.undated} without an end date" if self.undated else "")


class Names:
    """One player per name, whatever its case, and the site's aliases; shown as first met."""

    def __init__(self, aliases: dict[str, str] | None = None):
        self.aliases = {k.lower(): v for k, v in (aliases or {}).items()}
        self.shown: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        name = self.aliases.get(name.lower(), name)
        return self.shown.setdefault(name.lower(), name)

    def meet(self, game) -> None:
        """Every player of `game`, in seat order (names are shown as first met)."""
        for spans in game.spans.values():
            for _, player in spans:
                self(player)


def placings(game, name) -> dict[str, int]:
    """Each player's place in `game` (a `GameRow` or `Finished`): a seat's final rank goes to
    whoever held it at the end; players who resigned come last, level with each other. A
    player met in two seats (by aliases) keeps the better."""
    gone = {name(p) for _, _, p in game.resigned if p != UNNAMED}
    out: dict[str, int] = {}
    for seat, rank in game.ranks.items():
        player = game.final(seat)
        if player != UNNAMED and name(player) not in gone:
            out[name(player)] = min(rank, out.get(name(player), rank))
    out = {p: 1 + sum(r < rank for r in out.values()) for p, rank in out.items()}  # 1, 2, 2, 4 among them
    last = len(out) + 1
    for player in sorted(gone):
        out[player] = last
    return out


class Tally:
    """A section added up game by game, in order of their end: what the league keeps between
    two finished games (judge/league/index.py) so that one more game costs one more update."""

    def __init__(self, ruleset: str):
        self.ruleset, self.count, self.first, self.last, self.undated = ruleset, 0, "", "", 0
        self.rows: dict[str, Row] = {}

    def row(self, player: str) -> Row:
        return self.rows.setdefault(player.lower(), Row(player))

    def add(self, game: GameRow, names: Names) -> None:
        self.count += 1
        if game.ended:
            self.first, self.last = self.first or game.ended[:10], game.ended[:10]
        else:
            self.undated += 1
        for player, conduct in game.conducts().items():
            if player != UNNAMED:
                self.row(names(player)).conduct.add(conduct)
        places = placings(game, names)
        players = list(places)
        resigned = {names(p).lower() for _, _, p in game.resigned}
        for player in players:
            self.row(player).games += 1
            self.row(player).wins += places[player] == 1 and player.lower() not in resigned
        if len(players) >= 2:
            after = rating.rate([self.row(p).skill for p in players], [places[p] for p in players])
            for player, skill in zip(players, after):
                self.row(player).skill = skill

    def section(self) -> Section:
        ordered = sorted(self.rows.values(), key=lambda r: (-round(r.skill.rating, 6), -round(r.skill.mu, 6),
                                                            -r.games, r.player.lower()))
        return Section(self.ruleset, ordered, self.count, self.first, self.last, self.undated)

    def as_data(self) -> dict:
        return {"ruleset": self.ruleset, "count": self.count, "first": self.first, "last": self.last,
                "undated": self.undated,
                "rows": [[r.player, r.skill.mu, r.skill.sigma, r.games, r.wins, *(getattr(r.conduct, f) for f in CONDUCT)]
                         for r in self.rows.values()]}

    @classmethod
    def from_data(cls, data: dict) -> "Tally":
        tally = cls(str(data["ruleset"]))
        tally.count, tally.first, tally.last = int(data["count"]), str(data["first"]), str(data["last"])
        tally.undated = int(data["undated"])
        for player, mu, sigma, games, wins, *conduct in data["rows"]:
            tally.rows[str(player).lower()] = Row(str(player), rating.Skill(float(mu), float(sigma)), int(games),
                                                  int(wins), Conduct(**dict(zip(CONDUCT, (int(x) for x in conduct), strict=True))))
        return tally


def section(ruleset: str, games: list, names: Names) -> Section:
    tally = Tally(ruleset)
    for game in games:
        tally.add(as_row(game), names)
    return tally.section()


def as_row(game) -> GameRow:
    """A `GameRow` as it is; a `Finished` made into one."""
    return game if isinstance(game, GameRow) else rows.of(game)


def league(games: list, aliases: dict | None = None, ruleset: str | None = None,
           since: str | None = None) -> list[Section]:
    """One section per ruleset (by name), then one over all of them when there are several;
    only `ruleset`'s with it. `games`: `GameRow`s (or `Finished`) in order of their end, each
    counted. `since`: games that ended that day or later (a game whose record does not say
    when it ended is left out then)."""
    games = [as_row(g) for g in games]
    if since:
        games = [g for g in games if g.ended and g.ended[:10] >= since]
    names = Names(aliases)
    for game in games:  # names shown as first met, in order of the games' end
        names.meet(game)
    rulesets = sorted({g.ruleset for g in games} if ruleset is None else {ruleset})
    out = [section(rs, [g for g in games if g.ruleset == rs], names) for rs in rulesets]
    if ruleset is None and len(out) > 1:
        out.append(section(ALL, games, names))
    return out


# ---- output ---------------------------------------------------------------------------------
def share(c: Conduct) -> str:
    """On time: the share, "no deadlines" when none of their orders had one, "-" for no order."""
    return f"{100 * c.reliability:.1f}%" if c.reliability is not None else "no deadlines" if c.orders else "-"


HEADER = (f"  {'#':>3}  {'player':<20} {'rating':>7}  {'skill ± sigma':>14}  {'games':>5} {'wins':>4}  "
          f"{'on time':>12} {'missed':>6} {'resigned':>8} {'abandoned':>9}")


def text(sections: list[Section]) -> str:
    """The league as text tables, one a section."""
    if not sections or not any(s.count for s in sections):
        return "No finished games.\n"
    out = []
    for s in sections:
        title = "all rulesets" if s.ruleset == ALL else s.ruleset
        out.append(f"League: {title} ({s.count} finished game{'s' if s.count != 1 else ''}{s.span})")
        out.append(HEADER)
        for i, r in enumerate(s.rows, 1):
            c = r.conduct
            out.append(f"  {i:>3}  {r.player:<20} {r.skill.rating:>7.2f}  {r.skill.mu:>6.2f} ± {r.skill.sigma:<5.2f}  "
                       f"{r.games:>5} {r.wins:>4}  {share(c):>12} {c.missed:>6} {c.resigned:>8} {c.abandoned:>9}")
        out.append("")
    out.append("rating: skill - 3 sigma (Plackett-Luce); on time: orders given before their deadline, of those "
               "awaited under one (docs/league.md)")
    return "\n".join(out) + "\n"


def figures(rank: int, r: Row) -> dict:
    c = r.conduct
    return {"rank": rank, "player": r.player, "rating": round(r.skill.rating, 4), "mu": round(r.skill.mu, 4),
            "sigma": round(r.skill.sigma, 4), "games": r.games, "wins": r.wins, "orders": c.orders,
            "timed": c.timed, "on_time": c.on_time,
            "reliability": None if c.reliability is None else round(c.reliability, 4), "missed": c.missed, "resigned": c.resigned, "abandoned": c.abandoned}


def left_out(excluded: list[dict], unaudited: list[dict]) -> str:
    """The finished games the league leaves out because `judge audit` fails on them (and why),
    and those it counts without an audit (judge/league/index.py `noted`); "" when none."""
    out = []
    if excluded:
        out.append(f"Left out, judge audit fails ({len(excluded)} game{'s' if len(excluded) != 1 else ''}):")
        out += [f"  {n['game']}: {n['why']}" for n in excluded]
    if unaudited:
        out.append(f"Counted without an audit ({len(unaudited)} game{'s' if len(unaudited) != 1 else ''} made before "
                   "the judge committed to a seed: nothing to check them against):")
        out += [f"  {n['game']}" for n in unaudited]
    return "\n".join(out) + "\n" if out else ""


def as_json(sections: list[Section], excluded: list[dict] = (), unaudited: list[dict] = ()) -> str:
    return json.dumps({"league": [{"ruleset": s.ruleset, "games": s.count,
                                   "players": [figures(i, r) for i, r in enumerate(s.rows, 1)]}
                                  for s in sections],
                       "left_out": [{"game": n["game"], "why": n["why"]} for n in excluded],
                       "not_audited": [{"game": n["game"], "why": n["why"]} for n in unaudited]},
                      indent=2, ensure_ascii=False) + "\n"


def as_csv(sections: list[Section]) -> str:
    out = io.StringIO()
    columns = ["ruleset", *figures(1, Row("")).keys()]
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    for s in sections:
        for i, r in enumerate(s.rows, 1):
            row = figures(i, r)
            writer.writerow({"ruleset": s.ruleset, **row, "reliability": "" if row["reliability"] is None
                             else row["reliability"]})
    return out.getvalue()
