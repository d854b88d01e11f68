"""Answers that are true and read well (issue 37, item 3): the shell's answers as a game master
reads them, each point found wrong by a newcomer."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots
from judge.engine.game import Game
from judge.engine.report import render
from judge.mail import passwords
from judge.store import gamefile
from mailkit import flat, make_site

GOLDEN = Path(__file__).parents[1] / "golden" / "files"


def judge(*args, env=None):
    result = CliRunner().invoke(app, [str(a) for a in args], env=env)
    return result.exit_code, result.stdout


def finished(tmp_path, ruleset="mogul", seed=1) -> Path:
    path = tmp_path / f"{ruleset}.toml"
    assert judge("play", ruleset, "-n", "3", "--seed", seed, "--save", path, "-q")[0] == 0
    return path


@pytest.mark.parametrize("moves", [0, None])
def test_standings_print_one_line_a_player_without_blank_lines_between(tmp_path, moves):
    path = tmp_path / "g.toml"
    judge("play", "stock-round", "-n", "4", "--seed", 2, "--save", path, "-q", *(["--moves", moves] if moves == 0 else []))
    code, out = judge("standings", path)
    assert code == 0
    lines = out.rstrip("\n").splitlines()
    assert lines[0] in ("Score track", "Final ranking") and len(lines) == 1 + 4, out
    assert all(re.match(r"\s+\d\. \w+", line) for line in lines[1:]), out


def test_status_of_a_game_made_before_commitments_names_no_empty_commitment():
    """A version-1 game file (no commitment) printed "commitment " with nothing after it."""
    for path in sorted((GOLDEN / "2026-11-22").glob("*.toml")):
        assert "commitment" not in gamefile.load(path).to_dict()
        code, out = judge("status", path)
        assert code == 0 and "commitment" not in out, out
        assert not re.search(r" $", out, re.M)
