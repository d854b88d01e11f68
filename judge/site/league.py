"""The site's league page (league.html): the league of the finished games the site shows
(docs/league.md), drawn by judge/league/html.py. What the league reads of each finished game is
kept in league.json, so that the rebuild after a change reads no other record, and computes the
league only when the changed game is finished (or was, before a rollback)."""
from __future__ import annotations

import json
from pathlib import Path

from judge.engine.errors import GameFileError
from judge.league import html, records, table

DATA = "league.json"
PAGE = "league.html"


def known(out: Path) -> dict[str, records.Finished] | None:
    """The finished games the site's league holds already, by "RULESET/GAME"; None when the
    site has no league data yet (a site built before the league page)."""
    try:
        listed = json.loads((out / DATA).read_text(encoding="utf-8"))["games"]
        return {f"{g['ruleset']}/{g['game']}": records.from_data(g) for g in listed}
    except (OSError, ValueError, KeyError, TypeError, GameFileError):
        return None


def write(out: Path, games: dict[str, records.Finished], aliases: dict | None, write_file) -> None:
    """league.json and league.html for `games` (written only where they change)."""
    ordered = records.ordered(list(games.values()))
    write_file(out / DATA, json.dumps({"games": [records.as_data(g) for g in ordered]}, indent=1,
                                      ensure_ascii=False, sort_keys=True) + "\n")
    from judge.site import pages

    write_file(out / PAGE, pages.league_page(html.fragment(table.league(ordered, aliases))))


def build(out: Path, found: list[dict], aliases: dict | None, write_file) -> list[str]:
    """The league page of a whole build: the games the site held already, with every record
    found now (a finished one added, a running one taken out); return the warnings."""
    games = known(out) or {}
    finished, warnings = records.of_records(found)
    for record in found:
        games.pop(f"{record['ruleset']}/{record['game']}", None)
    games.update(finished)
    write(out, games, aliases, write_file)
    return warnings


def update(out: Path, record: dict, archive_dir, aliases: dict | None, write_file) -> None:
    """After a change to one game: recompute the league only when that game is finished, or
    the league counted it (a rollback took its end back), or the site has no league page yet."""
    key = f"{record['ruleset']}/{record['game']}"
    games = known(out)
    if games is not None and not record.get("complete") and key not in games and (out / PAGE).exists():
        return  # a running game: the league reads finished games only
    if games is None:  # the first league page of an earlier site: every finished record of the archive
        games = {}
        if archive_dir is not None and Path(archive_dir).is_dir():
            games = {f"{g.ruleset}/{g.game}": g for g in records.gather(archive_dir)[0]}
    games.pop(key, None)
    games.update(records.of_records([record])[0])
    write(out, games, aliases, write_file)
