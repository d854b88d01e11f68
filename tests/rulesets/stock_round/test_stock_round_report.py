"""stock-round's report and help as a newcomer reads them (issue 27): every line fits in 78
columns at every player count, and the prompts, which everyone reads, speak of players in the
third person."""
import re

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots
from judge.engine.game import Game
from judge.engine.report import render
from judge.engine.ruleset import GM

WIDTH = 78
COMMITMENT = re.compile(r"^Commitment: sha256 [0-9a-f]{64}$")  # base.txt.j2's: the hash stays whole (wrap.j2)


def too_wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line) > WIDTH and not COMMITMENT.match(line)]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_line_of_every_report_of_a_bot_game_fits_in_78_columns(players):
    game = Game.new("stock-round", bots.NAMES[:players], seed=players)
    kinds = {p: "sensible" if i % 2 else "random" for i, p in enumerate(game.players)}
    wide, seen = [], set()
    while True:
        awaited = tuple(game.awaiting())
        if awaited not in seen or game.is_over() or len(game.log) % 7 == 0:  # every kind of moment, and more
            seen.add(awaited)
            for reader in [*game.players, None, GM]:
                wide += too_wide(render(game.view(reader)))
        if game.is_over():
            break
        bots.play_one(game, kinds)
    assert game.is_over() and not wide, wide[:5]


def test_judge_help_fits_in_78_columns():
    result = CliRunner().invoke(app, ["help", "stock-round"])
    assert result.exit_code == 0 and "discard COMPANY TYPE" in result.output
    assert too_wide(result.output) == []


def test_a_wrapped_event_goes_on_indented():
    game = Game.new("stock-round", bots.NAMES[:4], seed=4)
    long = "x" * 40 + " " + "y" * 40
    game.state["events"].append({"move": 1, "text": long})
    text = render(game.view(None))
    assert f"  #1 {'x' * 40}\n      {'y' * 40}\n" in text  # (under the event's text)


def test_the_prompt_of_an_offer_speaks_of_no_one_as_you():
    """Everyone reads the prompts: the one of an offered share names the company when the
    director answers for it, and nobody otherwise."""
    game = Game.new("stock-round", ["a", "b", "c"], seed=3, setup={"priority": "a"})
    rs = game.ruleset
    for line in ["a: par FTR 60", "b: par SFR 60", "c: buy FTR company", "a: buy FTR company", "b: buy FTR company",
                 "c: pass", "a: pass", "b: pass", "gm: done", "c: pass", "a: pass", "b: sell FTR 1"]:
        who, _, text = line.partition(": ")
        game.submit(GM if who == "gm" else who, [text])
    assert game.awaiting() == ["c"]
    assert rs.prompt(game.state, "c") == "offer yes or offer no: take one offered FTR share at $60"
    public = render(game.view(None))
    assert "Waiting for: c (offer yes or offer no: take one offered FTR share at $60)" in public
    assert "yourself" not in public and "for yourself" not in render(game.view("a"))
    game.submit("c", ["offer no"])
    game.submit("a", ["offer no"])
    assert rs.prompt(game.state, "a") == "offer yes or offer no: take one offered FTR share at $60 for FTR itself"
