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

from judge.league import rating
from judge.league.records import UNNAMED, Finished
from judge.league.reliability import Conduct, of_game

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
    games: list[Finished]
    rows: list[Row]  # best first

    @property
    def span(self) -> str:
        ends = [g.ended[:10] for g in self.games if g.ended]
        undated = len(self.games) - len(ends)
        return (f", ended {ends[0]}" + (f" to {ends[-1]}" if ends[-1] != ends[0] else "") if ends else "") + \
            (f"{';' if ends else ','} {undated} without an end date" if undated else "")


class Names:
    """One player per name, whatever its case, and the site's aliases; shown as first met."""

    def __init__(self, aliases: dict[str, str] | None = None):
        self.aliases = {k.lower(): v for k, v in (aliases or {}).items()}
        self.shown: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        name = self.aliases.get(name.lower(), name)
        return self.shown.setdefault(name.lower(), name)


def placings(game: Finished, name) -> dict[str, int]:
    """Each player's place in `game`: a seat's final rank goes to whoever held it at the end;
    players who resigned come last, level with each other. A player met in two seats (by
    aliases) keeps the better."""
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


def section(ruleset: str, games: list[Finished], names: Names) -> Section:
    rows: dict[str, Row] = {}

    def row(player: str) -> Row:
        return rows.setdefault(player.lower(), Row(player))

    for game in games:
        for player, conduct in of_game(game, names).items():
            row(player).conduct.add(conduct)
        places = placings(game, names)
        players = list(places)
        for player in players:
            row(player).games += 1
            row(player).wins += places[player] == 1 and player.lower() not in _resigned(game, names)
        if len(players) >= 2:
            after = rating.rate([row(p).skill for p in players], [places[p] for p in players])
            for player, skill in zip(players, after):
                row(player).skill = skill
    ordered = sorted(rows.values(), key=lambda r: (-round(r.skill.rating, 6), -round(r.skill.mu, 6), -r.games,
                                                   r.player.lower()))
    return Section(ruleset, games, ordered)


def _resigned(game: Finished, names: Names) -> set[str]:
    return {names(p).lower() for _, _, p in game.resigned}


def league(games: list[Finished], aliases: dict | None = None, ruleset: str | None = None,
           since: str | None = None) -> list[Section]:
    """One section per ruleset (by name), then one over all of them when there are several;
    only `ruleset`'s with it. `since`: games that ended that day or later (a game whose record
    does not say when it ended is left out then)."""
    if since:
        games = [g for g in games if g.ended and g.ended[:10] >= since]
    names = Names(aliases)
    for game in games:  # names shown as first met, in order of the games' end
        for spans in game.spans.values():
            for _, player in spans:
                names(player)
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
    if not sections or not any(s.games for s in sections):
        return "No finished games.\n"
    out = []
    for s in sections:
        title = "all rulesets" if s.ruleset == ALL else s.ruleset
        out.append(f"League: {title} ({len(s.games)} finished game{'s' if len(s.games) != 1 else ''}{s.span})")
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


def as_json(sections: list[Section]) -> str:
    return json.dumps({"league": [{"ruleset": s.ruleset, "games": len(s.games),
                                   "players": [figures(i, r) for i, r in enumerate(s.rows, 1)]}
                                  for s in sections]}, indent=2, ensure_ascii=False) + "\n"


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


def from_source(source, aliases: dict | None = None, ruleset: str | None = None,
                since: str | None = None) -> tuple[list[Section], list[str]]:
    """The league of the finished games in `source`, and the files passed over."""
    from judge.league.records import gather

    games, warnings = gather(source)
    if since:  # never silently: the games --since cannot place
        undated = [f"{g.ruleset}/{g.game}" for g in games if not g.ended and (ruleset is None or g.ruleset == ruleset)]
        if undated:
            warnings.append(f"--since left out {len(undated)} finished game{'s' if len(undated) != 1 else ''} whose "
                            "record does not say when it ended (ended under a judge that did not keep the date): "
                            + ", ".join(undated[:10]) + (f" and {len(undated) - 10} more" if len(undated) > 10 else ""))
    return league(games, aliases, ruleset, since), warnings
