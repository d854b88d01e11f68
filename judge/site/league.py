"""The site's league page (league.html) and its data (league.json): the league kept in the index
of the site's source (judge/league/index.py), drawn by judge/league/html.py, with the finished
games it leaves out (their audit fails) and those it counts without an audit."""
from __future__ import annotations

import json
from pathlib import Path

from judge.league import html, table

DATA = "league.json"
PAGE = "league.html"


def write(out: Path, kept, write_file) -> None:
    """league.json and league.html of `kept` (written only where they change)."""
    sections = kept.sections()
    data = json.loads(table.as_json(sections, kept.excluded, kept.unaudited))
    write_file(out / DATA, json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    from judge.site import pages

    write_file(out / PAGE, pages.league_page(html.fragment(sections), kept.excluded, kept.unaudited))
