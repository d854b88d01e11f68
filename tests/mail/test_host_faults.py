"""The games directory at the host's worst (issue 35 item 3): full, read-only, gone. A full
and a read-only directory are made for real where the test may mount a small file system
(root, as in CI: a tmpfs), and `judge mail` and `judge tick` run as the MTA and cron run
them. Every fault reaches the game master in a note naming its likely cause, at most once an
hour for each cause; `judge mail` exits 75 with one line that names no path; `judge tick`
prints one line and exits 75, never a traceback; no empty file is left behind; once mended,
the message is handled and answered once."""
from __future__ import annotations

import errno
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.mail import host
from judge.store import gamefile
from mailkit import (GM_ADDRESS, T0, Server, address, block, fill, flat, make_site, message, new_game,
                     small_disk as mounted_small_disk, text)

MAIL_LINE = "judge: a problem on the judge's host; the message is kept and tried later"
LATE = (T0 + timedelta(hours=60)).isoformat()  # past the games' deadline and grace: tick must write


def judge(site, *args, stdin: bytes = b"") -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(site.home)}
    env.pop("JUDGE_CONFIG", None)
    return subprocess.run([sys.executable, "-m", "judge", *args, "--config", str(site.root / "judge.toml")],
                          input=stdin, capture_output=True, env=env, timeout=120)


def smtp_site(tmp_path, server):
    site = make_site(tmp_path, server.port)
    site.home = tmp_path / "home"  # the judge user's home: its log and the hour's stamps
    site.home.mkdir()
    site.server = server
    return site


@pytest.fixture
def server():
    s = Server().start()
    yield s
    s.stop()


@pytest.fixture
def site(tmp_path, server):
    yield smtp_site(tmp_path, server)


@pytest.fixture
def small_disk(tmp_path, server):
    """A site whose games directory is a tmpfs of 512 KB (mailkit.small_disk: skipped where
    it cannot be mounted; test_each_cause_is_named_in_the_note proves the rest)."""
    site = smtp_site(tmp_path, server)
    with mounted_small_disk(site.cfg.games):
        yield site


def first_orders(site, pw) -> tuple[str, bytes]:
    first = site.load().awaiting()[0]
    return first, message(address(first), block(first, pw[first], "bid"))


def notes(server) -> list:
    return [m for m in server.to(GM_ADDRESS) if "problem on the judge's host" in m["Subject"]]


def answers(server, who: str) -> list:
    return [m for m in server.to(address(who)) if m["Subject"].startswith("Re:")]


def one_line(result) -> str:
    said = (result.stdout + result.stderr).decode()
    assert "Traceback" not in said and len(said.strip().splitlines()) == 1, said
    return said.strip()


def leftovers(games: Path) -> list[str]:
    """What a failed run must not leave: half mails, places, pending mails, temporary files."""
    return sorted(p.name for p in games.rglob("*") if p.suffix in (".part", ".place", ".pending", ".tmp"))


def test_a_full_games_directory_is_told_once_and_the_message_handled_once_mended(small_disk):
    site = small_disk
    pw = new_game(site, deadline=48, grace=6)
    first, raw = first_orders(site, pw)
    filler = fill(site.cfg.games)
    for _ in range(2):  # the MTA tries again a few minutes later
        result = judge(site, "mail", stdin=raw)
        assert result.returncode == 75 and one_line(result) == MAIL_LINE
    result = judge(site, "tick", "--now", LATE)  # cron: a missed order to give, which needs the disk
    assert result.returncode == 75
    assert one_line(result) == "judge: host problem (no space left on the disk): the game master is told"
    (note,) = notes(site.server)  # once for the three runs: the same cause within the hour
    assert "(no space left on the disk)" in note["Subject"] and "free some space" in flat(text(note))
    assert "No space left on device" in text(note)
    assert leftovers(site.cfg.games) == [] and site.load().log == [] and answers(site.server, first) == []
    assert "host problem, exit 75" in (site.home / "judge-errors.log").read_text()
    filler.unlink()  # mended
    assert judge(site, "mail", stdin=raw).returncode == 0
    assert site.load().log == [f"1 {first} bid"] and len(answers(site.server, first)) == 1
    assert judge(site, "mail", stdin=raw).returncode == 0 and len(answers(site.server, first)) == 1


