"""The bots: every ruleset has a sensible bot of its own (bot_order sees only the player's view)
that clearly beats the random bot; `judge simulate` plays them and reports it."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from judge.engine import bots, ruleset
from judge.cli import app
from judge.engine.ruleset import Ruleset
from judge.engine.simulate import Summary, simulate, usual_players

from registry import every_name, many

GAMES = many("JUDGE_BOT_GAMES", 30)


def own_bot(name: str) -> bool:
    return type(ruleset.get(name)).bot_order is not Ruleset.bot_order


# Cost (up to 13 s, stock-round): 30 whole games a ruleset; fewer make "clearly beats" a coin's
# toss (JUDGE_BOT_GAMES plays more).
@pytest.mark.parametrize("name", every_name())
def test_the_sensible_bot_beats_the_random_bot_clearly(name):
    if not own_bot(name):
        pytest.fail(f"{name} has no sensible bot of its own (Ruleset.bot_order)")
    rs = ruleset.get(name)
    n = usual_players(rs)
    summary = Summary(bots.NAMES[:n])
    for result in simulate(name, n, GAMES, 7, ["sensible"] + ["random"] * (n - 1)):
        summary.add(result)
    # One sensible bot against random ones: an even share of the wins would be 1/n.
    assert summary.win_rate("sensible") >= 2 / n, summary.lines()
    assert summary.win_rate("sensible") > 3 * summary.win_rate("random"), summary.lines()


def test_simulate_prints_a_summary():
    result = CliRunner().invoke(app, ["simulate", "mogul", "--players", "3", "--games", "6", "--seed", "11",
                                      "--bots", "sensible,random"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "6 games, 3 players" in out
    assert "game length (orders): min" in out and "winning score: min" in out
    for seat in ("seat 1 alice", "seat 2 bob", "seat 3 carol"):
        assert seat in out
    assert "sensible" in out and "random" in out and "9 seats" in out


def test_simulate_is_reproducible_from_its_seed():
    args = ["simulate", "mogul", "-n", "4", "-g", "3", "--seed", "5", "--bots", "random"]
    first, again = CliRunner().invoke(app, args), CliRunner().invoke(app, args)
    assert first.exit_code == 0 and first.stdout == again.stdout


@pytest.mark.parametrize("args, message", [
    (["-n", "9"], "mogul is for 3 to 6 players, not 9"),
    (["--bots", "clever"], "--bots is a comma-separated list of sensible, random, not 'clever'"),
    (["--games", "0"], "--games must be at least 1"),
])
def test_simulate_refuses_bad_arguments(args, message):
    result = CliRunner().invoke(app, ["simulate", "mogul", *args])
    assert result.exit_code == 2
    assert message in result.stderr


# ---- standing orders (issue 11): the same bots, one message a round -------------------------
def writes_standing_orders(name: str) -> bool:
    return type(ruleset.get(name)).bot_standing is not Ruleset.bot_standing


@pytest.mark.parametrize("name", [name for name in every_name() if writes_standing_orders(name)])
def test_bots_through_standing_orders_play_the_same_games_in_far_fewer_exchanges(name):
    """What each ruleset declares of its bots' standing orders: the very same games
    (`bot_standing_exact`: its sensible bot's policy is written exactly as standing orders),
    and at most `bot_exchanges_a_round` exchanges by mail a round (else fewer than by hand)."""
    from judge.engine import standing
    from judge.engine.game import Game

    rs = ruleset.get(name)
    for seed in range(2):
        typed, through = (Game.new(name, bots.NAMES[:usual_players(rs)], seed=seed) for _ in range(2))
        asked, sent = bots.play_out(typed), bots.play_out(through, standing=True)
        public = [e for e in through.log if not standing.is_secret_entry(e)]
        assert any(standing.is_secret_entry(e) for e in through.log)
        assert through.differences(through.replay()) == []
        rounds = rs.standing_round(through.state)
        if rs.bot_standing_exact:  # the same orders, so the same results
            assert public == typed.log and rs.winners(through.state) == rs.winners(typed.state)
        if rs.bot_exchanges_a_round:
            assert sent <= rs.bot_exchanges_a_round * rounds < asked, (sent, rounds, asked)
        else:
            assert sent < asked


def test_simulate_standing_prints_exchanges():
    result = CliRunner().invoke(app, ["simulate", "mogul", "-n", "4", "-g", "2", "--seed", "3", "--standing"])
    assert result.exit_code == 0, result.output
    assert "exchanges by mail (a new one whenever the awaited players change): min" in result.stdout
    said = result.stdout.split("exchanges by mail")[1].split("\nwinning score")[0]  # (wrapped: 78 columns)
    assert "0.9" in said and said.endswith("a round")
