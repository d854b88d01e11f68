"""Every report fits a screen or two: over bot games of every ruleset and player count, each
player's report at every move has at most 80 lines with up to 4 players and 120 at larger
tables, and the order block at most 12 lines. `python bench/report_size.py` prints the longest
of each (the test prints nothing among the suite's progress).

JUDGE_SIZE_GAMES (default 1; sensible and random bots seated in turn) sets the games per ruleset and player count."""
from __future__ import annotations

import pytest

from judge.engine import bots, ruleset
from judge.engine.report import render
from judge.engine.ruleset import GM

from registry import many, new_game
from test_order_forms import BLOCK_LIMIT, order_block

GAMES = many("JUDGE_SIZE_GAMES", 1)


def line_limit(players: int) -> int:
    return 80 if players <= 4 else 120


def configs():
    return [(rs.name, n) for rs in ruleset.every() for n in range(rs.min_players, min(rs.max_players, len(bots.NAMES)) + 1)]


def longest_reports(name: str, n: int) -> tuple[tuple[int, str], tuple[int, str]]:
    """(lines, where) of the longest report and of the longest order block."""
    report, block = (0, ""), (0, "")
    for seed in range(GAMES):
        game = new_game(name, n, {}, seed)
        kinds = {p: "random" for p in [*game.players, GM][(seed + 1) % 2::2]}
        while True:
            # the awaited players' reports (with the order block) always, everyone's every 4th move
            readers = game.players if game.move % 4 == 0 or game.is_over() else game.awaiting()
            for p in readers:
                if p == GM:
                    continue
                text = render(game.view(p))
                where = f"{name} {n} players seed {seed} move {game.move}, {p}"
                report = max(report, (len(text.splitlines()), where + "\n" + text))
                block = max(block, (len(order_block(text)), where + "\n" + "\n".join(order_block(text))))
            if game.is_over():
                break
            bots.play_one(game, kinds)
    return report, block


# Cost (up to 7 s, stock-round): a whole game at every player count; the longest reports are
# those of the late rounds.
@pytest.mark.parametrize("name", [r.name for r in ruleset.every()])
def test_every_report_fits_a_screen_or_two(name):
    failures = []
    for rs_name, n in configs():
        if rs_name != name:
            continue
        (lines, where), (block, block_where) = longest_reports(name, n)
        if lines > line_limit(n):
            failures.append(f"{lines} lines, over {line_limit(n)}: {where}")
        if block > BLOCK_LIMIT:
            failures.append(f"order block of {block} lines, over {BLOCK_LIMIT}: {block_where}")
    assert not failures, "\n\n".join(failures)