def test_a_read_only_games_directory_is_told_and_named(small_disk):
    site = small_disk
    pw = new_game(site, deadline=48, grace=6)
    first, raw = first_orders(site, pw)
    subprocess.run(["mount", "-o", "remount,ro", str(site.cfg.games)], check=True)
    result = judge(site, "mail", stdin=raw)
    assert result.returncode == 75 and one_line(result) == MAIL_LINE
    result = judge(site, "tick", "--now", LATE)
    assert result.returncode == 75
    assert one_line(result) == "judge: host problem (a read-only file system): the game master is told"
    (note,) = notes(site.server)
    assert "(a read-only file system)" in note["Subject"] and "mount it read-write" in flat(text(note))
    subprocess.run(["mount", "-o", "remount,rw", str(site.cfg.games)], check=True)
    assert judge(site, "mail", stdin=raw).returncode == 0 and len(answers(site.server, first)) == 1


def test_a_games_directory_gone_is_told_by_mail_and_by_tick(site):
    pw = new_game(site, deadline=48, grace=6)
    first, raw = first_orders(site, pw)
    os.rename(site.cfg.games, site.root / "games-moved")
    result = judge(site, "mail", stdin=raw)
    assert result.returncode == 75 and one_line(result) == MAIL_LINE
    result = judge(site, "tick")
    assert result.returncode == 75
    assert one_line(result) == "judge: host problem (a file or directory gone): the game master is told"
    (note,) = notes(site.server)
    assert "games directory" in flat(text(note)) and str(site.cfg.games) in flat(text(note))
    assert answers(site.server, first) == []  # never "there is no game called g1"


@pytest.mark.parametrize("code, named", [(errno.ENOSPC, "no space left on the disk"),
                                         (errno.EROFS, "a read-only file system"),
                                         (errno.EACCES, "a wrong owner or mode")])
def test_each_cause_is_named_in_the_note_and_each_cause_told_once_an_hour(tmp_path, monkeypatch, server, code, named):
    """In-process (no mount needed): the game file cannot be saved for `code`."""
    site = smtp_site(tmp_path, server)
    pw = new_game(site, deadline=48, grace=6)
    first, raw = first_orders(site, pw)

    def failing(game, path):
        raise OSError(code, os.strerror(code), str(path))

    monkeypatch.setattr(gamefile, "save", failing)
    env = {"HOME": str(site.home)}
    config = ["--config", str(site.root / "judge.toml")]
    for _ in range(2):
        result = CliRunner().invoke(app, ["mail", *config], input=raw, env=env)
        assert result.exit_code == 75 and result.output.strip() == MAIL_LINE
    result = CliRunner().invoke(app, ["tick", *config, "--now", LATE], env=env)
    assert result.exit_code == 75 and result.output.strip() == f"judge: host problem ({named}): the game master is told"
    (note,) = notes(server)
    assert f"({named})" in note["Subject"] and os.strerror(code) in text(note)
    other = next(c for c in (errno.ENOSPC, errno.EROFS) if c != code)  # another cause: told at once
    monkeypatch.setattr(gamefile, "save", lambda game, path: (_ for _ in ()).throw(OSError(other, os.strerror(other))))
    assert CliRunner().invoke(app, ["mail", *config], input=raw, env=env).exit_code == 75
    assert len(notes(server)) == 2


def test_a_full_disk_never_puts_a_maildir_message_aside(tmp_path, monkeypatch, server):
    """In Maildir mode a full games directory stops the run at the first message, which stays
    in new/ uncounted (it used to be put aside after three runs, as if it were to blame)."""
    site = smtp_site(tmp_path, server)
    pw = new_game(site)
    first, raw = first_orders(site, pw)
    box = tmp_path / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    (box / "new" / "1.msg").write_bytes(raw)
    monkeypatch.setattr(gamefile, "save", lambda game, path: (_ for _ in ()).throw(
        OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))))
    run = ["mail", "--maildir", str(box), "--config", str(site.root / "judge.toml")]
    for _ in range(4):
        assert CliRunner().invoke(app, run, env={"HOME": str(site.home)}).exit_code == 75
    assert os.listdir(box / "new") == ["1.msg"] and not (box / ".Quarantine").exists()
    assert len(notes(server)) == 1
    monkeypatch.undo()
    assert CliRunner().invoke(app, run, env={"HOME": str(site.home)}).exit_code == 0
    assert os.listdir(box / "cur") == ["1.msg:2,S"] and site.load().log == [f"1 {first} bid"]


def test_the_hours_stamp_never_follows_a_link_in_the_games_directory(tmp_path):
    """.mail a link to a folder elsewhere: the hour is counted in the next place (the judge
    user's home), nothing is written at the link's target."""
    cfg = SimpleNamespace(games=tmp_path / "games")
    cfg.games.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (cfg.games / ".mail").symlink_to(outside)
    host._stamp(cfg, "no-space")
    assert list(outside.iterdir()) == []
    assert host._told_lately(cfg, "no-space") and (Path.home() / ".judge-told.no-space").is_file()
