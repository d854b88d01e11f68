"""A change builds a record's rows on the previous record's (judge/record/moves.py): the rows of
earlier moves are kept where they are the judge's, and made again from the game where they are
not (a record edited by hand, or by someone who would break the archive)."""
from __future__ import annotations

import copy

import pytest

from judge.engine import bots
from judge.engine.game import Game
from judge.record import moves, public


def played(game: Game, orders: int) -> Game:
    for _ in range(orders):
        bots.play_one(game)
    return game


@pytest.mark.parametrize("edit", ["=x 1", 7, None, "=1"])
def test_a_previous_record_whose_rows_are_no_report_lines_is_made_again_not_refused(edit):
    game = played(Game.new("mogul", ["ann", "bob", "cat"], seed=7), 6)
    previous = public.build(game, "g")
    later = played(game.copy(), 3)
    fresh = moves.build(later)
    assert len(moves._reusable(later, previous)) > 3  # (the judge's rows: kept, the same)
    assert moves.build(later, copy.deepcopy(previous)) == fresh
    previous["moves"][1]["report"][0] = edit
    assert moves.build(later, previous) == fresh
