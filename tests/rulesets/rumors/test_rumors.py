"""Rumors: the rulebook's examples, turn order, the secret roll phase, tokens and privacy."""
import json

import pytest

from judge.engine import bots
from judge.store import gamefile
from judge.engine.errors import (
    AmbiguousOrder,
    GameFileError,
    IllegalOrder,
    NotYourTurn,
    OrderSyntaxError,
    StaleOrder,
)
from judge.engine.game import Game
from judge.engine.report import render
from judge.engine.rng import Rng
from judge.engine.ruleset import GM
from judge.rulesets.rumors.tokens import tokens

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]
FOUR = ["Edison", "Nile", "Gazillioon", "GameStart"]


def new(n=4, seed=1, companies=None, first="alice", **options):
    setup = {"companies": companies or (FOUR + ["Banana", "UnusualOil"])[:n], "first_player": first}
    return Game.new("rumors", NAMES[:n], seed=seed, setup=setup, options=options, salt="0" * 32)


def place_dice(state, company, faces):
    """Gather all of a company's dice into the bag, then put dice showing `faces` on its board."""
    bag = state["bag"]
    for pl in state["players"].values():
        bag += [c for c in pl["screen"] if c == company]
        pl["screen"] = [c for c in pl["screen"] if c != company]
    bag += [c for c in state["rumors"] if c == company]
    state["rumors"] = [c for c in state["rumors"] if c != company]
    co = state["companies"][company]
    bag += [company] * len(co["dice"])
    for _ in faces:
        bag.remove(company)
    co["dice"] = sorted(faces)


def set_filled(state, company, filled):
    co = state["companies"][company]
    co["supply"] -= filled - co["filled"]
    co["filled"] = filled


def set_holding(state, player, company, n):
    pl, co = state["players"][player], state["companies"][company]
    co["supply"] += tokens(pl["holdings"][company]) - tokens(n)
    pl["holdings"][company] = n


def finish_action_phase(game) -> list[str]:
    """Everyone passes to the end of the action phase; the players in the order they acted."""
    acted = []
    while game.state["phase"] == "action":
        acted.append(game.awaiting()[0])
        game.submit(acted[-1], "pass")
    return acted


def finish_roll_phase(game):
    """Every player still awaited in the roll phase gives the default order."""
    for p in list(game.awaiting()):
        game.submit(p, game.ruleset.default_order(game.state, p))


# ---- the rulebook's examples -----------------------------------------------------------------

def alice_orders_nile_at_10(order):
    """alice, holding no Nile, gives `order` at a Nile price of $10: (game, Nile supply before)."""
    g = new()
    g.state["companies"]["Nile"]["price"] = 10
    set_holding(g.state, "alice", "Nile", 0)
    supply = g.state["companies"]["Nile"]["supply"]
    g.submit("alice", order)
    g.ruleset.check(g.state)
    return g, supply


def nile_columns(g, player):
    return [h["columns"] for h in g.view(player)["you"]["holdings"] if h["company"] == "Nile"]


def test_buying_five_stocks_lands_on_4x_and_1x_and_costs_70():
    g, supply = alice_orders_nile_at_10("buy Nile 5")
    alice, nile = g.state["players"]["alice"], g.state["companies"]["Nile"]
    assert alice["money"] == 100 - 70
    assert alice["holdings"]["Nile"] == 5
    assert nile_columns(g, "alice") == ["+4x +1x"]
    assert nile["filled"] == 0
    assert nile["supply"] == supply + 3  # five taken, two on the multiplier board, three to the supply


def test_shorting_three_stocks_brings_25_and_takes_two_tokens():
    g, supply = alice_orders_nile_at_10("short Nile 3")
    alice, nile = g.state["players"]["alice"], g.state["companies"]["Nile"]
    assert alice["money"] == 125
    assert alice["holdings"]["Nile"] == -3
    assert nile_columns(g, "alice") == ["-2x -1x"]
    assert nile["filled"] == 8
    assert nile["supply"] == supply - 5  # three onto the board, two to the -1x and -2x slots


