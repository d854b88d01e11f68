"""Every prompt comes from the one legality, proved over the whole registry: in random games,
at every position, what `judge status`, the waiting line and every report say an awaited player
is waited for names exactly the kinds of order `judge orders` lists for them (the first words:
`sell`, `buy`, ...), and the report's "Your orders now" offers the same kinds. A kind whose
legality is the player's secret (Mogul's `bid`: their chips) is named in the public prompt
whether or not they may give it now (`Ruleset.secret_kinds`); their own list stays exact.

How each ruleset's prompts name each kind is declared by the ruleset (`prompt_phrases`), apart
from the words its `prompt_words` writes, so that a prompt written from anything but the
legal orders fails. JUDGE_PROMPT_GAMES (default 1) sets the games per ruleset, player count and
option set."""
from __future__ import annotations

import re

import pytest

from judge.engine import bots, ruleset
from judge.engine.report import render
from judge.engine.ruleset import GM

from mailkit import flat
from registry import config_id, configs, many, new_game, random_bots

GAMES = many("JUDGE_PROMPT_GAMES", 1)

def named(ruleset_name: str, prompt: str) -> set[str]:
    return {kind for kind, phrase in ruleset.get(ruleset_name).prompt_phrases.items() if re.search(phrase, prompt)}


def kinds(orders) -> set[str]:
    return {o.split()[0] for o in orders}


def check_position(game) -> None:
    rs, state = game.ruleset, game.state
    line = game.waiting_line()
    public = game.view(None)
    for p in game.awaiting():
        legal = rs.legal_orders(state, p)
        assert legal, f"{rs.name} awaits {p} with no legal order (move {state['move']})"
        expected = kinds(legal) | set(rs.secret_kinds(state, p))
        for where, prompt in (("judge status", game.status()["expecting"][p]), ("the public report", public["prompts"][p])):
            assert named(rs.name, prompt) == expected, (
                f"{rs.name} move {state['move']}: {where} waits for {p} ({prompt!r}), but judge orders "
                f"lists {sorted(kinds(legal))} (secret kinds {list(rs.secret_kinds(state, p))})")
            assert f"({flat(prompt)})" in flat(line) and p in line  # the waiting line says it too
        if p != GM:
            own = game.view(p)
            assert own["prompts"][p] == public["prompts"][p]  # public: the same in every report
            assert kinds(own["orders"]) == kinds(legal)
            offered = {form.split()[0] for form in own["order_forms"] if not form.startswith("   ")}
            assert offered == kinds(legal), f"{rs.name}: Your orders now offers {offered}, judge orders {kinds(legal)}"


def test_every_ruleset_names_how_its_prompts_say_each_kind_of_order():
    for rs in ruleset.every():
        missing = set(rs.verbs) - set(rs.prompt_phrases)
        assert not missing, f"{rs.name}: prompt_phrases must say how a prompt names {sorted(missing)}"


@pytest.mark.parametrize("config", configs(), ids=config_id)
def test_every_prompt_names_exactly_the_kinds_of_the_legal_orders(config):
    for seed in range(GAMES):
        game = new_game(*config, seed + 71)
        check_position(game)
        bots.play_out(game, random_bots(game), on_move=lambda player, order: check_position(game))


def test_the_first_stock_round_offers_no_sale_anywhere():
    """Issue 37: `judge status` offered "sell" in stock-round's first stock round, where selling
    is forbidden (1830) and `judge orders` lists none."""
    game = new_game("stock-round", 3, {}, 4)
    game.submit(game.awaiting()[0], ["par FTR 100"])
    cy = game.awaiting()[0]
    assert game.status()["expecting"][cy] == "buy one share, par a company, or pass"
    report = render(game.view(cy))
    assert "sell" not in report.split("Waiting for:")[1].split("\n\n")[0]
    assert not any(o.startswith("sell") for o in game.ruleset.legal_orders(game.state, cy))


def test_the_proof_catches_a_prompt_that_offers_what_is_illegal(monkeypatch):
    """A prompt written beside the legality (as stock-round's was) fails the proof."""
    rs = ruleset.get("stock-round")
    game = new_game("stock-round", 3, {}, 4)
    monkeypatch.setattr(type(rs), "prompt_words", lambda self, state, player, kinds, legal:
                        "sell, buy one share, par a company, or pass")
    with pytest.raises(AssertionError, match="judge orders"):
        check_position(game)
