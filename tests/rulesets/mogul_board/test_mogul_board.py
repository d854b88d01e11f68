"""mogul-board: the rulebook's worked examples, phase 4, depots, credit, scoring, setup,
secrets, reports, and whole bot games checked after every order."""
from collections import Counter

import pytest
import tomli_w
from typer.testing import CliRunner

from judge.engine import bots
from judge.store import gamefile
from judge.cli import app
from judge.engine.errors import AmbiguousOrder, GameFileError, IllegalOrder, OrderSyntaxError, UsageError
from judge.engine.game import Game
from judge.engine.report import render
from judge.engine.rng import Rng
from judge.engine.ruleset import get
from judge.rulesets.mogul.rules import CRASH, company

RS = get("mogul-board")
NAMES = ["alice", "bob", "carol", "dave", "erin"]


def placard_cards(n):
    return [c for seat in RS.data["placard"][str(n)] for c in seat]


def new(n=3, seed=1, top=(), **setup):
    """A game whose pile starts with the cards `top`, then the crash card, then the rest."""
    if top or "crash_now" in setup:
        setup.pop("crash_now", None)
        rest = Counter(RS.all_cards()) - Counter(placard_cards(n)) - Counter(top) - Counter([CRASH])
        setup["deck"] = [*top, CRASH, *sorted(rest.elements())]
    return Game.new("mogul-board", NAMES[:n], seed=seed, setup=setup)


def win(game, winner):
    """Play the auction so that `winner` wins it: everyone else steps out at once."""
    while game.state["phase"] == "auction":
        p = game.awaiting()[0]
        game.submit(p, "bid" if p == winner else "pass")


def give(game, player, card):
    """Hand-edit: move one `card` from the pile to `player`'s shares (cards stay conserved)."""
    game.state["deck"].remove(card)
    game.state["players"][player]["shares"].append(card)
    RS.check(game.state)


def refused(game, player, order, error, reason):
    """The order is refused with `error` giving `reason`, and the game does not change."""
    before = game.to_dict()
    with pytest.raises(error, match=reason):
        game.submit(player, order)
    assert game.to_dict() == before


def final(game, player):
    return next(s for s in RS.standings(game.state) if s["player"] == player)


# ---- components ---------------------------------------------------------------------------
def test_components_are_consistent():
    cards = [c for c in RS.all_cards() if c != CRASH]
    assert len(cards) == 37 and RS.all_cards().count(CRASH) == 1
    per_company = Counter(company(c) for c in cards)
    for colour, info in RS.data["companies"].items():
        assert per_company[colour] == info["shares"], colour  # the number printed on its cards
        assert 5 <= info["shares"] <= 8
    assert all(company(c) != c.split("/")[1] for c in cards)
    assert {RS.data["companies"][c]["name"] for c in ("blue", "yellow")} == {"Santa Fe", "Ocean Pacific"}
    lines = Counter(s for spaces in RS.networks().values() for s in spaces)
    assert set(lines) == set(RS.data["stations"]) and set(lines.values()) == {1, 2}
    for n in (3, 4, 5):
        assert len(RS.data["placard"][str(n)]) == n
        assert not Counter(placard_cards(n)) - Counter(cards)


def test_crash_card_is_among_the_last_three_stock_cards():
    from_end = set()
    for seed in range(40):
        deck = new(n=3 + seed % 3, seed=seed).state["deck"]
        from_end.add(len(deck) - deck.index(CRASH))
    assert from_end == {1, 2, 3, 4}  # last card, or before 1, 2 or 3 of the last 3


def test_start_positions_follow_the_start_player_or_the_setup():
    placard = RS.data["placard"]["3"]
    g = new(start_player="bob")
    assert [g.state["players"][p]["shares"] for p in ("bob", "carol", "alice")] == placard
    g = new(seats=["carol", "alice", "bob"])
    assert g.state["start"] == "carol"
    assert [g.state["players"][p]["shares"] for p in ("carol", "alice", "bob")] == placard
    with pytest.raises(UsageError, match="seats lists every player once"):
        new(seats=["carol", "alice"])
    with pytest.raises(UsageError, match="known: start_player, seats, deck"):
        new(fast_start_cards={})


def test_dividends_pay_one_dollar_per_share_of_the_revealed_company():
    g = new(start_player="alice", top=["blue/yellow"])
    held = {p: RS.count(pl, "blue") for p, pl in g.state["players"].items()}
    assert held["alice"] == 1 and held["bob"] == 0  # the placard's start portfolios
    assert {p: pl["score"] for p, pl in g.state["players"].items()} == held
    paid = ", ".join(f"{p} +{n}" for p, n in held.items() if n)
    assert f"Dividends for blue shares: {paid}." in [e["text"] for e in g.state["events"]]