@pytest.mark.parametrize("card, faces, filled, change", [
    (1, [1, 1], 5, -10),            # example 1: 2 pips
    (23, [1, 3], 5, -5),            # example 2: 4 pips at Bull 0
    (33, [6, 6, 6], 8, -15),        # example 3: 18 pips at Bear 3
    (39, [5, 6, 6, 6], 10, +10),    # example 4: 23 pips at Bear 5
])
def test_the_four_price_adjustment_examples(card, faces, filled, change):
    g = new()
    s = g.state
    nile = s["companies"]["Nile"]
    swap_in_card(s, "Nile", card)
    place_dice(s, "Nile", faces)
    set_filled(s, "Nile", filled)
    g.ruleset.check(s)
    assert g.view(None)["companies"][1]["change_now"] == change
    g.ruleset.resolve(s)
    assert nile["price"] == 25 + change
    assert nile["filled"] == 5  # the board is reset after the resolution
    g.ruleset.check(s)


def nile_resolved_with_16_pips(price, bob_holds):
    """Nile at `price` with 16 pips on card 19 (+$15) and bob holding `bob_holds`, after the
    resolution: (game, its state, Nile)."""
    g = new()
    s = g.state
    nile = s["companies"]["Nile"]
    swap_in_card(s, "Nile", 19)
    nile["price"] = price
    place_dice(s, "Nile", [4, 6, 6])
    set_holding(s, "bob", "Nile", bob_holds)
    g.ruleset.resolve(s)
    return g, s, nile


def test_nile_splits_from_45_with_16_pips():
    g, s, nile = nile_resolved_with_16_pips(45, 3)
    assert nile["price"] == 30
    assert s["players"]["bob"]["holdings"]["Nile"] == 6
    assert nile_columns(g, "bob") == ["+4x +2x"]
    assert any("Nile splits" in e["text"] for e in g.view("carol")["events"])
    g.ruleset.check(s)


def swap_in_card(state, company, card):
    """Make `card` the active event card of `company`, keeping all 42 cards accounted for."""
    co = state["companies"][company]
    old = co["active"]
    places = [state["undealt"]] + [c["deck"] for c in state["companies"].values()]
    for where in places:
        if card in where:
            where[where.index(card)] = old
            break
    else:
        for other in state["companies"].values():
            if other["active"] == card:
                other["active"] = old
    co["active"] = card


def test_bankruptcy_returns_all_holdings_and_resets_price_but_not_dice():
    g = new()
    s = g.state
    swap_in_card(s, "Edison", 1)
    s["companies"]["Edison"]["price"] = 8
    place_dice(s, "Edison", [1, 1])
    set_holding(s, "alice", "Edison", 6)
    set_holding(s, "bob", "Edison", -3)
    g.ruleset.resolve(s)
    edison = s["companies"]["Edison"]
    assert edison["price"] == 25
    assert edison["dice"] == [1, 1]
    assert edison["filled"] == 5
    assert all(pl["holdings"]["Edison"] == 0 for pl in s["players"].values())
    assert any("Edison goes bankrupt" in e["text"] for e in g.view(None)["events"])
    g.ruleset.check(s)


# ---- turn order and orders ---------------------------------------------------------------

def test_snake_order_and_the_first_player_passes_left():
    g = new(4)
    assert finish_action_phase(g) == ["alice", "bob", "carol", "dave", "dave", "carol", "bob", "alice"]
    finish_roll_phase(g)
    assert g.state["round"] == 2 and g.state["first"] == "bob"
    assert finish_action_phase(g) == ["bob", "carol", "dave", "alice", "alice", "dave", "carol", "bob"]


def test_company_names_take_unique_prefixes_and_ambiguous_ones_are_refused():
    g = new()
    g.submit("alice", "buy n 1")
    assert g.state["players"]["alice"]["holdings"]["Nile"] >= 1
    with pytest.raises(AmbiguousOrder, match="Gazillioon or GameStart"):
        g.submit("bob", "buy g 1")
    g.submit("bob", "short gaz 2")
    assert g.log[-1].endswith("bob short Gazillioon 2")


