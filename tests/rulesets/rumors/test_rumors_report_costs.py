"""Issue 27: a rumors player's report shows what a buy of N shares or a short of N of each
company costs or brings now, in all, while they have a turn to come this action phase (the
numbers the judge charges: `buy_cost` / `short_gain`, the orders' own pricing)."""
from __future__ import annotations

import re

import pytest

from judge.engine.errors import IllegalOrder
from judge.engine.game import Game
from judge.engine.report import render
from judge.engine.ruleset import GM


def game() -> Game:
    """3 players, a first: action turns a b c c b a; every price $25, 5 shares on each board."""
    return Game.new("rumors", ["a", "b", "c"], seed=5, salt="0" * 32,
                    setup={"first_player": "a", "companies": ["Edison", "Nile", "Banana"]})


def trade_line(report: str, company: str) -> str:
    """The line under `company`'s heading with its buys and shorts ("" when there is none)."""
    lines = report.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{company} $"))
    after = lines[at + 1] if not lines[at + 1].startswith("    ") else lines[at + 2]  # (a wrapped heading)
    return after if after.startswith("  buy ") else ""


def test_the_rulebooks_examples_are_in_the_report_and_are_what_the_orders_then_cost():
    """At $10, buying five costs $70 and shorting three brings $25 (the rulebook's Emma)."""
    g = game()
    g.state["companies"]["Edison"]["price"] = 10
    line = trade_line(render(g.view("a")), "Edison")
    assert line == "  buy 1:$5 2:$15 3:$30 4:$50 5:$70; short 1:$15 2:$20 3:$25 4:$25 5:$25"
    assert "What a buy of N shares costs, or a short of N brings, now in all (N:$):" in render(g.view("a"))
    g.submit("a", ["buy Edison 5"])
    assert g.state["events"][-1]["text"] == "a buys 5 Edison shares for $70."
    g.state["companies"]["Edison"]["price"] = 10  # (the board is empty now: shorts only)
    assert trade_line(render(g.view("b")), "Edison") == (
        "  buy none; short 1:$20 2:$40 3:$55 4:$65 5:$70 6:$85 7:$90 8:$95 9:$95 10:$95")
    g.submit("b", ["short Edison 3"])
    assert g.state["events"][-1]["text"] == "b shorts 3 Edison shares for $55."


def test_the_buys_shown_stop_where_the_players_money_does():
    g = game()
    g.state["players"]["a"]["money"] = 30
    assert trade_line(render(g.view("a")), "Nile") == "  buy 1:$20; short 1:$30 2:$50 3:$70 4:$85 5:$100"
    with pytest.raises(IllegalOrder, match=r"2 Nile shares cost \$45; you have \$30"):
        g.submit("a", ["buy Nile 2"])
    g.state["players"]["a"]["money"] = 0
    assert trade_line(render(g.view("a")), "Nile").startswith("  buy none; short 1:$30 ")
    buys = trade_line(render(g.view("b")), "Nile").split(";")[0]
    assert buys == "  buy 1:$20 2:$45 3:$75"  # b has $100; four would cost $110
    assert [int(n) for n in re.findall(r"(\d+):\$", buys)] == g.ruleset.buy_counts(g.state, "b", "Nile")


def test_the_costs_are_shown_only_to_a_player_with_a_turn_to_come():
    """Not to the public, nor the game master, nor a player whose two turns are over, nor in the
    roll phase: they see how a share's price is made instead."""
    g = game()
    everyone = [*g.players, None, GM]
    shown = {who: "buy 1:$20" in render(g.view(who)) for who in everyone}
    assert shown == {"a": True, "b": True, "c": True, None: False, GM: False}
    assert "A share costs (or a short brings) the price plus its space's modifier:" in render(g.view(None))
    for p in ["a", "b", "c", "c", "b"]:
        g.submit(p, ["pass"])
    assert g.state["turns"] == ["a"]
    assert {who: "buy 1:$20" in render(g.view(who)) for who in everyone} == {
        "a": True, "b": False, "c": False, None: False, GM: False}
    g.submit("a", ["pass"])
    assert g.state["phase"] == "roll" and not any("buy 1:$" in render(g.view(who)) for who in everyone)
