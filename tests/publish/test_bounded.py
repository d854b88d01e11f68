"""Publishing is bounded (issue 44, items 4 and 11): a change publishes its own game, and judge
tick catches up the rest within its budget; git's index.lock left by a killed git is removed,
one held by a running process is told to the game master once an hour; a busy lock makes a
command wait a bounded total, not a bounded time a game; an archive on a detached HEAD is told,
and no commit leaves its branch behind."""
from __future__ import annotations

import fcntl
import os
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots
from judge.publish import marks, step
from judge.store import config as configs, gamefile

from mailkit import GM_ADDRESS, flat, take_maildir
from registry import new_game

TOML = ('address = "judge@example.org"\ngm = "gm@example.org"\ngames = "games"\n[maildir]\npath = "out"\n'
        '[archive]\ngit = "archive"\n')
WHEN = "2026-05-01T12:00:00Z"


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A games directory with an archive and mail to the game master (a Maildir), HOME (the hour's
    stamps) in the test's own folder."""
    (tmp_path / "games").mkdir()
    (tmp_path / "home").mkdir()
    subprocess.run(["git", "init", "-q", str(tmp_path / "archive")], check=True)
    (tmp_path / "judge.toml").write_text(TOML)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "home"))
    return tmp_path


def judge(root: Path, *args, env=None):
    result = CliRunner().invoke(app, [*map(str, args), "--config", str(root / "judge.toml")], env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def marked(root: Path, n: int) -> list[Path]:
    """`n` games saved and marked as changes would, none published yet."""
    paths = []
    for k in range(n):
        game = new_game("mogul", 3, {}, 50 + k)
        bots.play_out(game, moves=2)
        path = root / "games" / f"g{k}.toml"
        gamefile.create(game, path)
        marks.marking(path, WHEN, lambda: None)()
        paths.append(path)
    return paths


def git(root: Path, *args) -> str:
    return subprocess.run(["git", "-C", str(root / "archive"), *args], capture_output=True, text=True).stdout


def to_gm(root: Path) -> list:
    return [m for m in take_maildir(root / "out") if m["To"] == "gm@example.org"]


def test_a_tick_over_marked_games_with_a_stale_index_lock_publishes_each_once(site):
    games = marked(site, 5)
    lock = site / "archive" / ".git" / "index.lock"
    lock.write_text("")  # a git killed two minutes ago
    os.utime(lock, (time.time() - 120, time.time() - 120))
    trace = site / "steps"
    code, out, err = judge(site, "tick", env={"JUDGE_STEPS": str(trace)})
    assert code == 0, err
    shows = [line for line in trace.read_text().splitlines() if line.startswith("git show ")]
    assert len(shows) == len(games)  # each game once (it was 5 + 5 * 5: every change published every game)
    assert not lock.exists() and git(site, "ls-files").split() == [f"mogul/g{k}.toml" for k in range(5)]
    assert marks.pending(site / "games") == []


def test_a_change_publishes_its_own_game_and_a_refused_one_nothing(site):
    first, second = marked(site, 2)
    trace = site / "steps"
    code, _, err = judge(site, "order", first, "--as", "nobody", "pass", env={"JUDGE_STEPS": str(trace)})
    assert code != 0 and "git" not in trace.read_text()  # refused: nothing saved, nothing published
    game = gamefile.load(second)
    code, _, err = judge(site, "bot", second, "--as", game.awaiting()[0], env={"JUDGE_STEPS": str(trace)})
    assert code == 0, err
    assert git(site, "ls-files").split() == ["mogul/g1.toml"] and marks.pending(site / "games") == [first]
    assert judge(site, "tick")[0] == 0 and marks.pending(site / "games") == []  # the tick catches up the rest


def test_judge_tick_catches_up_within_its_budget_and_names_the_games_left(site):
    games = marked(site, 3)
    cfg = configs.load(site / "judge.toml")
    said = step.pending(cfg, None, budget=0)  # spent at once: one game published, every tick gets on
    assert said == ["2 marked games left for the next judge tick (a tick publishes for 0 s at most): g1, g2"]
    assert marks.pending(site / "games") == games[1:]
    assert step.pending(cfg, None) == [] and marks.pending(site / "games") == []


def test_an_index_lock_held_by_a_running_process_is_told_to_the_game_master_once_an_hour(site):
    games = marked(site, 2)
    lock = site / "archive" / ".git" / "index.lock"
    held = open(lock, "w")  # a git that hangs (this process holds it open)
    try:
        os.utime(lock, (time.time() - 300, time.time() - 300))
        code, out, err = judge(site, "tick")
        assert code == 0 and "index.lock" in flat(out + err)
        notes = to_gm(site)
        assert len(notes) == 1 and "index.lock" in notes[0]["Subject"]
        body = notes[0].get_content()
        assert "held for 5 minutes" in flat(body) and "the next change or judge tick publishes it all" in flat(body)
        assert judge(site, "tick")[0] == 0 and to_gm(site) == []  # within the hour: not told again
        assert lock.exists() and marks.pending(site / "games") == games  # never removed while held
    finally:
        held.close()


class Clock:
    """time.monotonic and time.sleep of a clock that moves only when slept on."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.now += max(seconds, 0)


def test_a_busy_index_lock_makes_a_tick_wait_a_bounded_total(site, monkeypatch):
    games = marked(site, 3)
    folder = site / "archive" / ".judge-index"
    folder.mkdir()
    other = os.open(folder / "lock", os.O_RDWR | os.O_CREAT)  # another judge publishing, for ever
    fcntl.flock(other, fcntl.LOCK_EX)
    clock = Clock()
    monkeypatch.setattr(time, "monotonic", clock.monotonic)
    monkeypatch.setattr(time, "sleep", clock.sleep)
    try:
        code, out, err = judge(site, "tick")
    finally:
        os.close(other)
    assert code == 0 and "was not published" in flat(out + err)
    assert clock.now - 1000.0 <= step.LOCK_WAIT + 1  # in all (it was 10 s a game, and again at each change)
    assert marks.pending(site / "games") == games  # left for the next tick


def test_an_archive_on_a_detached_head_is_told_and_its_branch_never_left_behind(site):
    first, second = marked(site, 2)
    assert judge(site, "tick")[0] == 0
    branch = git(site, "symbolic-ref", "HEAD").strip()
    tip = git(site, "rev-parse", "HEAD").strip()
    subprocess.run(["git", "-C", str(site / "archive"), "checkout", "-q", "--detach"], check=True)
    take_maildir(site / "out")
    game = gamefile.load(first)
    code, out, err = judge(site, "bot", first, "--as", game.awaiting()[0])
    assert code == 0 and "detached HEAD" in flat(err), err
    assert git(site, "rev-parse", "HEAD").strip() == tip and git(site, "rev-parse", branch).strip() == tip
    notes = to_gm(site)
    assert len(notes) == 1 and "detached HEAD" in notes[0]["Subject"] + notes[0].get_content()
    assert marks.pending(site / "games") == [first]
    assert judge(site, "tick")[0] == 0 and to_gm(site) == []  # within the hour: not told again
    subprocess.run(["git", "-C", str(site / "archive"), "switch", "-q", branch.rpartition("/")[2]], check=True)
    assert judge(site, "tick")[0] == 0 and marks.pending(site / "games") == []
    assert git(site, "rev-parse", branch).strip() != tip and git(site, "log", "-1", "--format=%s").startswith("mogul/g0")
