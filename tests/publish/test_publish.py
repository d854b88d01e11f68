"""The publishing step (judge/publish/): a change holds its game's lock only for its own work
(what the judge does on disk, traced step by step, shows every git command and every file of
the site after the lock is left); run twice it writes nothing new; two judges publishing at
once leave the archive, the index and the site whole; a change saved while its game is being
published keeps its mark; an earlier judge's mark is caught up by `judge tick`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots
from judge.publish import marks, step
from judge.store import config as configs, gamefile

from registry import new_game
from archivekit import href, site_file

TOML = 'games = "games"\n[archive]\ngit = "archive"\nsite = "archive/site"\n'


def judge(*args, env=None):
    result = CliRunner().invoke(app, [str(a) for a in args], env=env)
    return result.exit_code, result.stdout, result.stderr


def site(root: Path):
    (root / "games").mkdir()
    subprocess.run(["git", "init", "-q", str(root / "archive")], check=True)
    (root / "judge.toml").write_text(TOML)
    return root / "judge.toml", root / "games", root / "archive"


def started(games: Path, name: str, seed: int, orders: int = 3):
    game = new_game("mogul", 3, {}, seed)
    bots.play_out(game, moves=orders)
    gamefile.create(game, games / f"{name}.toml")
    return game


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".git" not in p.parts and "lock" not in p.name}


def git(repo: Path, *args) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def test_the_lock_is_held_for_the_change_alone_and_all_that_is_published_comes_after(tmp_path):
    config, games, repo = site(tmp_path)
    game = started(games, "friday", 1)
    trace = tmp_path / "steps"
    code, out, err = judge("bot", games / "friday.toml", "--as", game.awaiting()[0], "--config", config,
                           env={"JUDGE_STEPS": str(trace)})
    assert code == 0 and not err, err
    steps = [line.split()[0:2] for line in trace.read_text().splitlines()]
    names = [" ".join(s) for s in steps]
    held = names[names.index("lock friday.toml"):names.index("unlock friday.toml") + 1]
    assert "write friday.toml" in held and "write friday" in held  # the save and its mark
    assert not [s for s in held if s.startswith("git") or s.endswith((".html", ".json", ".atom", ".csv"))]
    after = names[names.index("unlock friday.toml"):]
    assert "git commit-tree" in after and "write friday.html" in after and "write games.json" in after
    changed = git(repo, "show", "--name-only", "--format=%s", "HEAD").split()  # one commit: the record and its site
    assert changed[0] == "mogul/friday:" and {"mogul/friday.toml", f"site/{href('mogul', 'friday')}", "site/index.html"} <= set(changed)
    assert not (games / ".publish" / "friday").exists()  # all done: the mark is cleared


def test_publishing_twice_writes_nothing_new(tmp_path):
    config, games, repo = site(tmp_path)
    game = started(games, "friday", 2)
    assert judge("bot", games / "friday.toml", "--as", game.awaiting()[0], "--config", config)[0] == 0
    before, head = files(tmp_path), git(repo, "rev-parse", "HEAD")
    cfg = configs.load(config)
    for _ in range(2):  # marked again as a change would, and published again
        marks.marking(games / "friday.toml", "2026-05-01T12:00:00Z", lambda: None)()
        assert step.publish(cfg, games / "friday.toml", None) == ""
    assert files(tmp_path) == before and git(repo, "rev-parse", "HEAD") == head
    assert git(repo, "status", "--porcelain") == ""


def test_a_change_saved_while_its_game_is_published_keeps_its_mark(tmp_path):
    _, games, _ = site(tmp_path)
    path = games / "friday.toml"
    started(games, "friday", 3)
    marks.marking(path, "2026-05-01T12:00:00Z", lambda: None)()
    token, when = marks.read(path)  # a publisher reads the mark, then publishes the game as saved ...
    marks.marking(path, "2026-05-01T12:05:00Z", lambda: None)()  # ... while another change is saved
    assert marks.clear(path, token) is False and marks.read(path)[1] == "2026-05-01T12:05:00Z"
    assert marks.pending(games) == [path]
    assert marks.clear(path, marks.read(path)[0]) and marks.pending(games) == []


def test_two_judges_publishing_at_once_leave_everything_whole(tmp_path):
    config, games, repo = site(tmp_path)
    names = [f"g{k}" for k in range(6)]
    awaited = {name: started(games, name, 10 + k).awaiting()[0] for k, name in enumerate(names)}
    procs = [subprocess.Popen([sys.executable, "-m", "judge", "bot", str(games / f"{name}.toml"), "--as",
                               awaited[name], "--config", str(config)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": os.getcwd()})
             for name in names]  # six judges at once, each publishing into the same archive and site
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0 and not err, err
    listed = json.loads((repo / "site" / "games.json").read_text())["running"]
    assert sorted(listed) == [f"mogul/{n}" for n in names]
    assert all(listed[f"mogul/{n}"]["move"] == gamefile.load(games / f"{n}.toml").move for n in names)
    assert sorted(git(repo, "ls-files", "mogul").split()) == [f"mogul/{n}.toml" for n in names]
    assert git(repo, "status", "--porcelain") == "" and marks.pending(games) == []
    entries = {p.name for p in (repo / ".judge-index" / "rows" / "mogul").iterdir()}
    assert entries == {f"{n}.toml.json" for n in names}
    subprocess.run(["git", "-C", str(repo), "fsck", "--no-dangling"], check=True, capture_output=True)


def test_a_mark_left_by_an_earlier_judge_is_caught_up_by_tick(tmp_path):
    config, games, repo = site(tmp_path)
    (tmp_path / "judge.toml").write_text('address = "judge@example.org"\ngm = "gm@example.org"\n'
                                         + TOML + '[maildir]\npath = "out"\n')
    started(games, "friday", 4)
    (games / ".friday.archive-pending").write_text("")  # as a judge before the publishing step left it
    code, out, err = judge("tick", "--config", config)
    assert code == 0 and not err, err
    assert git(repo, "ls-files").split()[0] == "mogul/friday.toml" and site_file(repo / "site", "mogul", "friday").is_file()
    assert not (games / ".friday.archive-pending").exists()
