"""stock-round version 7 (issue 48): the operating round as 1830 runs it, a sequence of company
turns driven by the judge, the game master entering only what the map decides. Each of the
issue's reproductions is played through the command line from the positions of the audit,
rebuilt in 1830's order (games begun under version 6 keep its rules: test_stock_round_v6.py):

- S1: stock round 1, 18 orders (test_stock_round_v6.STOCK_ROUND_1: FTR, SFR and PST floated at
  60 with $360 each);
- P: S1 and five operating rounds of company turns (phase 5: FTR 3 4, SFR 3 4, PST 4 5, a 3 in
  the open market, the first 6 next);
- M: P, then stock round 4 floats MBR with $360 and no train (a, its director, has $60).

Each position is built once for the module and copied for every test (the orders are the slow
part); docs/stock-round.md names each rule's source in tobymao/18xx."""
import json
import shutil

import pytest

from judge.engine import bots
from judge.engine.game import Game
from judge.store import gamefile
from mailkit import flat

from test_stock_round_1830 import arrange, company, events, judge, new, ok, play, refused, view
from test_stock_round_v6 import ALL_PASS, STOCK_ROUND_1
from test_stock_round_v4 import consistent


def turns(path, entries: dict) -> list[str]:
    """One operating round of company turns: each company's `entries` (game-master orders,
    or 'x: order' for a player) in the turn the judge gives it, then `done` unless the entries
    ended the turn. Returns the operating order the judge followed. (A position's setting up,
    given to the game file directly: a command line's call costs a tenth of a second.)"""
    game = gamefile.load(path)
    order, start = [], game.state["or_round"]
    while game.state["phase"] == "operating" and (co := game.state["turn_co"]) and game.state["or_round"] == start:
        order.append(co)
        submit(game, *entries[co])
        if game.state["turn_co"] == co:
            submit(game, "done")
    gamefile.save(game, path)
    return order


def submit(game, *moves):
    """Orders as in play() ('a: pass'; a game master's with or without 'gm: ') to a loaded game."""
    for move in moves:
        who, _, text = move.rpartition(":")
        game.submit(who.strip() or "gm", [text.strip()])


def setting_up(path, *moves):
    game = gamefile.load(path)
    submit(game, *moves)
    gamefile.save(game, path)


