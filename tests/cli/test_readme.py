"""A README a newcomer reads to the end (issue 37, item 7): at most 200 lines, what the judge
is, setting up, one game, and a paragraph each for mail, the site and the league; the rest is
in docs/, and every link of the README and the docs leads to a page (and a heading) that is
there."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
README = ROOT / "README.md"
DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as dashes."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {slug(m[1]) for m in re.finditer(r"^#+ (.+)$", text, re.M)}


def test_the_readme_stays_short():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 200, f"README.md has {lines} lines; at most 200: move the details to docs/"


def test_the_readme_says_what_a_newcomer_looks_for():
    text = README.read_text(encoding="utf-8")
    for heading in ("## Set up", "## Your first game: one seat against the bots", "## A game from the shell", "## Play by email", "## A static site of the games",
                    "## The league", "## Tests"):
        assert f"\n{heading}\n" in text
    for package in ("procmail", "chromium", "chromium-driver", "dovecot-imapd"):
        assert f"`{package}`" in text
    for page in ("docs/samples.md", "docs/proofs-and-benchmarks.md", "docs/commands.md", "docs/mail.md"):
        assert f"]({page})" in text
    first = text[text.index("## Your first game"):text.index("## A game from the shell")]
    assert "| judge play mogul --me ann -q" in first and "judge show mine.toml --as ann" in first  # (issue 47)
    assert "| finished games |" not in text  # the benchmarks' figures: docs/proofs-and-benchmarks.md


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda d: str(d.relative_to(ROOT)))
def test_every_link_leads_somewhere(doc):
    broken = []
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # (http:, mailto:)
        page, _, anchor = target.partition("#")
        where = (doc.parent / page).resolve() if page else doc
        if not where.exists():
            broken.append(target)
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(target)
    assert not broken, f"{doc.relative_to(ROOT)}: broken links {broken}"


GUIDES = ["mail.md", "mail-host.md", "players.md", "site.md", "league.md"]  # read through; the rest are references


@pytest.mark.parametrize("guide", GUIDES)
def test_a_guide_is_read_in_minutes(guide):
    """Issue 47, item 6: a guide is at most 400 lines; measurements and internals go to a
    reference page it links."""
    lines = (ROOT / "docs" / guide).read_text(encoding="utf-8").count("\n")
    assert lines <= 400, f"docs/{guide} has {lines} lines; at most 400: move the details to a reference page"


def test_the_mail_guide_says_first_what_a_game_master_setting_up_needs():
    text = (ROOT / "docs" / "mail.md").read_text(encoding="utf-8")
    first = text[text.index("## The shortest way"):text.index("## A mail game")]
    for said in ("cd ~/judge", "from the folder of judge.toml", "cafile", "While the SMTP server is down",
                 "judge watch --config", "<!-- file: judge.toml -->"):
        assert said in first, said
    assert text.count("<!-- file: judge.toml -->") == 1 and text.count("```toml") == 1  # the example once
    assert "](mail-reference.md)" in text and "](players.md)" in text and "](mail-host.md)" in text
    for moved in ("## How fast", "## Limits", "## The outbox", "## Quarantine", "## Benchmark"):
        assert moved not in text and moved in (ROOT / "docs" / "mail-reference.md").read_text(encoding="utf-8")
    reference = (ROOT / "docs" / "mail-reference.md").read_text(encoding="utf-8")
    assert "needs the test extras" in reference or "the test extras" in reference


def test_the_players_page_has_what_a_player_needs():
    text = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
    for heading in ("## What you receive", "## What you write", "## Three answers, and what they mean",
                    "## Commands by mail"):
        assert f"\n{heading}\n" in text
    assert text.count("game friday, ") == 3  # the three sample answers


def test_the_site_guide_says_what_you_see_before_how_it_is_built():
    text = (ROOT / "docs" / "site.md").read_text(encoding="utf-8")
    assert text.index("## What it shows") < text.index("## How it is built")
