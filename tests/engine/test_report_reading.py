"""Reports as a player reads them by email: endings that show how each score was made, secret
scores that say so, `judge help` and `judge orders`, and the smaller points of issue 15."""
from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from judge.engine import bots, ruleset
from judge.store import gamefile
from judge.cli import app
from judge.engine.errors import IllegalOrder
from judge.engine.game import Game
from judge.engine.report import render
from judge.engine.ruleset import GM

from registry import new_game

RUN = CliRunner().invoke


def finished(name: str, n: int = 4, seed: int = 3) -> Game:
    game = new_game(name, n, {}, seed)
    bots.play_out(game)
    return game


# ---- endings --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [rs.name for rs in ruleset.every()])
def test_the_final_report_shows_how_each_score_was_made_once(name):
    """What each final score is made of (the ruleset's `score_parts`, columns of the final
    standings that add up to it), each on the player's final line."""
    game = finished(name)
    parts = game.ruleset.score_parts
    for who in [None, *game.players]:
        text = render(game.view(who))
        assert text.count("Final standings") == 1 and "Score track" not in text
        for row in game.ruleset.standings(game.state):
            assert not parts or sum(row[k] for k in parts) == row["score"]
            line = next(line for line in text.splitlines() if re.match(rf"\s+{row['rank']}\. {row['player']} ", line))
            numbers = [int(x) for x in re.findall(r"\d+", line.replace(row["player"], ""))]
            for k in (*parts, "score"):
                assert abs(row[k]) in numbers, f"{name}: {k} {row[k]} missing from the final line {line!r}"


def test_rumors_final_money_is_not_shown_next_to_holdings_already_cashed_out():
    game = finished("rumors")
    text = render(game.view(game.players[0]))
    assert "Behind your screen" not in text and "money $" not in text
    assert "holdings cashed out at the final prices = final money" in " ".join(text.split())


def test_secret_scores_say_what_is_public_instead_of_zeros(tmp_path):
    path = str(tmp_path / "r.toml")
    RUN(app, ["new", "rumors", path, "-p", "ann", "-p", "ben", "-p", "cy", "--seed", "5"])
    out = RUN(app, ["standings", path]).output
    flat = " ".join(out.split())
    assert "No public scores yet. Secret: money and holdings" in flat and "Public: every action-phase order" in flat
    assert not re.search(r"\b0\b", out.split("Players:")[0].replace("$25", ""))
    assert "Score track" in RUN(app, ["standings", _started("mogul", tmp_path)]).output


def _started(name, tmp_path) -> str:
    path = str(tmp_path / f"{name}.toml")
    RUN(app, ["new", name, path, "-p", "ann", "-p", "ben", "-p", "cy", "--seed", "5"])
    return path


def test_judge_play_prints_the_final_report_and_its_ranking_once():
    out = RUN(app, ["play", "mogul-board", "-n", "3", "--seed", "2"]).output
    assert out.count("Final standings") == 1 and "Final ranking" not in out


# ---- judge help and judge orders ------------------------------------------------------------
@pytest.mark.parametrize("name", [rs.name for rs in ruleset.every()])
def test_judge_help_names_every_order_word_a_game_uses_and_every_report_points_to_it(name):
    out = RUN(app, ["help", name])
    assert out.exit_code == 0 and "Orders" in out.output and "Terms in the report" in out.output
    assert "Rules in short" in out.output
    game = new_game(name, 4, {}, 1)
    words = set()
    while not game.is_over() and len(game.log) < 150:
        for p in game.awaiting():
            words |= {o.split()[0] for o in game.ruleset.legal_orders(game.state, p)}
        bots.play_one(game)
    for w in words:
        assert re.search(rf"^\s+(Game master.*)?\b{w}\b", out.output, re.M), f"judge help {name} does not explain '{w}'"
    for who in [None, GM, *game.players]:
        assert render(game.view(who)).endswith(f"Order words, terms and rules: judge help {name}\n")


def test_judge_help_refuses_an_unknown_topic_and_shows_the_rumors_cards():
    assert RUN(app, ["help", "rumors", "nonsense"]).exit_code == 2
    cards = RUN(app, ["help", "rumors", "cards"]).output
    assert cards.count("  card ") == len(ruleset.get("rumors").cards)


def test_judge_orders_lists_the_exact_orders(tmp_path):
    path = _started("rumors", tmp_path)
    game = gamefile.load(path)
    first = game.awaiting()[0]
    out = RUN(app, ["orders", path, "--as", first]).output
    assert out.splitlines() == game.ruleset.legal_orders(game.state, first)
    other = next(p for p in game.players if p != first)
    assert "has no order to give now" in RUN(app, ["orders", path, "--as", other]).output
    assert RUN(app, ["orders", path]).exit_code == 2


# ---- the smaller points -----------------------------------------------------------------------
def test_stock_round_operating_header_keeps_its_sentences_on_their_lines():
    game = new_game("stock-round", 4, {}, 3)
    while not game.state["operated"]:
        bots.play_one(game)
    text = render(game.view(None))
    assert re.search(r"Operated: [A-Z, ]+\.\nPriority deal: ", text)