@pytest.mark.parametrize("order, error, reason", [
    ("buy Nile 6", IllegalOrder, "only 5 shares on its board"),
    ("short Nile 6", IllegalOrder, "only 5 empty spaces"),
    ("buy Nile", OrderSyntaxError, "write buy COMPANY N"),
    ("buy Nile 0", IllegalOrder, "at least one share"),
    ("buy Banana 1", OrderSyntaxError, "unknown company 'banana'"),
    ("dice Nile 7", OrderSyntaxError, "1 to 6"),
    ("bag Banana", OrderSyntaxError, "unknown company .banana."),  # (bag Nile: the roll phase's order in advance)
    ("roll Nile 3", IllegalOrder, "only the game master"),
    ("sell Nile 1", OrderSyntaxError, "unknown order 'sell'"),
    ("pass now", OrderSyntaxError, "takes nothing"),
    ("rumor Nile Nile Nile Nile", OrderSyntaxError, "1 to 3"),
])
def test_bad_orders_are_refused_with_the_reason(order, error, reason):
    g = new()
    with pytest.raises(error, match=reason) as e:
        g.submit("alice", order)
    assert order in str(e.value)
    assert g.log == []


@pytest.mark.parametrize("board, faces, missing", [
    ([3, 4, 6], "6 6", "no second 6"),  # issue 37: it said "there is no 6 among them"
    ([3, 4, 6], "1", "no 1"),
    ([5, 6], "5 5 5 1 6", "no 1 and no second or third 5"),
    ([], "2", "no 2"),
])
def test_a_refused_dice_order_names_the_die_that_is_missing(board, faces, missing):
    g = new()
    place_dice(g.state, "Edison", board)
    shows = " ".join(map(str, board)) or "no dice"
    with pytest.raises(IllegalOrder) as e:
        g.submit("alice", f"dice Edison {faces}")
    assert f"Edison's dice show {shows}; there is {missing} among them to take" in str(e.value)


def test_version_3_keeps_its_words_for_a_missing_die_which_a_standing_orders_note_saves():
    g = new()
    g.ruleset = g.ruleset.at_version(3)
    place_dice(g.state, "Edison", [3, 4, 6])
    with pytest.raises(IllegalOrder, match="Edison's dice show 3 4 6; there is no 6 among them to take"):
        g.submit("alice", "dice Edison 6 6")


def test_money_cannot_go_below_zero_by_buying():
    g = new()
    g.state["players"]["alice"]["money"] = 40
    with pytest.raises(IllegalOrder, match=r"2 Nile shares cost \$45; you have \$40"):
        g.submit("alice", "buy Nile 2")


def test_taking_dice_needs_those_faces_and_moves_them_behind_the_screen():
    g = new()
    place_dice(g.state, "Edison", [2, 5, 5, 6])
    with pytest.raises(IllegalOrder, match="Edison's dice show 2 5 5 6; there is no second 2 among them to take"):
        g.submit("alice", "dice Edison 2 2")
    before = g.state["players"]["alice"]["screen"].count("Edison")
    g.submit("alice", "dice ed 5 2 5")
    assert g.log[-1] == "1 alice dice Edison 2 5 5"
    assert g.state["companies"]["Edison"]["dice"] == [6]
    assert g.state["players"]["alice"]["screen"].count("Edison") == before + 3
    assert "alice takes 3 Edison dice showing 2 5 5." in render(g.view(None))


def test_rumor_puts_dice_from_the_screen_on_the_rumors_card():
    g = new()
    screen = list(g.state["players"]["alice"]["screen"])  # the dice before the order (the state changes in place)
    missing = next(c for c in FOUR if c not in screen)
    with pytest.raises(IllegalOrder, match="behind your screen you have"):
        g.submit("alice", f"rumor {missing}")
    assert g.state["players"]["alice"]["screen"] == screen  # refused: nothing taken
    g.submit("alice", f"rumor {screen[0]} {screen[1]}")
    assert g.view(None)["rumors"] == sorted(screen[:2])
    assert len(g.state["players"]["alice"]["screen"]) == 2


# ---- the secret roll phase ---------------------------------------------------------------

