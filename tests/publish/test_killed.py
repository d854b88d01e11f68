"""A judge killed at every step of the change that ends a game (issue 33): the last order of a
mail game arrives by mail on a judge with an archive and a site; a real judge process is
killed (SIGKILL, nothing cleaned up) at its first step on disk, then at its second, and so on
to its last (judge/store/steps.py names every write of a file, every git command, the taking
and leaving of the game's lock). After each kill, the message is delivered again if the game
was not saved (the MTA's retry), then `judge tick` runs: the site, the league's index and
league, and the archive (its files, its tree and its commit messages) must be byte for byte
those of a judge that was never killed."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from judge.engine import bots
from judge.engine.game import Game
from judge.engine.ruleset import GM
from judge.mail import mailgame, passwords
from judge.publish import marks, step
from judge.store import config as configs, gamefile, seatkeys

from mailkit import GM_ADDRESS, NAMES, OBSERVER, T0, address, make_site, message, short_setup
from archivekit import href

ARCHIVE = '[archive]\ngit = "archive"\nsite = "archive/site"\n'
NOW = (T0 + timedelta(hours=5)).strftime("%Y-%m-%dT%H:%M:%SZ")  # the last order's time
LATER = (T0 + timedelta(hours=7)).strftime("%Y-%m-%dT%H:%M:%SZ")  # the tick's


@pytest.fixture(scope="module")
def start(tmp_path_factory):
    """A mail game one order before its end, published; and the message with that order."""
    root = tmp_path_factory.mktemp("start")
    with pytest.MonkeyPatch.context() as m:
        m.setattr(passwords, "N", 2**4)  # cheap hashes: this test is about what is published
        site = make_site(root)
        (root / "judge.toml").write_text((root / "judge.toml").read_text() + ARCHIVE)
        subprocess.run(["git", "init", "-q", str(root / "archive")], check=True)
        cfg = configs.load(root / "judge.toml")
        game = Game.new("mogul", NAMES, seed=1, setup=short_setup(3))
        pw = mailgame.enable(game, {p: address(p) for p in NAMES}, [OBSERVER], now=T0)
        while True:
            who = game.awaiting()[0]
            order = bots.choose(game, who)
            trial = game.copy()
            trial.submit(who, [order])
            if trial.is_over():
                break
            game = trial
        path = root / "games" / "g1.toml"
        seatkeys.ensure(game)  # (as a game made by judge new: the private views' keys, drawn once)
        gamefile.create(game, path)
        marks.marking(path, T0.strftime("%Y-%m-%dT%H:%M:%SZ"), lambda: None)()
        assert step.publish(cfg, path, T0) == ""
        for mail in (root / "outbox").rglob("*"):  # (nothing of interest here)
            if mail.is_file():
                mail.unlink()
    sender = GM_ADDRESS if who == GM else address(who)
    raw = message(sender, f"game g1\nplayer {who} {pw[who]}\n#{game.move} {order}\n", message_id="<last@players.test>")
    (root.parent / "last.eml").write_bytes(raw)
    return root, root.parent / "last.eml"


def judge_in_child(root: Path, args: list[str], stdin: Path | None = None, kill_at: int = 0,
                   trace: Path | None = None) -> int:
    """Run the judge in a process of its own (forked: no interpreter to start); its exit status
    (negative: killed by that signal)."""
    pid = os.fork()
    if pid == 0:  # the child: a real judge process
        try:
            os.chdir(root)
            os.environ.pop("JUDGE_STEPS", None)
            os.environ.pop("JUDGE_KILL_AT", None)
            from judge.store import steps

            steps._reached = 0  # (counted afresh: a test run in this process before may have traced steps)
            if kill_at:
                os.environ["JUDGE_KILL_AT"] = str(kill_at)
            if trace:
                os.environ["JUDGE_STEPS"] = str(trace)
            null = os.open(os.devnull, os.O_RDWR)
            os.dup2(os.open(stdin, os.O_RDONLY) if stdin else null, 0)
            os.dup2(null, 1)
            os.dup2(null, 2)
            sys.stdin, sys.stdout, sys.stderr = open(0, closefd=False), open(1, "w"), open(2, "w")
            from judge.cli import app

            app([*args, "--config", str(root / "judge.toml")], prog_name="judge")
        except SystemExit as e:
            os._exit(e.code if isinstance(e.code, int) else 1)
        except BaseException:  # noqa: BLE001
            os._exit(99)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def published(root: Path) -> dict:
    """What a judge published, to compare: every file of the archive's work tree (the site
    within it), its tree and commit messages, and the index's entries and league (the sizes and
    times of the files they were made from aside)."""
    repo = root / "archive"

    def git(*args):
        return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout

    shown = {}
    for path in sorted(repo.rglob("*")):
        rel = path.relative_to(repo)
        if not path.is_file() or rel.parts[0] == ".git" or path.name == "lock":
            continue
        data = path.read_bytes()
        if rel.parts[0] == ".judge-index" and rel.parts[1] == "rows":
            entry = json.loads(data)
            entry.pop("size"), entry.pop("mtime")
            data = json.dumps(entry, sort_keys=True).encode()
        shown[str(rel)] = data
    shown["git tree"] = git("rev-parse", "HEAD^{tree}")
    shown["git log"] = git("log", "--format=%s%n%b")
    shown["git status"] = git("status", "--porcelain", "--untracked-files=all")
    shown["marks"] = sorted(p.name for p in (root / "games" / ".publish").iterdir() if not p.name.endswith(".lock"))
    return shown


# Cost (16 s): a real judge process killed at each of the change's disk steps, then tick; a
# step left out is a kill point not proved.
def test_a_judge_killed_at_every_step_of_the_change_that_ends_a_game_is_caught_up_by_tick(start, tmp_path):
    root, last = start
    reference = tmp_path / "reference"
    shutil.copytree(root, reference)
    trace = tmp_path / "steps"
    assert judge_in_child(reference, ["mail", "--now", NOW], stdin=last, trace=trace) == 0
    assert gamefile.load(reference / "games" / "g1.toml").is_over()
    assert judge_in_child(reference, ["tick", "--now", LATER]) == 0
    expected = published(reference)
    assert "mogul/g1.toml" in expected and f"site/{href('mogul', 'g1')}" in expected
    assert expected["marks"] == [] and expected["git status"] == ""
    league = json.loads(expected[".judge-index/league.json"])
    assert league["tallies"][0]["count"] == 1  # the game that just ended is in the league
    steps = trace.read_text().splitlines()
    names = [s.split()[0] for s in steps]
    assert "git" in names and names.count("write") > 10 and "unlock" in names
    before = gamefile.read_bytes(root / "games" / "g1.toml")
    for k in range(1, len(steps) + 1):
        run = tmp_path / f"killed-{k}"
        shutil.copytree(root, run)
        assert judge_in_child(run, ["mail", "--now", NOW], stdin=last, kill_at=k) == -signal.SIGKILL, steps[k - 1]
        if gamefile.read_bytes(run / "games" / "g1.toml") == before:  # killed before the save: the MTA retries
            assert judge_in_child(run, ["mail", "--now", NOW], stdin=last) == 0
        assert judge_in_child(run, ["tick", "--now", LATER]) == 0
        got = published(run)
        assert got == expected, (f"killed at step {k} ({steps[k - 1]}): differs in "
                                 f"{sorted(key for key in set(got) | set(expected) if got.get(key) != expected.get(key))}")
        shutil.rmtree(run)
