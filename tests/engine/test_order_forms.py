"""The orders a report lists as a grammar (`buy COMPANY N  Edison 1-5`) stand for exactly the
orders the judge accepts: over random positions of every ruleset in the registry, each order a
template spells out parses, together they are the ruleset's legal orders, a number just past a
listed range is refused, and the report's order block stays short.

JUDGE_FORM_GAMES (default 1) sets the games per ruleset, player count and option set."""
from __future__ import annotations

import re

import pytest

from judge.engine import bots, grammar
from judge.engine.errors import JudgeError
from judge.engine.report import render
from judge.engine.rng import Rng
from judge.engine.ruleset import GM

from registry import config_id, configs, many, new_game

GAMES = many("JUDGE_FORM_GAMES", 1)
BLOCK_LIMIT = 12  # lines from "Your orders now" to the example


def order_block(report: str) -> list[str]:
    lines = report.splitlines()
    if not any(line.startswith("Your orders now") for line in lines):
        return []
    start = next(i for i, line in enumerate(lines) if line.startswith("Your orders now"))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("  For example:"))
    while end + 1 < len(lines) and lines[end + 1].startswith("      "):  # an example wrapped at 78 columns
        end += 1
    return lines[start:end + 1]


def canonical(rs, state, player, text) -> str:
    return str(rs.parse(state, player, text))


def past_the_ranges(form) -> list[str]:
    """Orders just outside each numeric range of a form: one above the top, one below the bottom."""
    out = []
    for case in form.cases:
        for i, part in enumerate(case):
            if not isinstance(part, grammar.Numbers):
                continue
            for outside in (max(part.values) + 1, min(part.values) - 1):
                if outside >= 0 and outside not in part.values:
                    changed = tuple(grammar.Numbers((outside,)) if j == i else p for j, p in enumerate(case))
                    out += grammar.Form(form.pattern, (changed,)).orders()
    return out


def check_forms(game, player, where) -> None:
    rs, state = game.ruleset, game.state
    forms = rs.order_forms(state, player)
    spelled = [o for f in forms for o in f.orders()]
    for text in spelled:
        try:
            canonical(rs, state, player, text)
        except JudgeError as e:
            pytest.fail(f"{where}: the report lists '{text}' for {player}, but it is refused: {e}")
    legal = {canonical(rs, state, player, o) for o in rs.legal_orders(state, player)}
    listed = {canonical(rs, state, player, o) for o in spelled}
    assert listed == legal, f"{where}: {player}'s templates {[f.pattern for f in forms]} miss {sorted(legal - listed)[:5]} or add {sorted(listed - legal)[:5]}"
    for text in (o for f in forms for o in past_the_ranges(f)):
        try:
            order = canonical(rs, state, player, text)
        except JudgeError:
            continue
        assert order in legal, f"{where}: '{text}' lies outside {player}'s listed range but is accepted"
    block = order_block(render(game.view(player)))
    assert block and len(block) <= BLOCK_LIMIT, f"{where}: {player}'s order block has {len(block)} lines:\n" + "\n".join(block)
    example = next(i for i, line in enumerate(block) if line.startswith("  For example: "))
    assert re.sub(r"^For example: ", "", " ".join(" ".join(block[example:]).split())) in spelled


@pytest.mark.parametrize("config", configs(), ids=config_id)
def test_listed_templates_accept_exactly_the_legal_orders(config):
    name, n, options = config
    for seed in range(GAMES):
        game = new_game(name, n, options, seed)
        pick = Rng(seed + 7)
        while not game.is_over():
            where = f"{name} {n} players {options} seed {seed} move {game.move}"
            for p in game.awaiting():
                if p != GM and pick.below(3) == 0:  # a third of the positions keeps the test fast
                    check_forms(game, p, where)
            player = pick.choice(game.awaiting())
            kind = "random" if pick.below(2) else "sensible"
            game.submit(player, [bots.choose(game, player, kind)])


def test_a_template_prints_its_ranges_compactly():
    forms = grammar.form("buy COMPANY N", [(grammar.Word(("Edison",)), grammar.Numbers((1, 2, 3, 5))),
                                           (grammar.Word(("Nile",)), grammar.Numbers((1, 2, 3, 5)))])
    assert forms[0].lines() == ["  buy COMPANY N       Edison/Nile 1-3/5"]
    assert forms[0].orders()[:4] == ["buy Edison 1", "buy Edison 2", "buy Edison 3", "buy Edison 5"]
    bag = grammar.Form("bag DICE", ((grammar.Some(("Nile", "Nile", "Banana"), 0, 3),),))
    assert bag.lines() == ["  bag DICE            none or any of Nile x2 Banana"]  # names repeated: counted
    assert "bag Banana Nile Nile" in bag.orders() and len(bag.orders()) == 6  # (the orders spelled out)
    dice = grammar.Form("dice COMPANY FACES", ((grammar.Word(("Nile",)), grammar.Faces((1, 4, 4), 1, 3)),))
    assert dice.lines() == ["  dice COMPANY FACES  Nile 1 4 4"]  # faces to pick from: "any of" is the help's
    assert sorted(dice.orders()) == ["dice Nile 1", "dice Nile 1 4", "dice Nile 1 4 4", "dice Nile 4", "dice Nile 4 4"]
    assert sorted(bag.orders()) == sorted(["bag", "bag Banana", "bag Nile", "bag Banana Nile", "bag Nile Nile",
                                           "bag Banana Nile Nile"])