def test_at_most_five_dice_stay_behind_a_screen():
    g = new()
    place_dice(g.state, "Edison", [1, 1, 2, 2, 3, 3, 4, 4])  # all eight Edison dice
    g.submit("alice", "dice Edison 1 1 2 2 3 3 4 4")
    finish_action_phase(g)
    n = len(g.state["players"]["alice"]["screen"])
    assert n >= 8
    with pytest.raises(IllegalOrder, match=f"keeps {n} dice behind your screen; at most 5 may stay"):
        g.submit("alice", "bag")
    with pytest.raises(IllegalOrder, match=f"keeps {n - 1} dice"):
        g.submit("alice", "bag Edison")
    assert g.status()["expecting"]["alice"] == g.status()["expecting"]["bob"]  # screen sizes are secret
    g.submit("alice", "bag" + " Edison" * (n - 5))
    finish_roll_phase(g)
    assert all(len(pl["screen"]) <= 5 for pl in g.state["players"].values())
    assert g.state["round"] == 2


def test_the_roll_phase_waits_for_every_player_and_keeps_the_move_number():
    g = new()
    finish_action_phase(g)
    move = g.move
    assert g.awaiting() == ["alice", "bob", "carol", "dave"]
    g.submit("carol", f"#{move} bag")
    g.submit("alice", f"#{move} bag")
    assert g.move == move and g.awaiting() == ["bob", "dave"]
    assert g.state["phase"] == "roll" and g.state["round"] == 1
    with pytest.raises(NotYourTurn):
        g.submit("alice", "bag")
    g.submit("bob", f"#{move} bag")
    g.submit("dave", f"#{move} bag")
    assert g.move == move + 1
    assert g.state["round"] == 2 and g.state["phase"] == "action"
    with pytest.raises(StaleOrder):
        g.submit("bob", f"#{move} pass")
    assert not g.differences(g.replay())


def roll_phase_with(alice_order):
    g = new(seed=7)
    s = g.state
    s["players"]["alice"]["screen"] = sorted(s["players"]["alice"]["screen"])
    finish_action_phase(g)
    g.submit("bob", "bag")
    g.submit("alice", alice_order)
    return g


def test_no_other_player_sees_a_roll_phase_order():
    screen = new(seed=7).state["players"]["alice"]["screen"]
    a = roll_phase_with("bag")
    b = roll_phase_with("bag " + " ".join(screen))
    assert a.state["bag_orders"]["alice"] != b.state["bag_orders"]["alice"]
    for who in ["bob", "carol", "dave", None]:
        assert json.dumps(a.view(who)) == json.dumps(b.view(who))
        assert render(a.view(who)) == render(b.view(who))
    assert "roll-phase order: bag " + ", ".join(screen) in render(b.view("alice"))
    assert "roll-phase order: bag nothing" in render(a.view("alice"))
    assert "roll-phase order: bag " + ", ".join(screen) in render(b.view(GM))


# ---- manual dice -------------------------------------------------------------------------

def test_manual_dice_wait_for_the_game_master():
    g = new(dice="manual")
    assert g.awaiting() == [GM]
    with pytest.raises(NotYourTurn):
        g.submit("alice", "pass")
    rumors = g.state["rumors"]
    c = rumors[0]
    n = rumors.count(c)
    with pytest.raises(IllegalOrder, match="to roll"):
        g.submit(GM, f"roll {c} " + " ".join(["3"] * (n + 1)))
    board = list(g.state["companies"][c]["dice"])
    g.submit(GM, f"roll {c} " + " ".join(["6"] * n))
    assert g.state["companies"][c]["dice"] == sorted(board + [6] * n)
    while g.awaiting() == [GM]:
        c = g.state["rumors"][0]
        g.submit(GM, f"roll {c} " + " ".join(["2"] * g.state["rumors"].count(c)))
    assert g.awaiting() == ["alice"]
    with pytest.raises(NotYourTurn, match="no roll is awaited"):
        g.submit(GM, "roll Nile 3")
    finish_action_phase(g)
    finish_roll_phase(g)
    assert g.awaiting() == [GM] and g.state["round"] == 1
    while g.awaiting() == [GM]:
        c = g.state["rumors"][0]
        g.submit(GM, f"roll {c} " + " ".join(["4"] * g.state["rumors"].count(c)))
    assert g.state["round"] == 2
    assert not g.differences(g.replay())


