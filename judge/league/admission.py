"""A game master's minimum reliability to join a game (`judge new ... --min-reliability 0.8`):
each player's reliability over every finished game of the source, every ruleset."""
from __future__ import annotations

from judge.engine.errors import UsageError


def check(source, players: list[str], minimum: float, aliases: dict | None = None) -> list[str]:
    """Refuse (UsageError naming each) the players whose reliability is below `minimum`; return
    a note for each player the records do not know yet (they are admitted)."""
    from judge.league.table import ALL, Names, from_source

    if not 0 <= minimum <= 1:
        raise UsageError("--min-reliability is a share from 0 to 1, such as 0.8")
    sections, _ = from_source(source, aliases)
    overall = next((s for s in sections if s.ruleset == ALL), sections[0] if sections else None)
    rows = {r.player.lower(): r for r in overall.rows} if overall else {}
    names, short, unknown = Names(aliases), [], []
    for player in players:
        row = rows.get(names(player).lower())
        share = row.conduct.reliability if row else None
        if share is None:
            unknown.append(f"{player} has no finished game {'with deadlines ' if row else ''}on record yet: admitted")
        elif share < minimum:
            c = row.conduct
            short.append(f"{player}: {100 * share:.1f}% ({c.on_time} of {c.timed} order{'s' if c.timed != 1 else ''} "
                         f"on time, {c.missed} deadline{'s' if c.missed != 1 else ''} missed, {c.resigned} "
                         f"resignation{'s' if c.resigned != 1 else ''})")
    if short:
        raise UsageError(f"nothing was created: this game asks a reliability of at least {100 * minimum:.0f}% "
                         f"(docs/league.md), and {len(short)} player{'s fall' if len(short) > 1 else ' falls'} "
                         "short: " + "; ".join(short))
    return unknown