def mogul_board_second(hold: bool) -> tuple[Game, str]:
    """A mogul-board game where the auction's second must sell or build."""
    for seed in range(1, 60):
        game = new_game("mogul-board", 3, {}, seed)
        while game.state["phase"] != "second" and not game.is_over():
            p = game.awaiting()[0]
            game.submit(p, "take" if game.state["phase"] == "winner" else bots.choose(game, p))
        if game.is_over():
            continue
        rs, second = game.ruleset, game.state["second"]
        if bool(rs.count(game.state["players"][second], rs.sell_colour(game.state))) == hold:
            return game, second
    raise AssertionError("no such position found")


def test_mogul_board_sell_says_how_many_shares_at_what_price():
    game, second = mogul_board_second(hold=True)
    rs, colour = game.ruleset, game.ruleset.sell_colour(game.state)
    held, price = rs.count(game.state["players"][second], colour), rs.held_by_all(game.state, colour)
    text = render(game.view(second))
    assert f"all your {held} {colour} share{'s' if held != 1 else ''} at {price} point{'s' if price != 1 else ''} each" in text
    assert f"sell {second}'s {held} {colour} share{'s' if held != 1 else ''} (all or none)" in game.view(None)["prompts"][second]


def test_mogul_board_prompt_to_a_player_without_box_shares_says_sell_sells_nothing():
    game, second = mogul_board_second(hold=False)
    colour = game.ruleset.sell_colour(game.state)
    prompt = game.view(None)["prompts"][second]
    assert f"sell nothing, as {second} holds no {colour} shares" in prompt and "your" not in prompt
    assert f"nothing: you hold no {colour} shares" in render(game.view(second))


def test_mogul_board_prompt_moves_a_depot_to_a_network():
    game, second = mogul_board_second(hold=False)
    rs = game.ruleset
    free = [s for s in rs.data["stations"] if s not in rs.owners(game.state)]
    game.state["players"][second]["depots"] = free[:rs.data["depots_each"]]
    assert f"move a depot to the {rs.sell_colour(game.state)} network" in rs.prompt(game.state, second)


def test_bidding_without_chips_mentions_credit_while_it_is_possible():
    game = new_game("mogul-board", 3, {}, 1)
    p = game.awaiting()[0]
    game.state["bank"] += game.state["players"][p]["chips"]
    game.state["players"][p]["chips"] = 0
    with pytest.raises(IllegalOrder, match=r"you have no chips: step out with pass, or take credit first \(3 chips\)"):
        game.submit(p, "bid")
    game.state["players"][p]["credit"] = True
    with pytest.raises(IllegalOrder, match=r"you have no chips: step out with pass\"?$"):
        game.submit(p, "bid")


def test_a_long_player_name_keeps_the_map_columns():
    long = "Maximiliana_Ferreira"
    game = Game.new("mogul-board", [long, "bob", "carol"], seed=1)
    rs = game.ruleset
    game.state["players"][long]["depots"] = ["CHI", "DEN"]
    text = render(game.view("bob"))
    lines = text.splitlines()
    assert all(len(line) <= 78 for line in lines)  # a map row too wide goes on under itself
    at = next(i for i, line in enumerate(lines) if line.rstrip().endswith("CHI Chicago"))
    assert lines[at + 1].strip() == f"{long} *red"  # the place's owner on the next line
    assert rs.owners(game.state)["CHI"] == long


def rumors(companies=("Edison", "Nile", "UnusualOil", "GameStart"), **options) -> Game:
    return Game.new("rumors", ["ann", "ben", "cy", "dee"], seed=4, options=options,
                    setup={"companies": list(companies), "first_player": "ann"})


def test_rumors_accepts_company_names_as_the_rulebook_spells_them():
    game = rumors()
    assert str(game.ruleset.parse(game.state, "ann", "buy Unusual Oil 1")) == "buy UnusualOil 1"
    assert str(game.ruleset.parse(game.state, "ann", "short game  start 2")) == "short GameStart 2"


def test_rumors_dice_refusal_names_only_the_missing_faces():
    game = rumors()
    game.state["companies"]["Edison"]["dice"] = [1, 3, 3]
    with pytest.raises(IllegalOrder, match="Edison's dice show 1 3 3; there is no 2 among them to take"):
        game.submit("ann", "dice Edison 1 2 3")


def test_rumors_manual_setup_roll_is_not_called_the_rumors_card():
    game = rumors(dice="manual")
    assert game.state["phase"] == "gm-roll"
    text = render(game.view("ann"))
    assert "Dice drawn for the company boards, to roll:" in text and "Rumors card:" not in text
    assert "for the company boards (setup)" in game.view(None)["prompts"][GM]


def test_players_awaited_for_the_same_order_share_one_prompt():
    game = rumors()
    while game.state["phase"] != "roll":
        bots.play_one(game)
    text = render(game.view(None))
    waiting = " ".join(text[text.index("Waiting for: "):].split("\n\n")[0].split())  # wrapped at 78 columns
    assert waiting == "Waiting for: ann, ben, cy, dee (" + game.ruleset.prompt(game.state, "ann") + ")"
