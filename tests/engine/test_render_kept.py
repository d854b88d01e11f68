"""A report rendered once is kept by its view's text (judge/engine/report.py): the next change's
"before" is this change's "after". Kept or not, a report is its view's."""
from __future__ import annotations

from judge.engine import bots, report
from judge.engine.game import Game


def test_a_view_changed_in_place_renders_anew_and_a_kept_report_is_the_one_made_afresh():
    game = Game.new("mogul", ["ann", "bob", "cat"], seed=4)
    for _ in range(5):
        game.submit(game.awaiting()[0], [bots.choose(game, game.awaiting()[0])])
    view = game.view("ann")
    first = report.render(view)
    view["players"][0]["chips"] = 987654  # (the same dict, changed in place)
    changed = report.render(view)
    assert "987654" in changed and "987654" not in first
    kept = report.render(game.view("ann"))
    report._RENDERED.clear()
    assert kept == report.render(game.view("ann")) == first
