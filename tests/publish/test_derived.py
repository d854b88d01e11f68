"""The judge's own derived files are checked like records (issue 44, item 10): the site's
games.json and month files, the league index's league.json and rows. One edited into another
shape, cut short or nested 100,000 deep is made again from the records with one warning:
never a traceback, never a change left unpublished, never a refused mail."""
from __future__ import annotations

import json
import subprocess

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots

from archivekit import archived_site, href
from mailkit import GM_ADDRESS, address, block, flat, make_site, message, new_game, send
from registry import new_game as played_game
from judge.publish import marks, step
from judge.store import config as configs, gamefile

DEEP = "[" * 100_000 + "]" * 100_000
BROKEN = {
    "an empty game": '{"running": {}, "recent": [{}], "months": {}}',
    "recent alone": '{"recent": [{}]}',
    "a game without its audit": '{"running": {"mogul/x": {"key": "mogul/x"}}, "recent": [], "months": {}}',
    "nested 100,000 deep": DEEP,
    "cut short": '{"running": {',
}


def judge(*args):
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def shell_site(tmp_path):
    """Two shell games published into an archive with its site."""
    config, games, repo, site = archived_site(tmp_path)
    for k, name in enumerate(("friday", "monday")):
        game = played_game("mogul", 3, {}, 20 + k)
        bots.play_out(game, moves=3)
        gamefile.create(game, games / f"{name}.toml")
        assert judge("bot", games / f"{name}.toml", "--as", game.awaiting()[0], "--config", config)[0] == 0
    return config, games, repo, site


def bot(config, games, name):
    game = gamefile.load(games / f"{name}.toml")
    return judge("bot", games / f"{name}.toml", "--as", game.awaiting()[0], "--config", config)


@pytest.mark.parametrize("text", list(BROKEN.values()), ids=list(BROKEN))
def test_a_games_json_that_does_not_check_is_made_again_and_the_change_published(shell_site, text):
    config, games, repo, site = shell_site
    (site / "games.json").write_text(text)
    code, out, err = bot(config, games, "friday")
    assert code == 0 and "Traceback" not in err
    said = [line for line in flat(err).splitlines() if "games.json" in line]
    assert len(said) == 1 and "made again from the records" in said[0], err
    listed = json.loads((site / "games.json").read_text())["running"]
    assert {k: v["move"] for k, v in listed.items()} == \
        {f"mogul/{n}": gamefile.load(games / f"{n}.toml").move for n in ("friday", "monday")}
    index = (site / "index.html").read_text()
    assert href("mogul", "friday") in index and href("mogul", "monday") in index
    from judge.site.pages import PRIVATE, base  # the views the change sealed, written with the site made again

    views = json.loads((site / (base("mogul", "friday") + PRIVATE)).read_text())
    assert views["move"] == gamefile.load(games / "friday.toml").move
    assert subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True, text=True).stdout == ""
    code, out, err = bot(config, games, "monday")  # made again once: the next change says nothing
    assert code == 0 and not err, err


@pytest.mark.parametrize("text", [BROKEN["an empty game"], DEEP], ids=["an empty game", "nested 100,000 deep"])
def test_judge_site_makes_its_lists_again_with_one_warning(shell_site, tmp_path, text):
    config, games, repo, site = shell_site
    out = tmp_path / "out"
    assert judge("site", repo, out)[0] == 0
    (out / "games.json").write_text(text)
    code, said, err = judge("site", repo, out)
    assert code == 0 and "Traceback" not in err
    assert len([line for line in flat(err).splitlines() if "games.json" in line]) == 1, err
    assert len(json.loads((out / "games.json").read_text())["running"]) == 2


def test_a_month_file_that_does_not_check_is_made_again(tmp_path):
    config, games, repo, site = archived_site(tmp_path)
    for name, seed in (("first", 31), ("second", 32)):  # two games that end (undated: one month file)
        game = played_game("mogul", 3, {}, seed)
        bots.play_out(game)
        gamefile.create(game, games / f"{name}.toml")
        marks.marking(games / f"{name}.toml", "2026-05-01T12:00:00Z", lambda: None)()
        assert step.publish(configs.load(config), games / f"{name}.toml", None) == ""
    month = next((site / "finished").glob("*.json"))
    month.write_text('{"month": "x", "games": [{"key": "mogul/first"}]}')
    (site / "games.json").write_text((site / "games.json").read_text())
    game = played_game("mogul", 3, {}, 33)
    bots.play_out(game, moves=2)
    gamefile.create(game, games / "third.toml")
    code, _, err = bot(config, games, "third")
    assert code == 0 and "Traceback" not in err
    assert len([line for line in flat(err).splitlines() if month.name in line]) == 1, err
    assert {g["key"] for g in json.loads(month.read_text())["games"]} == {"mogul/first", "mogul/second"}


@pytest.mark.parametrize("text", ['{"format": 2, "names": {"a": [[1]]}}', DEEP], ids=["a name not text", "nested deep"])
def test_a_league_json_that_does_not_check_is_made_again_and_never_refuses_a_mail(tmp_path, text):
    site = make_site(tmp_path)
    pw = new_game(site, "g1")
    for name, seed in (("done", 41),):  # a finished game, so that the league has a table
        game = played_game("mogul", 3, {}, seed)
        bots.play_out(game)
        gamefile.create(game, site.cfg.games / f"{name}.toml")
    assert judge("league", site.cfg.games)[0] == 0
    league = site.cfg.games / ".judge-index" / "league.json"
    kept = league.read_text()
    league.write_text(text)
    game = site.load()
    who = game.awaiting()[0]
    order = bots.choose(game, who)
    mails = send(site, message(address(who), block(who, pw[who], f"#{game.move} {order}", "league")))
    assert site.load().move == game.move + 1  # the order applied
    answer = [m for m in mails if m["To"] == address(who) and m["Subject"].startswith("Re:")]
    assert answer and "league" in answer[0].get_content()
    code, out, err = judge("league", site.cfg.games)
    assert code == 0 and "Traceback" not in err and "League: mogul" in out
    log = site.cfg.games / "g1.archive.log"  # (the mail's change published the game, and made it again)
    said = flat(err).splitlines() + (log.read_text().splitlines() if log.exists() else [])
    assert len([line for line in said if "league.json" in line]) == 1, said
    assert json.loads(league.read_text()) == json.loads(kept)  # made again: the same league
    assert judge("league", site.cfg.games)[2] == ""