# ---- phase 4: the rulebook's examples -------------------------------------------------------
def test_example_selling_two_blue_shares_of_five_held_scores_10_and_second_takes():
    g = new(start_player="alice", top=["yellow/blue"])
    give(g, "alice", "blue/green")
    give(g, "bob", "blue/brown")
    give(g, "bob", "blue/brown")
    assert RS.count(g.state["players"]["alice"], "blue") == 2 and RS.held_by_all(g.state, "blue") == 5
    win(g, "alice")
    assert g.state["second"] == "carol"
    sold = sorted(c for c in g.state["players"]["alice"]["shares"] if company(c) == "blue")
    g.submit("alice", "sell")
    alice, carol = g.state["players"]["alice"], g.state["players"]["carol"]
    assert alice["score"] == 10 and RS.count(alice, "blue") == 0
    assert sorted(g.state["box"]) == sold
    assert "yellow/blue" in carol["shares"]  # the second must take the card
    assert g.state["start"] == "carol"       # and starts the next round


def test_three_depots_on_one_network_score_9():
    g = new(start_player="alice", top=["yellow/blue", "red/blue", "green/blue"])
    for space in ("TOP", "DOD", "AMA"):
        win(g, "alice")
        g.submit("alice", f"depot {space}")
    assert g.is_over()
    assert final(g, "alice")["depot_points"] == 9


def test_a_depot_on_a_space_of_two_networks_scores_on_both():
    g = new(start_player="alice", top=["yellow/blue", "yellow/red"])
    win(g, "alice")
    g.submit("alice", "depot CHI")   # Chicago: blue and red
    win(g, "alice")
    g.submit("alice", "depot NYC")   # red
    assert g.is_over()
    assert final(g, "alice")["depot_points"] == 1 + 2 * 2  # blue: 1 depot; red: 2 depots


def test_winner_takes_then_second_sells_or_builds_but_may_not_take():
    g = new(start_player="alice", top=["yellow/blue"])
    win(g, "alice")
    g.submit("alice", "take")
    assert g.awaiting() == ["carol"]
    assert "build a depot on the blue network" in RS.prompt(g.state, "carol")
    refused(g, "carol", "take", IllegalOrder, "the winner took the card")
    assert "sell" in g.view("carol")["orders"] and "depot TOP" in g.view("carol")["orders"]
    carol = g.state["players"]["carol"]
    held, price = RS.count(carol, "blue"), RS.held_by_all(g.state, "blue")
    g.submit("carol", "sell")  # all her blue shares
    carol = g.state["players"]["carol"]
    assert held and (RS.count(carol, "blue"), carol["score"]) == (0, held * price)
    assert g.is_over()


def test_winner_who_builds_leaves_the_card_to_the_second():
    g = new(start_player="alice", top=["yellow/blue"])
    win(g, "alice")
    g.submit("alice", "DEPOT top")  # orders are case-insensitive
    assert g.log[-1].endswith("alice depot TOP")
    assert g.state["players"]["alice"]["depots"] == ["TOP"]
    assert "yellow/blue" in g.state["players"]["carol"]["shares"]


# ---- depots ----------------------------------------------------------------------------------
def test_depot_rules_occupied_space_wrong_network_and_bad_names():
    g = new(start_player="alice", top=["yellow/blue", "red/blue"])
    win(g, "alice")
    refused(g, "alice", "depot NYC", IllegalOrder, "NYC .New York. is not on the blue network")
    refused(g, "alice", "depot xyz", OrderSyntaxError, "unknown station 'xyz'")
    refused(g, "alice", "depot s", AmbiguousOrder, "'s' could be")
    refused(g, "alice", "depot", OrderSyntaxError, "write depot SPACE")
    refused(g, "alice", "sell 2", OrderSyntaxError, r"write sell \(all your shares of the box colour\) or sell none")
    refused(g, "alice", "move TOP DOD", IllegalOrder, "only when all 6 are built")
    g.submit("alice", "depot TOP")
    win(g, "bob")
    refused(g, "bob", "depot TOP", IllegalOrder, "TOP holds alice's depot already")
    assert "depot TOP" not in g.view("bob")["orders"]


