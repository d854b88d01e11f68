"""Helpers of the site's tests: bot games of every ruleset saved in a games directory."""
from __future__ import annotations

import pytest

from judge.engine import bots, ruleset
from judge.store import gamefile

from registry import new_game, random_bots


def played(name: str, seed: int, moves: int | None = None):
    game = new_game(name, 3 if name != "mogul-board" else 4, {}, seed)
    bots.play_out(game, random_bots(game) if name == "rumors" else None, moves=moves)
    return game


@pytest.fixture(scope="session")
def games_dir(tmp_path_factory):
    """A finished game of every ruleset, and a running rumors game (secret roll-phase orders)."""
    d = tmp_path_factory.mktemp("games")
    for rs in ruleset.every():
        gamefile.create(played(rs.name, 11), d / f"{rs.name}.toml")
    gamefile.create(played("rumors", 12, moves=40), d / "running.toml")
    return d