def gm_orders(path) -> list[str]:
    return json.loads(ok("orders", path, "--gm", "--json"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The positions S1, P and M, each a game file built once (version 7)."""
    root = tmp_path_factory.mktemp("v7")
    path = new(root, version=6)
    setting_up(path, *STOCK_ROUND_1)
    files = {"S1 version 6": path.read_bytes()}
    path.unlink()
    path = new(root, version=7)
    setting_up(path, *STOCK_ROUND_1)
    files["S1"] = path.read_bytes()
    orders = [
        turns(path, {"FTR": ["operate FTR 0 withhold", "train FTR 2", "train FTR 2"],
                     "SFR": ["operate SFR 0 withhold", "train SFR 2", "train SFR 2"],
                     "PST": ["operate PST 0 withhold", "train PST 2", "train PST 2", "train PST 3"]})]
    setting_up(path, *ALL_PASS)
    orders.append(turns(path, {"PST": ["operate PST 280 withhold"], "FTR": ["operate FTR 160 withhold", "train FTR 3"],
                               "SFR": ["operate SFR 160 withhold", "train SFR 3"]}))
    orders.append(turns(path, {"PST": ["operate PST 280 withhold", "train PST 4"],  # the first 4 rusts the 2s
                               "FTR": ["operate FTR 120 withhold", "train FTR 4"],
                               "SFR": ["operate SFR 120 withhold", "train SFR 4"]}))
    setting_up(path, *ALL_PASS)
    orders.append(turns(path, {"PST": ["operate PST 280 withhold", "train PST 5", "c: discard PST 3"],
                               "FTR": ["operate FTR 280 withhold"], "SFR": ["operate SFR 280 withhold"]}))
    orders.append(turns(path, {"PST": ["operate PST 360 withhold"], "FTR": ["operate FTR 280 withhold"],
                               "SFR": ["operate SFR 280 withhold"]}))
    assert orders == [["FTR", "SFR", "PST"], *[["PST", "FTR", "SFR"]] * 4]
    files["P"] = path.read_bytes()
    setting_up(path, "a: par MBR 60", "b: buy MBR company", "c: buy MBR company", "a: buy MBR company", "b: buy MBR company",
         "c: pass", "a: pass", "b: pass")
    files["M"] = path.read_bytes()
    return files


@pytest.fixture
def at(built, tmp_path):
    def copy(name):
        path = tmp_path / "X.toml"
        path.write_bytes(built[name])
        return path
    return copy


def test_p_and_m_are_the_audits_positions(at):
    v = view(at("P"))
    assert (v["operating_round"], v["train_phase"], v["trains"]["next"], v["trains"]["pool"]) == (5, "5", "6", {"3": 1})
    assert {c["name"]: (c["trains"], c["treasury"]) for c in v["companies"] if c["director"]} == {
        "FTR": (["3", "4"], 560), "SFR": (["3", "4"], 560), "PST": (["4", "5"], 470)}
    path = at("M")
    mbr, v = company(path, "MBR"), view(path)
    assert (mbr["floated"], mbr["treasury"], mbr["trains"], v["players"][0]["money"]) == (True, 360, [], 60)


# ---- the operating order ------------------------------------------------------------------------
def test_the_judge_names_whose_turn_it_is_in_1830s_operating_order(at):
    """Highest price first (MBR at $60, PST $40); FTR and SFR share a space at $36, and FTR,
    which arrived there first, goes first (round/operating.rb operating_order)."""
    path = at("M")
    v = view(path, "gm")
    assert (v["turn_company"], v["still_to_operate"]) == ("MBR", ["PST", "FTR", "SFR"])
    assert "MBR operates; then PST, FTR, SFR." in events(path)
    assert [c["price"] for c in v["companies"] if c["director"]] == [36, 36, 40, 60]
    assert v["prompts"]["gm"] == ("MBR's turn: track MBR COST, token MBR ($40), operate MBR REVENUE pay|withhold "
                                  "(or no route), end game")
    refused(path, "gm: operate PST 0 withhold", "it is MBR's turn (operating order now: MBR, PST, FTR, SFR); PST "
                                               "operates in its own turn")
    assert "MBR's turn: track, token, run, then trains." in flat(ok("show", path, "--gm"))


# ---- 1. another company's train with the director's help: at most treasury plus cash, no sale ------
def test_a_company_that_must_buy_pays_another_company_at_most_its_treasury_and_its_directors_cash(at):
    """M: MBR ($360, no train, a route) and its director a ($60). The cheapest train the bank
    offers is the open market's 3 ($180), which the two together can pay, so a may sell no
    shares (emergency_money.rb selling_minimum_shares?), and PST's 5 costs MBR at most $420
    (step/train.rb spend_minmax). Version 6 took $450 with a selling an SFR share:
    test_stock_round_v6.py."""
    path = at("M")
    play(path, "gm: operate MBR 0 withhold")
    refused(path, "gm: train MBR 5 from PST 450", "MBR has $360 and its director a $60: with the director's help it "
                                                 "pays another company at most $420")
    orders = gm_orders(path)
    assert "train MBR 5 from PST 420" in orders and "train MBR 5 from PST 450" not in orders
    pst = company(path, "PST")["treasury"]
    play(path, "gm: train MBR 5 from PST 420")
    assert "a pays $60 toward MBR's 5 train." in events(path) and "MBR buys a 5 train from PST for $420." in events(path)
    v = view(path)
    assert not v["emergency"] and v["players"][0]["money"] == 0 and v["players"][0]["shares"]["SFR"] == 1  # no sale
    assert (company(path, "MBR")["trains"], company(path, "PST")["treasury"]) == (["5"], pst + 420)
    consistent(path)


# ---- 2. a company runs and pays before it buys ---------------------------------------------------
def test_trains_bought_in_a_turn_never_count_in_its_revenue_whatever_the_typing_order(at):
    path = at("S1")
    result = judge("order", path, "--gm", "train FTR 2", "operate FTR 80 pay")
    assert result.exit_code == 4 and flat("FTR runs before it buys (1830: track, token, run, then trains): enter its "
                                          "revenue first") in flat(result.output)
    refused(path, "gm: operate FTR 80 pay", "FTR owns no train: its revenue is 0")  # the reverse order
    ok("order", path, "--gm", "operate FTR 0 withhold", "train FTR 2")
    assert company(path)["trains"] == ["2"]
    refused(path, "gm: operate FTR 80 pay", "FTR has run: it may buy trains (train FTR ...) or end its turn (done)")


def test_version_6_let_the_typing_order_count_new_trains_in_the_revenue(at):
    path = at("S1 version 6")
    ok("order", path, "--gm", "train FTR 2", "operate FTR 80 pay")
    assert "FTR earns $80 and pays $8 a share; FTR rises to $66." in events(path)


# ---- 3. a company that sold its last train buys in its own next turn ------------------------------
def test_a_company_that_sold_its_last_train_replaces_it_in_its_own_next_turn(at):
    path = at("S1")
    assert turns(path, {"FTR": ["operate FTR 0 withhold", "train FTR 2"],
                        "SFR": ["operate SFR 0 withhold", "train SFR 2 from FTR 80"],  # FTR's only train
                        "PST": ["operate PST 0 withhold", "train PST 2"]}) == ["FTR", "SFR", "PST"]
    assert view(path)["phase"] == "stock" and company(path)["trains"] == []  # the round ended without it
    setting_up(path, *ALL_PASS)
    assert view(path)["turn_company"] == "FTR"
    play(path, "gm: operate FTR 0 withhold")
    refused(path, "gm: done", "FTR has a route and no train: it must buy one in its turn (train FTR 2, its director "
                              "paying what the treasury lacks")
    play(path, "gm: train FTR 2", "gm: done")
    assert view(path)["turn_company"] == "SFR"


def test_a_company_without_a_route_need_not_buy(at):
    path = at("M")
    play(path, "gm: operate MBR no route")
    assert "MBR has no route." in events(path) and company(path, "MBR")["price"] == 54  # withheld: one column left
    assert "done" in gm_orders(path)
    refused(path, "gm: train MBR 6", "MBR has $360; a 6 train costs $630")  # and its director does not help
    play(path, "gm: done")
    assert view(path)["turn_company"] == "PST"


# ---- 4. one buy-train step a turn ------------------------------------------------------------------
def test_trains_change_hands_only_in_the_buyers_turn_and_up_to_its_limit(at):
    """Version 6 let SFR and FTR swap a train back and forth in one round (its per-round count)."""
    path = at("S1")
    play(path, "gm: operate FTR 0 withhold", "gm: train FTR 2", "gm: train FTR 2", "gm: done",
         "gm: operate SFR 0 withhold", "gm: train SFR 2 from FTR 100")
    refused(path, "gm: train FTR 2 from SFR 150", "it is SFR's turn (operating order now: SFR, PST); FTR buys trains "
                                                 "only in its own turn")
    play(path, "gm: train SFR 2 from FTR 100")  # any number in its own buy-train step, within its limit
    assert (company(path)["trains"], company(path, "SFR")["trains"]) == ([], ["2", "2"])
    path = at("P")
    setting_up(path, *ALL_PASS, "gm: operate PST 0 withhold", "gm: done", "gm: operate FTR 0 withhold")
    refused(path, "gm: train FTR 3 from SFR 100", "FTR owns 2 trains, the limit is 2")


def test_after_trading_a_4_in_for_a_d_a_company_buys_a_6_in_the_same_step(at):
    """M: MBR buys the first 6, which rusts the 3s and puts the D on sale; in its turn FTR
    trades its 4 in for the D, which rusts the 4s, then buys the last 6 within its limit of 2
    (arranged: money from the bank for both; version 6 refused FTR the 6)."""
    path = at("M")

    def richer(state):  # MBR $300 more, FTR $900
        state["bank"] -= 1200
        state["companies"]["MBR"]["treasury"] += 300
        state["companies"]["FTR"]["treasury"] += 900
    arrange(path, richer)
    play(path, "gm: operate MBR 0 withhold", "gm: train MBR 6", "gm: done")
    assert view(path)["trains"]["pool"] == {} and company(path)["trains"] == ["4"]
    play(path, "gm: operate PST 0 withhold", "gm: done", "gm: operate FTR 0 withhold", "gm: train FTR D trade 4")
    assert company(path)["trains"] == ["D"]
    play(path, "gm: train FTR 6")
    assert company(path)["trains"] == ["D", "6"]
    consistent(path)


# ---- 5. track and station tokens cost money -------------------------------------------------------
def test_track_and_tokens_are_paid_from_the_treasury_never_beyond_it(at):
    path = at("S1")
    orders = gm_orders(path)
    assert orders[:3] == ["track FTR 80", "track FTR 120", "token FTR"]
    refused(path, "gm: track FTR 100", "a tile costs its terrain: $80 or $120")
    play(path, "gm: track FTR 120", "gm: token FTR")
    assert "FTR lays track for $120." in events(path) and "FTR places a station token for $40." in events(path)
    assert company(path)["treasury"] == 360 - 160
    refused(path, "gm: track FTR 80", "FTR lays one tile a turn, before its token (1830)")
    refused(path, "gm: token FTR", "FTR has placed a token in this turn")
    play(path, "gm: operate FTR 0 withhold", "gm: train FTR 2", "gm: train FTR 2")
    assert company(path)["treasury"] == 40
    play(path, "gm: done")
    assert turns(path, {"SFR": ["operate SFR 0 withhold", "train SFR 2"],
                        "PST": ["operate PST 0 withhold", "train PST 2"]}) == ["SFR", "PST"]
    setting_up(path, *ALL_PASS)
    refused(path, "gm: track FTR 80", "FTR has $40: track is paid from the treasury alone, never beyond it")
    refused(path, "gm: token FTR", "FTR has $40; its next station token costs $100, paid from the treasury alone")
    assert not [o for o in gm_orders(path) if o.startswith(("track", "token"))]


# ---- 6. the Pool's price on the last column ---------------------------------------------------------
@pytest.mark.parametrize("version, price", [(7, 158), (6, 150)])
def test_a_share_from_the_pool_on_the_last_column_costs_the_price_one_row_up(at, version, price):
    """Arranged: FTR on the last column of the par row ($150), a share in the Pool, in stock round 2."""
    path = at("S1" if version == 7 else "S1 version 6")

    def last_column(state):
        ftr = state["companies"]["FTR"]
        ftr["token"], ftr["pool"], ftr["shares"]["c"] = [2, 15], 1, 0
        ftr["floated"] = True
        state.update(phase="stock", round=2, turn="a", operated=[])
        state.update({k: v for k, v in (("turn_co", ""), ("step", "")) if k in state})
    arrange(path, last_column)
    assert company(path)["pool_price"] == price
    money = view(path)["players"][0]["money"]
    play(path, "a: buy FTR pool")
    assert view(path)["players"][0]["money"] == money - price


# ---- the game master's block, the bots, upgrade -----------------------------------------------------
def test_the_game_master_may_enter_a_whole_round_as_one_block_in_the_turns_order(at):
    path = at("S1")
    ok("order", path, "--gm", "track FTR 80", "operate FTR 0 withhold", "train FTR 2", "done",
       "operate SFR 0 withhold", "train SFR 2", "done", "token PST", "operate PST 0 withhold", "train PST 2", "done")
    v = view(path)
    assert v["phase"] == "stock" and [c["trains"] for c in v["companies"] if c["director"]] == [["2"]] * 3


def test_the_game_masters_bot_buys_another_companys_train_rather_than_ruin_a_director(at):
    """The audit's g2 in small (arranged at M: the open market's 3 gone, MBR $400, a $0): the
    bank's cheapest train is the 6 ($630), which a could pay only by selling shares; the bot
    buys the cheapest other company's train at its face value from one that keeps a train
    (FTR's 3, $180)."""
    path = at("M")

    def g2(state):
        state["trains"]["pool"]["3"], state["trains"]["scrapped"]["3"] = 0, 1
        a, mbr = state["players"]["a"], state["companies"]["MBR"]
        state["bank"] += a["money"] - 40
        a["money"], mbr["treasury"] = 0, 400
    arrange(path, g2)
    play(path, "gm: operate MBR 0 withhold")
    assert "train MBR 6" in gm_orders(path)  # (a would have to sell shares)
    ok("bot", path, "--gm")
    assert "MBR buys a 3 train from FTR for $180." in events(path)
    assert (company(path, "MBR")["trains"], company(path)["trains"], view(path)["players"][0]["money"]) == (["3"], ["4"], 0)


def test_a_whole_bot_game_enters_every_companys_revenue_before_its_purchases():
    """Sensible and random players and the game master's bot, seed 2: in every operating round
    each company's entries form one turn, its run before any train it buys."""
    game = Game.new("stock-round", bots.NAMES[:4], seed=2)
    bots.play_out(game, {p: "sensible" if i % 2 else "random" for i, p in enumerate(game.players)})
    assert game.is_over() and game.state["or_round"] >= 10
    turn, ran, runs = "", False, 0
    for entry in game.log:  # ("17 gm operate FTR 80 pay")
        _, who, verb, *rest = entry.split()
        if who != "gm" or verb not in ("track", "token", "operate", "train", "done"):
            continue
        if verb == "done":
            turn, ran = "", False
            continue
        turn = turn or rest[0]
        assert rest[0] == turn, f"{entry}: in {turn}'s turn"
        if verb == "operate":
            ran, runs = True, runs + 1
        assert verb != "train" or ran, f"{entry}: before {turn}'s revenue"
    assert runs > 30


def test_judge_upgrade_from_version_6_says_what_version_7_changes(tmp_path):
    path = new(tmp_path)  # version 6
    play(path, *STOCK_ROUND_1[:2])
    out = flat(ok("upgrade", path))
    assert "from stock-round version 6 to version 7" in out
    for line in ("an operating round is a sequence of company turns in 1830's operating order",
                 "track and station tokens cost money, paid from the treasury and never beyond it",
                 "a company with a route and no train must buy one before its turn ends",
                 "with the director's help another company's train costs at most what the treasury and the director's "
                 "cash hold together, and no shares are sold for it",
                 "a share from the Pool on the last column costs the price one row up"):
        assert f"- {line}" in out
    assert "rusting removes" not in out  # (version 6's changes are not repeated)
    assert gamefile.load(path).ruleset.version == 7


def test_a_version_6_game_whose_trains_came_before_its_revenue_stays_at_version_6(tmp_path):
    from pathlib import Path

    golden = Path(__file__).parents[2] / "golden" / "files" / "2026-11-28" / "stock-round.toml"
    path = tmp_path / "v6.toml"
    shutil.copy(golden, path)
    result = judge("upgrade", path)
    assert result.exit_code == 3 and "runs before it buys" in flat(result.output)
    assert path.read_bytes() == golden.read_bytes()


def test_a_hand_edited_arrival_or_route_is_refused_when_the_file_is_read():
    """Version 7's own state (a company's arrival on its price, the route of the company in its
    turn) is checked like the rest: the operating order breaks ties by arrival."""
    from judge.engine.errors import GameFileError

    for edit, said in ((lambda s, c: c.__setitem__("arrived", "x"), "arrived must be a move number"),
                       (lambda s, c: s.__setitem__("route", "yes"), "state.route must be true or false")):
        game = Game.new("stock-round", ["a", "b", "c"], seed=1)
        edit(game.state, next(iter(game.state["companies"].values())))
        with pytest.raises(GameFileError, match=said):
            game.ruleset.check(game.state)