def test_game_master_orders_are_refused_with_judge_dice():
    g = new()
    with pytest.raises(NotYourTurn, match="no roll is awaited"):
        g.submit(GM, "roll Nile 3")
    with pytest.raises(NotYourTurn, match="only enters rolls"):
        g.submit(GM, "pass")


def test_a_roll_entered_by_the_game_master_moves_the_price_by_the_card():
    g = new(dice="manual")
    while g.awaiting() == [GM]:
        c = g.state["rumors"][0]
        g.submit(GM, f"roll {c} " + " ".join(["1"] * g.state["rumors"].count(c)))
    finish_action_phase(g)
    finish_roll_phase(g)
    before = {c: (co["price"], co["active"], co["filled"], list(co["dice"])) for c, co in g.state["companies"].items()}
    rolled = {}
    while g.awaiting() == [GM]:
        c = g.state["rumors"][0]
        k = g.state["rumors"].count(c)
        g.submit(GM, f"roll {c} " + " ".join(["5"] * k))
        rolled[c] = k
    assert rolled
    checked = 0
    for c, (price, card, filled, dice) in before.items():
        pips = sum(dice) + 5 * rolled.get(c, 0)
        new_price = price + g.ruleset.card_change(card, pips, filled)
        if 0 < new_price <= 45:  # no split, no bankruptcy
            assert g.state["companies"][c]["price"] == new_price
            checked += 1
    assert checked


# ---- whole games -------------------------------------------------------------------------

@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_whole_bot_games_account_for_every_token_die_and_card(n):
    for dice, kinds in [("auto", None), ("manual", {p: "random" for p in NAMES + [GM]})]:
        g = Game.new("rumors", NAMES[:n], seed=n, options={"dice": dice})
        g.ruleset.check(g.state)
        bots.play_out(g, kinds=kinds, on_move=lambda p, o: g.ruleset.check(g.state))
        assert g.is_over() and len(g.log) <= g.ruleset.max_moves
        assert not g.differences(g.replay())
        assert g.status()["winners"]


def test_a_saved_game_loads_and_replays_to_the_same_state(tmp_path):
    g = new(5, seed=11)
    for _ in range(40):
        bots.play_one(g)
    path = tmp_path / "game.toml"
    gamefile.create(g, path)
    loaded = gamefile.load(path)
    assert loaded.state == g.state
    assert not loaded.differences(loaded.replay())


def test_check_names_a_lost_token_and_a_lost_die():
    g = new()
    g.state["companies"]["Nile"]["supply"] -= 1
    with pytest.raises(GameFileError, match="Nile stock tokens do not add up"):
        g.ruleset.check(g.state)
    g = new()
    g.state["bag"].append("Edison")
    with pytest.raises(GameFileError, match="Edison dice do not add up"):
        g.ruleset.check(g.state)
    g = new()
    g.state["undealt"].pop()
    with pytest.raises(GameFileError, match="event cards do not add up"):
        g.ruleset.check(g.state)


def test_money_is_secret_until_the_end_and_most_money_wins():
    g = new(3, seed=2)
    assert all("score" not in r and "money" in r["secret"] for r in g.ruleset.standings(g.state))
    bots.play_out(g)
    rows = g.ruleset.standings(g.state)
    money = {p: pl["money"] for p, pl in g.state["players"].items()}
    assert [r["score"] for r in rows] == sorted(money.values(), reverse=True)
    assert set(g.status()["winners"]) == {p for p, m in money.items() if m == max(money.values())}
    assert "Final standings" in render(g.view(None))


# ---- privacy -----------------------------------------------------------------------------

def test_a_player_sees_no_other_players_money_holdings_or_screen():
    g = new(seed=3)
    for _ in range(12):
        bots.play_one(g)
    v = g.view("bob")
    assert "players" not in v and v["you"]["name"] == "bob"
    assert "bag" not in v and "undealt" not in v and "decks" not in v
    assert "players" in g.view(GM)


