"""Every line the judge writes for people fits 78 columns (the line length RFC 5322
recommends for mail; a phone's screen): each player's, the public and the game master's
report of bot games of every ruleset at every player count, the score track, and `judge help`
of every ruleset and topic, and without one."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots, ruleset as registry
from judge.engine.report import WIDTH, render, render_help, render_standings
from judge.engine.ruleset import GM

from registry import new_game

def _case(name: str, *rest):
    return pytest.param(name, *rest, id="-".join(map(str, (name, *rest))))


def too_wide(text: str, where: str) -> list[str]:
    return [f"{where}: {len(line)} columns: {line}" for line in text.splitlines() if len(line) > WIDTH]


@pytest.mark.parametrize("name,players", [_case(rs.name, n) for rs in registry.every()
                                          for n in range(rs.min_players, rs.max_players + 1)])
def test_every_report_fits_78_columns(name, players):
    game = new_game(name, players, {}, players)
    kinds = {p: "random" for p in [*game.players, GM][::2]}
    wide: list[str] = []
    while True:
        if game.move % 3 == 0 or game.is_over():
            for who in [*game.players, None, GM]:
                wide += too_wide(render(game.view(who)), f"move {game.move}, {who or 'public'}")
            wide += too_wide(render_standings(game.ruleset.standings(game.state), game.is_over()), "standings")
        if game.is_over() or wide:
            break
        bots.play_one(game, kinds)
    assert not wide, "\n".join(wide[:10])


@pytest.mark.parametrize("name", [_case(rs.name) for rs in registry.every()])
def test_every_help_fits_78_columns(name):
    rs = registry.get(name)
    topics = [""] + (["cards"] if name == "rumors" else [])
    wide = [w for t in topics for w in too_wide(render_help(rs, t), f"judge help {name} {t}")]
    assert not wide, "\n".join(wide)


def test_judge_help_without_a_ruleset_fits_78_columns():
    out = CliRunner().invoke(app, ["help"]).output
    assert not too_wide(out, "judge help")


def test_the_check_catches_a_wide_line():
    assert too_wide("x" * 79, "here") and not too_wide("x" * 78, "here")