def test_with_all_six_built_a_depot_is_moved_instead():
    g = new(start_player="alice", top=["yellow/blue"])
    g.state["players"]["alice"]["depots"] = ["NYC", "PHL", "PIT", "HAR", "BAL", "COL"]
    g.state["players"]["bob"]["depots"] = ["TOP"]
    RS.check(g.state)
    win(g, "alice")
    refused(g, "alice", "depot DOD", IllegalOrder, "all your 6 depots are built: move one")
    refused(g, "alice", "move TOP DOD", IllegalOrder, "you have no depot on TOP")
    refused(g, "alice", "move NYC TOP", IllegalOrder, "TOP holds bob's depot already")
    orders = g.view("alice")["orders"]
    assert "move NYC DOD" in orders and not any(o.startswith("depot") for o in orders)
    g.submit("alice", "move nyc dod")
    assert g.state["players"]["alice"]["depots"] == ["DOD", "PHL", "PIT", "HAR", "BAL", "COL"]


# ---- credit ----------------------------------------------------------------------------------
def test_credit_once_per_game_three_chips_for_three_dollars():
    g = new(start_player="alice", top=["yellow/blue", "red/blue"])
    bank = g.state["bank"]
    g.submit("alice", "credit")
    alice = g.state["players"]["alice"]
    assert (alice["chips"], alice["score"], g.state["bank"]) == (9, -3, bank - 3)  # below 0
    assert g.awaiting() == ["alice"]  # still her turn in the auction
    refused(g, "alice", "credit", IllegalOrder, "once per game")
    win(g, "alice")
    refused(g, "alice", "credit", IllegalOrder, "the auction is over")
    g.submit("alice", "take")
    g.submit("carol", "sell")
    assert g.awaiting() == ["alice"] and g.state["round"] == 2
    assert "credit" not in g.view("alice")["orders"]
    refused(g, "alice", "credit", IllegalOrder, "once per game")
    g.submit("alice", "pass")
    assert "credit" in g.view("bob")["orders"]


# ---- scoring ---------------------------------------------------------------------------------
def test_end_bonuses_and_the_tie_broken_by_most_shares():
    g = new(start_player="alice", crash_now=True)
    assert g.is_over()
    give(g, "alice", "blue/yellow")   # alice: 3 shares, bob 2
    g.state["players"]["bob"]["score"] = 1
    g.state["players"]["bob"]["chips"] = 9
    g.state["players"]["carol"]["chips"] = 3
    g.state["bank"] -= 0
    g.state["players"]["alice"]["chips"] = 6
    rows = {s["player"]: s for s in RS.standings(g.state)}
    assert rows["alice"]["score"] == 0 + 3 + 1 and rows["bob"]["score"] == 1 + 2 + 1
    assert rows["carol"]["score"] == 2 + 0
    assert rows["alice"]["rank"] == 1 and rows["bob"]["rank"] == 2
    assert RS.winners(g.state) == ["alice"]


# ---- consistency, secrets, reports -------------------------------------------------------------
def test_check_names_what_a_hand_edited_file_breaks():
    g = new(start_player="alice", top=["yellow/blue"])
    g.state["players"]["alice"]["depots"] = ["TOP"]
    g.state["players"]["bob"]["depots"] = ["TOP"]
    with pytest.raises(GameFileError, match="more than one depot on TOP"):
        RS.check(g.state)
    g.state["players"]["bob"]["depots"] = ["DOD", "AMA", "ALB", "SFE", "PHX", "GAL", "NYC"]
    with pytest.raises(GameFileError, match="7 depots built"):
        RS.check(g.state)
    g.state["players"]["bob"]["depots"] = ["Topeka"]
    with pytest.raises(GameFileError, match="bob.depots must be a list of station spaces"):
        RS.check(g.state)


def test_views_keep_chips_secret_and_resampling_keeps_each_view():
    g = new(n=4, seed=5)
    for _ in range(30):
        bots.play_one(g)
    for p in g.players:
        view = g.view(p)
        assert [r["name"] for r in view["players"] if "chips" in r] == [p]
        other = RS.resample_hidden(g.state, p, Rng(7))
        assert other != g.state
        assert RS.view(other, p) == RS.view(g.state, p)
    assert not any("chips" in r for r in g.view(None)["players"])