@pytest.mark.parametrize("n", [3, 6])
def test_resampling_hidden_information_keeps_each_players_view(n):
    g = Game.new("rumors", NAMES[:n], seed=20 + n)
    rng = Rng(99)
    steps, secret_orders_seen = 0, 0
    while not g.is_over():
        if steps % 7 == 0:
            secret_orders_seen += bool(g.state["bag_orders"])
            for p in g.players:
                other = g.ruleset.resample_hidden(g.state, p, rng)
                g.ruleset.check(other)
                assert other != g.state
                twin = g.with_state(other)
                assert json.dumps(twin.view(p), sort_keys=True) == json.dumps(g.view(p), sort_keys=True)
                assert render(twin.view(p)) == render(g.view(p))
        bots.play_one(g)
        steps += 1
    assert secret_orders_seen  # some redraws were made while others' roll-phase orders were pending


def test_reports_render_for_everyone_in_every_phase():
    g = new(dice="manual")
    seen = set()
    while not g.is_over():
        if g.state["phase"] not in seen or len(g.log) % 10 == 0:
            seen.add(g.state["phase"])
            for who in [None, GM, *g.players]:
                setup = g.state["phase"] == "gm-roll" and g.state["after_roll"] == "action"
                label = "Dice drawn for the company boards, to roll:" if setup else "Rumors card:"
                assert label in render(g.view(who))
        bots.play_one(g)
    assert seen == {"action", "roll", "gm-roll"}
    final = render(g.view("alice"))
    assert "Final standings" in final and "cashed out" in final and "Behind" not in final


# ---- the command line --------------------------------------------------------------------

def test_a_game_with_manual_dice_runs_from_the_command_line(tmp_path):
    from typer.testing import CliRunner

    from judge.cli import app

    run = CliRunner().invoke
    path = str(tmp_path / "r.toml")
    r = run(app, ["new", "rumors", path, "-p", "ann", "-p", "ben", "-p", "cy", "--seed", "5", "-o", "dice=manual"])
    assert r.exit_code == 0 and "waiting for gm (roll COMPANY FACES" in r.output
    r = run(app, ["order", path, "--as", "ann", "pass"])
    assert r.exit_code == 4 and "not your turn" in r.output
    while "waiting for gm" in r.output or r.exit_code == 4:
        rumors = gamefile.load(path).state["rumors"]
        c = rumors[0]
        r = run(app, ["order", path, "--gm", f"roll {c[:3]} " + " ".join(["3"] * rumors.count(c))])
        assert r.exit_code == 0, r.output
    first = gamefile.load(path).awaiting()[0]
    r = run(app, ["show", path, "--as", first])
    assert "Behind your screen (secret):" in r.output and "Your orders now" in r.output
    r = run(app, ["show", path])
    assert "Behind" not in r.output and "money $" not in r.output
    r = run(app, ["standings", path])
    assert "No public scores yet. Secret: money and holdings, until the end." in r.output
    assert " 0\n" not in r.output
    r = run(app, ["verify", path])
    assert r.exit_code == 0 and r.output.startswith("ok:")


# ---- rules re-checked against the rulebook (docs/rumors.md, "The rulebook, rule by rule") ---

@pytest.mark.parametrize("n, rounds", [(3, 9), (4, 8), (5, 7), (6, 6)])
def test_setup_as_the_rulebook_lays_out_the_table(n, rounds):
    """As many companies as players, each at $25 with five stocks on its board and a face-up
    stack of 9/8/7/6 event cards; $100 and four dice behind each screen; three dice per player
    rolled beside the company boards."""
    g = Game.new("rumors", NAMES[:n], seed=n)
    s = g.state
    assert len(s["companies"]) == n and s["rounds"] == rounds
    for co in s["companies"].values():
        assert (co["price"], co["filled"]) == (25, 5)
        assert 1 + len(co["deck"]) == rounds  # the active card and the stack under it
    assert all(pl["money"] == 100 and len(pl["screen"]) == 4 for pl in s["players"].values())
    assert sum(len(co["dice"]) for co in s["companies"].values()) == 3 * n
    assert len(s["bag"]) == 8 * n - 4 * n - 3 * n and s["rumors"] == []


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_each_round_turns_up_the_next_event_card_and_the_game_ends_after_the_last_round(n):
    g = new(n)
    rounds = g.state["rounds"]
    for r in range(1, rounds + 1):
        assert g.state["round"] == r
        shown = {c["name"]: (c["active"]["id"], c["next"].get("id")) for c in g.view(None)["companies"]}
        finish_action_phase(g)
        finish_roll_phase(g)
        for c in g.view(None)["companies"]:
            active, nxt = shown[c["name"]]
            assert c["played"][-1] == active
            assert c["active"].get("id") == nxt  # the next card shown is the next one used
    assert g.is_over() and g.state["round"] == rounds
    assert all(len(co["played"]) == rounds and not co["deck"] for co in g.state["companies"].values())


