"""A game's page carries each move's report as its changes from the previous one (judge/site/
replay.py), rebuilt by site.js (tests/site/test_browser.py checks every move in Chromium); read
without script, it shows the last report and a move list in which every #move=N link lands."""
from __future__ import annotations

import html
import json
import re

import pytest

from judge.site import build, pages, replay, sources
from archivekit import site_file


def page_of(out, record) -> str:
    return site_file(out, record["ruleset"], record["game"]).read_text()


@pytest.fixture(scope="module")
def site(games_dir, tmp_path_factory):
    """The site of every game, built once for the module: its tests only read it (a build
    renders every move's report of every game: seconds)."""
    out = tmp_path_factory.mktemp("pages") / "site"
    build.build(games_dir, out)
    return out


def test_the_changes_rebuild_every_report_and_cost_a_fraction_of_them(games_dir, site):
    for _, record in sources.records(games_dir)[0]:
        shown = pages.reports(record)
        texts = [r["text"] for r in shown]
        page = page_of(site, record)
        block = json.loads(re.search(r'<script type="application/json" id="reports">(.*?)</script>', page, re.S)[1])
        assert block["moves"] == [r["move"] for r in shown]
        assert replay.decode(block["ops"]) == texts, record["game"]
        if len(texts) > 100:  # each report once, as its changes: a fraction of them all
            assert len(page.encode()) < sum(len(t) for t in texts) / 2, record["game"]


def test_without_script_a_page_shows_the_last_report_and_every_move(games_dir, site):
    for _, record in sources.records(games_dir)[0]:
        page = page_of(site, record)
        shown = pages.reports(record)
        pres = re.findall(r'<pre class="report" data-move="(\d+)">(.*?)</pre>', page, re.S)
        assert len(pres) == 1 and int(pres[0][0]) == record["move"]
        assert html.unescape(pres[0][1]) == shown[-1]["text"]  # the game as it stands, as text
        targets = set(re.findall(r'<li id="move=(\d+)">', page))
        assert targets == {str(r["move"]) for r in shown}  # every #move=N link lands on its move
        links = set(re.findall(r'href="#move=(\d+)"', page))
        assert links <= targets
        for row in record["moves"][:20]:  # each move's orders, as the public saw them, in the list
            for order in row["orders"]:
                assert html.escape(order, quote=False) in page


def test_every_file_a_page_links_or_loads_is_in_the_site(games_dir, site):
    """Every script, style sheet and link of every page leads to a file of the site (a game's
    page lies two folders down, RULESET/XY/: a script named from one folder up was lost)."""
    from urllib.parse import unquote

    out = site
    pages_ = list(out.rglob("*.html"))
    assert len(pages_) > len(sources.records(games_dir)[0])
    for page in pages_:
        for target in re.findall(r'(?:src|href)="([^"#]+)', page.read_text()):
            if not re.match(r"[a-z]+:", target):
                assert (page.parent / unquote(target)).resolve().is_file(), (page.relative_to(out), target)