def test_report_shows_map_score_track_box_colour_and_only_own_chips():
    g = new(start_player="alice", top=["yellow/blue", "red/blue"])
    win(g, "alice")
    g.submit("alice", "depot CHI")
    text = render(g.view("bob"))
    flat = " ".join(text.split())  # lines over 78 columns are wrapped
    assert "Revealed: Pennsylvania (red, 7 shares in all), blue box." in flat and "The card: red/blue." in flat
    assert "blue network, Santa Fe" in text and "red network, Pennsylvania" in text
    assert "CHI Chicago         alice  *red" in text
    assert "  Player Score  Credit  Depots  Shares" in text
    assert "  alice      0  -       1/6     blue 1" in text and "  bob        2  -       0/6     yellow 1" in text
    assert f"You hold {g.state['players']['bob']['chips']} chips (secret)." in text
    assert text.count(" chips]") == 1


# ---- whole games -------------------------------------------------------------------------------
@pytest.mark.parametrize("n,kind", [(3, "sensible"), (4, "random"), (5, "sensible"), (5, "random")])
def test_whole_bot_games_stay_consistent_and_replay(n, kind):
    g = Game.new("mogul-board", NAMES[:n], seed=40 + n)

    def checked(player, order):
        RS.check(g.state)  # chips, cards, depots and the awaited player add up after every order

    bots.play_out(g, {p: kind for p in g.players}, on_move=checked)
    assert g.is_over() and g.state["revealed"] == CRASH and RS.winners(g.state)
    assert len(g.log) <= RS.max_moves
    assert not g.differences(g.replay())
    loaded = gamefile.parse(gamefile.dumps(g).encode(), "test")
    assert loaded.state == g.state and loaded.log == g.log


def test_sensible_bot_beats_random_bots():
    wins = 0
    for seed in range(6):
        g = Game.new("mogul-board", NAMES[:3], seed=900 + seed)
        bots.play_out(g, {"bob": "random", "carol": "random"})
        wins += "alice" in RS.winners(g.state)
    assert wins >= 5


def test_command_line_game(tmp_path):
    setup = tmp_path / "setup.toml"
    setup.write_text('start_player = "alice"\nseats = ["alice", "bob", "carol"]\n')
    game = tmp_path / "g.toml"
    run = CliRunner().invoke
    r = run(app, ["new", "mogul-board", str(game), "-p", "alice", "-p", "bob", "-p", "carol", "--seed", "3", "--setup", str(setup)])
    assert r.exit_code == 0, r.output
    assert "waiting for alice (bid or pass, or credit once per game)" in r.output
    r = run(app, ["order", str(game), "--as", "alice", "credit", "pass"])
    assert r.exit_code == 0 and "ok: credit" in r.output
    r = run(app, ["order", str(game), "--as", "bob", "depot TOP"])
    assert r.exit_code == 4 and "the auction is on" in r.output
    assert run(app, ["verify", str(game)]).exit_code == 0
    r = run(app, ["show", str(game), "--as", "alice"])
    assert "You hold 9 chips (secret)." in r.output and "Map: station spaces" in r.output


def test_mogul_game_saved_while_the_second_sells_loads_again():
    """Core fix in mogul.check (inherited here): in phase second the winner holds the revealed card."""
    g = Game.new("mogul", NAMES[:3], seed=43)
    while g.state["phase"] != "second":
        bots.play_one(g)
    assert gamefile.parse(gamefile.dumps(g).encode(), "test").state == g.state


@pytest.mark.parametrize("edit, message", [
    (lambda a: a.update(out={}), "state.auction.out must be a list of players"),          # pass: AttributeError
    (lambda a: a.update(out=""), "state.auction.out must be a list of players"),
    (lambda a: a.update({"in": [a["turn"]], "out": [p for p in a["in"] + a["out"] if p != a["turn"]]}),
     "at least two players"),                                                              # pass: IndexError
    (lambda a: a.update({"in": [*a["in"], a["in"][0]]}), "every player once between them"),
])
def test_a_hand_edited_auction_that_would_crash_later_is_refused_on_loading(tmp_path, edit, message):
    """Issue 24, item 7: such files passed the check and loaded, then crashed when the player in
    turn passed (`judge orders` works; the order does not)."""
    game = new(n=4, seed=3)
    path = tmp_path / "g.toml"
    gamefile.create(game, path)
    data = gamefile.parse_toml(path.read_bytes(), str(path))
    assert data["state"]["phase"] == "auction"
    edit(data["state"]["auction"])
    text = path.read_text()
    path.write_text(tomli_w.dumps({k: v for k, v in data.items() if k != "log"}) + text[text.index("[log]"):])
    result = CliRunner().invoke(app, ["order", str(path), "--as", data["state"]["auction"]["turn"], "pass"])
    assert result.exit_code != 0 and message in result.output and "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)
