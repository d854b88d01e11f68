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


def test_audit_counts_in_the_singular_and_the_plural(tmp_path):
    """"all 1 draws": a stock-round game draws once (the priority deal) before its first order."""
    one = tmp_path / "one.toml"
    judge("new", "stock-round", one, "-p", "a", "-p", "b", "-p", "c", "--seed", 5)
    game = gamefile.load(one)
    assert game.rng.draws == 1
    code, out = judge("audit", one)
    assert code == 0
    assert flat("the game, with no order logged, is to the saved state: the one draw of its generator came from "
                "the committed seed; set by the game master, not drawn by the judge: the seed (and so every "
                "draw).") in flat(out)
    assert "all 1 " not in flat(out)
    code, out = judge("audit", finished(tmp_path))
    assert code == 0 and re.search(r"and all \d+ orders and the judge's 1 entry replay from them .*: all \d+ draws "
                                   r"of its generator", flat(out))  # (the entry: the end's time)


def test_the_game_masters_one_roll_is_counted_in_the_singular(tmp_path):
    path = tmp_path / "r.toml"
    judge("new", "rumors", path, "-p", "a", "-p", "b", "-p", "c", "--seed", 5, "-o", "dice=manual")
    game = gamefile.load(path)
    order = game.ruleset.legal_orders(game.state, "gm")[0]
    assert judge("order", path, "--gm", order)[0] == 0
    code, out = judge("audit", path)
    assert code == 0
    assert flat("the game master's 1 order (as their roll or result) is in the log as given") in flat(out)


def test_a_mail_game_with_one_observer_says_observer(tmp_path, monkeypatch):
    monkeypatch.setattr(passwords, "N", 2**4)
    site = make_site(tmp_path)
    code, out = judge("new", "mogul", site.game_path(), "-p", "a=a@players.test", "-p", "b=b@players.test",
                      "-p", "c=c@players.test", "--observer", "w@watch.test",
                      env={"JUDGE_CONFIG": str(site.root / "judge.toml")})
    assert code == 0, out
    assert "welcome mails sent to 3 players and 1 observer\n" in out


@pytest.mark.parametrize("ruleset", ["mogul", "rumors"])
def test_the_finished_reports_seed_is_a_paragraph_of_its_own(tmp_path, ruleset):
    """"The seed was ..." ran straight after the final standings, its lines wrapped with an
    indentation in the middle of a sentence."""
    code, report = judge("show", finished(tmp_path, ruleset))
    assert code == 0
    before, _, after = report.partition("\n\nThe seed was ")
    assert after, report
    paragraph = ("The seed was " + after).split("\nCommitment: ")[0].splitlines()
    assert all(len(line) <= 78 and not line.startswith(" ") for line in paragraph), paragraph
    assert flat("`judge audit` on the game's record checks that every draw of the judge came from them.") in \
        flat(" ".join(paragraph))


def test_a_finished_game_with_a_generator_key_names_it_in_the_same_paragraph():
    game = Game.new("mogul", ["a", "b", "c"])
    assert game.rng.key
    bots.play_out(game)
    report = render(game.view(None))
    paragraph = report.split("\n\nThe seed was ")[1].split("\nCommitment: ")[0]
    assert flat(f"the salt {game.salt} and the generator's key {game.rng.key}: with the commitment below") in \
        flat(paragraph)
    assert all(len(line) <= 78 and not line.startswith(" ") for line in paragraph.splitlines())
