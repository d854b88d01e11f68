"""Every line a player or the game master may send costs the same whatever the archive holds
(issue 33): each verb of the gateway's tables (the players' `selfservice.COMMANDS`, the game
master's `inbox.GM_COMMANDS`: read from the code, so a new verb fails here until it has an
example) is sent by mail to a game of a judge whose archive holds 1,000 finished records, its
league's index and its site. What the judge reads of the archive while it answers and
publishes is counted (every file opened, Python's audit hook): the budget of docs/mail-reference.md, the
same for 10 records or 10,000."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judge.engine.ruleset import GM
from judge.gateway import inbox, selfservice
from judge.mail import passwords
from judge.store import config as configs

from archivekit import copies
from mailkit import GM_ADDRESS, T0, address, make_site, message, new_game

RECORDS = 1000
BUDGET = 40  # files of the archive a line may open (docs/mail-reference.md), and not one of another game

PLAYER_LINES = {  # an example of each player's verb (the first word is the verb)
    "help": "help", "rules": "rules", "history": "history 1", "report": "report 1", "league": "league",
    "away": "away until 2026-05-20", "back": "back", "resign": "resign", "propose": "propose end",
    "agree": "agree end", "press": "press all hello from the test", "set": "set zone Europe/Paris",
    "confirm": "confirm 123456", "notify": "notify off",  # (a URL would have later lines send notices)
    "link": "link",
}
GM_LINES = {"status": "status", "pause": "pause", "resume": "resume", "absent": "absent bob",
            "present": "present bob", "set": "set deadline_hours 72",
            "replace": "replace carol dave dave@players.test"}

_opened: list | None = None


def _audit(event, args):
    if _opened is not None and event == "open" and isinstance(args[0], (str, bytes, Path)):
        _opened.append(str(args[0] if not isinstance(args[0], bytes) else args[0].decode(errors="replace")))


sys.addaudithook(_audit)


@pytest.fixture(scope="module")
def judge_site(tmp_path_factory):
    """A mail judge with an archive of RECORDS finished games (committed, indexed) and a site,
    and a running mail game g1; the game file as it starts, and its passwords."""
    root = tmp_path_factory.mktemp("site")
    with pytest.MonkeyPatch.context() as m:
        m.setattr(passwords, "N", 2**4)
        site = make_site(root)
        (root / "judge.toml").write_text((root / "judge.toml").read_text() + '[archive]\ngit = "archive"\n'
                                                                            'site = "archive/site"\n')
        site.cfg = configs.load(root / "judge.toml")
        repo = root / "archive"
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        copies(repo, RECORDS)
        subprocess.run(["git", "-C", str(repo), "-c", "core.looseCompression=0", "add", "mogul"], check=True)
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm",
                        "a thousand finished games"], check=True)
        pw = new_game(site, deadline=48, now=T0)
    site.take()
    return site, site.game_path().read_bytes(), pw


@pytest.mark.parametrize("who,line", [("player", line) for line in PLAYER_LINES.values()]
                         + [("gm", line) for line in GM_LINES.values()])
def test_every_line_costs_the_same_whatever_the_archive_holds(judge_site, who, line):
    global _opened
    site, start, pw = judge_site
    site.game_path().write_bytes(start)  # each line against the game as it starts
    repo = site.cfg.archive
    assert len(list((repo / "mogul").glob("g*.toml"))) >= RECORDS
    sender, name = (GM_ADDRESS, GM) if who == "gm" else (address("alice"), "alice")
    raw = message(sender, f"game g1\nplayer {name} {pw[name]}\n{line}\n")
    _opened = []
    try:
        inbox.handle(raw, site.cfg, site.outbox(), T0)
    finally:
        opened, _opened = _opened, None
    answer = [m for m in site.take() if m["To"] == sender and m["Subject"].startswith("Re:")]
    assert len(answer) == 1 and line.split()[0] in answer[0].get_content()
    inside = [p for p in opened if Path(p).is_relative_to(repo) and "/.git/" not in p]
    others = [p for p in inside if "/mogul/g" in p and "/mogul/g1." not in p and "/mogul/.g1." not in p]
    index = {Path(p).name for p in inside if "/.judge-index/" in p} - {"lock", "league.json", "g1.toml.json"}
    assert others == [] and len(inside) <= BUDGET, (others, inside)
    assert {n for n in index if not n.startswith(".g1.toml.json.")} == set(), index  # the game's row, the kept league
    if line == "league":  # the kept league: every game counted, not one record or row read
        assert f"League: mogul ({RECORDS} finished games" in answer[0].get_content()
        assert any(p.endswith("/.judge-index/league.json") for p in inside)


def test_every_verb_of_the_gateway_has_an_example_here():
    assert set(PLAYER_LINES) == set(selfservice.COMMANDS)
    assert set(GM_LINES) == set(inbox.GM_COMMANDS)
