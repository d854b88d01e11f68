"""The game master's commands where one looks for them (issue 37, item 5): `judge bot GAME --gm`
plays the game master's turn as `--gm` does for `order`, `orders` and `show`, and `judge
archive` finds its repository in judge.toml's [archive] git (--config or JUDGE_CONFIG) as every
other command does."""
from __future__ import annotations

import subprocess

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots
from judge.engine.game import Game
from judge.engine.ruleset import GM
from judge.store import gamefile
from mailkit import flat


def judge(*args, env=None):
    result = CliRunner().invoke(app, [str(a) for a in args], env=env)
    return result.exit_code, result.stdout, result.stderr


def awaiting_the_game_master(tmp_path, name: str, **options):
    """A bot game of `name` brought to the game master's turn, saved."""
    game = Game.new(name, ["ann", "ben", "cy"], seed=4, options=options)
    while GM not in game.awaiting():
        bots.play_one(game)
    path = tmp_path / f"{name}.toml"
    gamefile.create(game, path)
    return path


@pytest.mark.parametrize("name, options, verbs", [
    ("stock-round", {}, ("track", "token", "operate", "train", "done", "end")),  # a company turn (version 7)
    ("rumors", {"dice": "manual"}, ("roll",)),  # a hand-rolled die
])
def test_bot_gm_plays_the_game_masters_turn(tmp_path, name, options, verbs):
    path = awaiting_the_game_master(tmp_path, name, **options)
    before = len(gamefile.load(path).log)
    code, out, err = judge("bot", path, "--gm")
    assert code == 0, err
    game = gamefile.load(path)
    assert len(game.log) == before + 1 and game.log[-1].split()[1] == GM
    given = game.log[-1].split(" ", 2)[2]
    assert given.split()[0] in verbs and out.startswith(f"ok: gm: {given}")


def test_bot_gm_when_the_game_master_is_not_awaited_is_refused_saying_who_is(tmp_path):
    path = tmp_path / "m.toml"
    judge("new", "mogul", path, "-p", "ann", "-p", "ben", "-p", "cy", "--seed", 4)
    before = path.read_bytes()
    code, _, err = judge("bot", path, "--gm")
    assert code == 4 and flat("the game master has no order to give now (move 1: waiting for") in flat(err)
    assert judge("bot", path, "--gm", "--as", "ann")[0] == 2 and judge("bot", path)[0] == 2
    assert path.read_bytes() == before


def test_judge_archive_reads_the_archive_from_judge_toml(tmp_path):
    repo = tmp_path / "records"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    config = tmp_path / "judge.toml"
    config.write_text('[archive]\ngit = "records"\n')
    path = tmp_path / "friday.toml"
    judge("new", "mogul", path, "-p", "ann", "-p", "ben", "-p", "cy", "--seed", 4)
    code, out, err = judge("archive", path, "--config", config)
    assert code == 0 and out.startswith("committed: mogul/friday: move 1, new game"), err
    assert (repo / "mogul" / "friday.toml").is_file()
    judge("bot", path, "--as", "ben")  # (no configuration: not archived by itself)
    code, out, _ = judge("archive", path, env={"JUDGE_CONFIG": str(config)})
    assert code == 0 and out.startswith("committed: mogul/friday: move 1, ")
    other = tmp_path / "other"
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    assert judge("archive", path, "--git", other, "--config", config)[0] == 0  # --git wins
    assert (other / "mogul" / "friday.toml").is_file()


def test_judge_archive_without_a_repository_says_where_to_name_one(tmp_path):
    path = tmp_path / "g.toml"
    judge("new", "mogul", path, "-p", "ann", "-p", "ben", "-p", "cy", "--seed", 4)
    code, _, err = judge("archive", path)
    assert code == 2 and flat("give --git DIRECTORY, or a judge.toml with [archive] git") in flat(err)
    config = tmp_path / "judge.toml"
    config.write_text('games = "."\n')
    code, _, err = judge("archive", path, "--config", config)
    assert code == 2 and flat(f"this judge.toml ({config}) has no [archive] git") in flat(err)