def gm_rolls_all(g, face):
    """The game master rolls every die on the Rumors card as `face`, company by company."""
    while g.awaiting() == [GM]:
        c = g.state["rumors"][0]
        g.submit(GM, f"roll {c} " + " ".join([str(face)] * g.state["rumors"].count(c)))


def test_the_roll_phase_fills_the_rumors_card_to_three_dice_a_player_counting_the_rumors():
    g = new(4, dice="manual")
    gm_rolls_all(g, 3)  # the setup roll
    screen = list(g.state["players"]["alice"]["screen"])
    g.submit("alice", f"rumor {screen[0]} {screen[1]}")
    finish_action_phase(g)
    g.submit("alice", "bag")
    for p in ("bob", "carol", "dave"):  # each bags all four dice: the bag holds 4 + 12
        g.submit(p, "bag " + " ".join(g.state["players"][p]["screen"]))
    assert len(g.view(None)["rumors"]) == 3 * 4  # the two rumors and ten drawn from the bag
    assert len(g.view(GM)["bag"]) == 16 - 10
    assert "Drawn from the bag onto the Rumors card:" in render(g.view(None))


def test_the_rumors_card_takes_what_the_bag_holds_when_it_runs_out():
    g = new(4, dice="manual")
    gm_rolls_all(g, 3)  # the setup roll
    assert len(g.view(GM)["bag"]) == 4
    finish_action_phase(g)
    for p in g.players:
        g.submit(p, "bag")
    assert len(g.view(None)["rumors"]) == 4 and g.view(GM)["bag"] == []


def test_a_split_halves_the_price_rounded_up():
    g, s, nile = nile_resolved_with_16_pips(40, -1)  # +$15: $40 -> $55
    assert nile["price"] == 28  # $55 / 2, rounded up
    assert s["players"]["bob"]["holdings"]["Nile"] == -2  # shorted stock doubles too
    assert "Nile splits: every holding doubles, the price goes from $55 to $28." in render(g.view(None))
    g.ruleset.check(s)


def test_cash_out_at_the_final_price_without_modifiers_and_a_shared_win():
    """After the last round owned stock brings and shorted stock costs the price, whatever the
    spaces' modifiers; the most money wins, equal money shares the win."""
    g = new(3)
    s = g.state
    s["round"] = s["rounds"]  # the last round's resolution
    for c in s["companies"]:
        for p in g.players:
            set_holding(s, p, c, 0)
        place_dice(s, c, [])  # no pips: each price moves by its card's 0-3 row
    set_holding(s, "alice", "Nile", 3)
    set_holding(s, "bob", "Nile", -2)
    nile = s["companies"]["Nile"]
    nile["price"] = 30
    final = 30 + g.ruleset.card_change(nile["active"], 0, nile["filled"])
    assert 0 < final <= 45 and final + g.ruleset.modifier(nile["filled"]) != final  # a modifier would show
    for p, money in (("alice", 100 - 3 * final), ("bob", 100 + 2 * final), ("carol", 90)):
        s["players"][p]["money"] = money
    g.ruleset.check(s)
    g.ruleset.resolve(s)
    assert g.is_over()
    money = {p: pl["money"] for p, pl in s["players"].items()}
    assert money == {"alice": 100, "bob": 100, "carol": 90}
    assert sorted(g.status()["winners"]) == ["alice", "bob"]
    assert f"alice cashes out +${3 * final} and ends with $100." in render(g.view(None))
    assert f"bob cashes out -${2 * final} and ends with $100." in render(g.view(None))
