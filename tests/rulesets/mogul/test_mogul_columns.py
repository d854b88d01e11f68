"""mogul and mogul-board reports and help texts fit in 78 columns (issue 27: read in a mail
client or on a phone), at every player count and option set, for every reader."""
import pytest

from judge.engine import bots, ruleset
from judge.engine.report import render, render_help
from judge.engine.ruleset import GM
from judge.engine.simulate import seat_kinds

from registry import config_id, configs, new_game

WIDTH = 78
CONFIGS = [c for c in configs() if c[0] in ("mogul", "mogul-board")]


def too_wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line) > WIDTH]


@pytest.mark.parametrize("name", ["mogul", "mogul-board"])
def test_the_help_fits(name):
    assert not too_wide(render_help(ruleset.get(name)))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_report_of_a_bot_game_fits(config):
    name, n, options = config
    assert {c[1] for c in CONFIGS if c[0] == name} == set(range(3, 7 if name == "mogul" else 6))
    game = new_game(name, n, options, seed=n)
    wide: list[str] = []

    def look(*_):
        if len(game.log) % 3 == 0 or game.is_over():  # (every third position: the same lines)
            for reader in [*game.players, None, GM]:
                wide.extend(too_wide(render(game.view(reader))))

    look()
    bots.play_out(game, seat_kinds(["sensible", "random"], game.players, 0), on_move=look)
    assert game.is_over() and not wide, f"{len(wide)} lines over {WIDTH} columns, e.g. {wide[:3]}"
