"""stock-round version 6 (issue 36): 1830's trains, the director's help and bankruptcy as
18xx.games plays them (tobymao/18xx), each played through the command line beside what version
5 did (games begun under it keep it). docs/stock-round.md names each rule's source.

Most tests start where the audit's reproductions did: three companies floated at 60 in stock
round 1, then four operating rounds of game-master orders (`four_operating_rounds`)."""
import functools
import json

import pytest

from judge.store import gamefile
from mailkit import flat

from test_stock_round_1830 import arrange, company, emergency_game, events, judge, new, ok, play, refused, set_version, view
from test_stock_round_v4 import consistent, over_the_limit

# Stock round 1: a, b and c start FTR, SFR and PST at 60 and buy four shares each, so that
# every company floats with a second holder of 2 (FTR: a 3, b 2, c 1; SFR: b 3, c 2, a 1;
# PST: c 3, a 2, b 1) and $360 in its treasury.
BUYS = {"a": ("FTR", "SFR", "PST", "PST"), "b": ("FTR", "FTR", "SFR", "PST"), "c": ("FTR", "SFR", "SFR", "PST")}
STOCK_ROUND_1 = ("a: par FTR 60", "b: par SFR 60", "c: par PST 60",
                 *(f"{p}: buy {BUYS[p][i]} company" for i in range(4) for p in "abc"), "a: pass", "b: pass", "c: pass")
ALL_PASS = ("a: pass", "b: pass", "c: pass")
OPERATING_ROUNDS = (
    # 1 (phase 2): the six 2s and the first 3
    "gm: train FTR 2", "gm: train FTR 2", "gm: train SFR 2", "gm: train SFR 2", "gm: train PST 2", "gm: train PST 2",
    "gm: train SFR 3", "gm: operate FTR 160 withhold", "gm: operate SFR 280 withhold", "gm: operate PST 160 withhold",
    "gm: done", *ALL_PASS,
    # 2 (phase 3)
    "gm: train FTR 3", "gm: train PST 3", "gm: operate FTR 280 withhold", "gm: operate SFR 280 withhold",
    "gm: operate PST 280 withhold", "gm: done",
    # 3: the first 4 rusts the 2s
    "gm: train FTR 4", "gm: train PST 4", "gm: operate FTR 280 withhold", "gm: operate SFR 120 withhold",
    "gm: operate PST 280 withhold", "gm: done", *ALL_PASS,
    # 4 (phase 4): the last 4, then the 5 lowers the limit to 2; a discards a 3, c a 4
    "gm: operate FTR 280 withhold", "gm: operate PST 280 withhold", "gm: train FTR 4", "gm: train PST 5",
    "a: discard FTR 3", "c: discard PST 4", "gm: operate SFR 120 withhold", "gm: done",
)


def position(build):
    """A position builder `build(tmp_path, version=None) -> game file` whose file is built once
    for each version and copied for every later test (the orders are the slow part)."""
    built = {}

    @functools.wraps(build)
    def copy(tmp_path, version=None):
        path = tmp_path / "X.toml"
        if version not in built:
            built[version] = build(tmp_path, version).read_bytes()
        path.write_bytes(built[version])
        return path
    return copy


@position
def four_operating_rounds(tmp_path, version=None):
    """Operating round 5 begins (phase 5): FTR 4 4 ($420), SFR 3 ($820), PST 3 5 ($270); the
    open market holds a 3 and a 4; the next train is the first 6; every price is in the 40s and
    each player has $240 (in a game of an older `version` of the rules, if given)."""
    path = new(tmp_path)
    if version:
        set_version(path, version)
    play(path, *STOCK_ROUND_1, *OPERATING_ROUNDS)
    v = view(path)
    assert (v["operating_round"], v["train_phase"], v["trains"]["next"], v["trains"]["pool"]) == (5, "5", "6", {"3": 1, "4": 1})
    assert [company(path, co)["trains"] for co in ("FTR", "SFR", "PST")] == [["4", "4"], ["3"], ["3", "5"]]
    return path


def trains(path) -> dict:
    return {c["name"]: c["trains"] for c in view(path)["companies"] if c["director"]}


# ---- 1. a rusting type leaves the game everywhere, the open market included ---------------------
def test_the_first_6_rusts_the_3_in_the_open_market_too(tmp_path):
    path = four_operating_rounds(tmp_path)
    play(path, "gm: train SFR 6")
    assert "The first 6 train rusts every 3 train." in events(path)
    assert "The 3 train in the open market rusts too." in events(path)
    v = view(path)
    assert v["trains"]["pool"] == {"4": 1} and v["trains"]["scrapped"]["3"] == 3
    assert trains(path) == {"FTR": ["4", "4"], "SFR": ["6"], "PST": ["5"]}
    assert "in the open market: 4 x1." in ok("show", path)
    refused(path, "gm: train PST 3 pool", "the open market has no 3 train")
    assert not [o for o in json.loads(ok("orders", path, "--gm", "--json")) if " 3 pool" in o]
    consistent(path)


def test_version_5_left_the_rusted_3_in_the_open_market_for_sale(tmp_path):
    path = four_operating_rounds(tmp_path, version=5)
    play(path, "gm: train SFR 6")
    assert view(path)["trains"]["pool"] == {"3": 1, "4": 1}
    play(path, "gm: train PST 3 pool")
    assert trains(path)["PST"] == ["5", "3"]


# ---- 6. D trains from the first 6, with 1830's trade-in ------------------------------------------
@position
def after_the_first_6(tmp_path, version=None):
    """SFR buys the first 6 in operating round 5; operating round 6 begins with FTR at $1,060
    (4 4), SFR at $430 (6), PST at $470 (5)."""
    path = four_operating_rounds(tmp_path, version)
    play(path, "gm: train SFR 6", "gm: operate FTR 320 withhold", "gm: operate SFR 240 withhold",
         "gm: operate PST 200 withhold", "gm: done", *ALL_PASS, "gm: operate FTR 320 withhold")
    assert (company(path)["treasury"], view(path)["operating_round"]) == (1060, 6)
    return path


def test_a_d_is_on_sale_from_the_first_6_and_a_4_5_or_6_is_traded_in_for_300_off(tmp_path):
    path = after_the_first_6(tmp_path)
    v = view(path)
    assert (v["trains"]["next"], [t["type"] for t in v["trains"]["on_sale"]]) == ("6", ["6", "D"])
    assert flat("Trains: next on sale a 6 for $630, also a D for $1100 (a D for $800 trading in a 4, 5 or 6); "
                "limit 2 a company.") in flat(ok("show", path))
    orders = json.loads(ok("orders", path, "--gm", "--json"))
    assert "train FTR D trade 4" in orders  # FTR holds two 4s, the limit: no other purchase
    assert not {"train FTR 6", "train FTR D", "train FTR D trade 5"} & set(orders)
    refused(path, "gm: train FTR D trade 3", "a D train is bought trading in a 3 train only where 1830 allows it "
                                            "($800 trading in a 4, 5 or 6)")
    refused(path, "gm: train FTR D trade 5", "FTR owns no 5 train")
    refused(path, "gm: train PST D trade 5", "PST has $470; a D train trading in a 5 costs $800 (its director pays nothing toward it)")
    play(path, "gm: train FTR D trade 4")
    assert "FTR buys a D train for $800, trading in a 4 train (to the open market)." in events(path)
    # the first D rusts the 4s: FTR's other one, the one it traded in and the one c discarded
    assert "The 2 4 trains in the open market rust too." in events(path)
    v = view(path)
    assert (company(path)["trains"], company(path)["treasury"], v["train_phase"], v["trains"]["pool"]) == (["D"], 260, "D", {})
    assert v["trains"]["bank"] == {"2": 0, "3": 0, "4": 0, "5": 0, "6": 1, "D": 4}
    assert [t["type"] for t in v["trains"]["on_sale"]] == ["6", "D"]  # the last 6 is still on sale
    consistent(path)


def test_version_5_sold_the_d_only_after_the_last_6_and_took_no_trade_in(tmp_path):
    path = after_the_first_6(tmp_path, version=5)
    refused(path, "gm: train FTR D", "the train on sale is a 6 ($630)")
    refused(path, "gm: train FTR D trade 4", "write train COMPANY TYPE or train COMPANY TYPE pool or train COMPANY TYPE "
                                            "from COMPANY PRICE")
    assert "also a D" not in ok("show", path)


# ---- 2. with the director's help, only the cheapest train -----------------------------------------
@position
def mbr_floated(tmp_path, version=None):
    """After operating round 5, stock round 4 starts and floats MBR (a director, $360, no train):
    in operating round 6 it must buy a train; the bank sells the 6 ($630), the open market holds
    a 3 ($180) and a 4 ($300). a has $60."""
    path = four_operating_rounds(tmp_path, version)
    play(path, "gm: operate FTR 320 withhold", "gm: operate SFR 120 withhold", "gm: operate PST 200 withhold", "gm: done",
         "a: par MBR 60", "b: buy MBR company", "c: buy MBR company", "a: buy MBR company", "b: buy MBR company",
         "c: pass", "a: pass", "b: pass")
    mbr = company(path, "MBR")
    assert (mbr["floated"], mbr["treasury"], mbr["trains"], view(path)["operating_round"]) == (True, 360, [], 6)
    return path


def test_a_company_its_director_helps_may_buy_only_the_cheapest_train(tmp_path):
    path = mbr_floated(tmp_path)
    refused(path, "gm: train MBR 6", "MBR has $360: with its director's help it may buy only the cheapest train available "
                                     "(train MBR 3 pool, $180)")
    play(path, *(f"gm: operate {co} 0 withhold" for co in ("FTR", "SFR", "PST", "MBR")))
    refused(path, "gm: done", "MBR owns no train and must buy one: train MBR 3 pool")
    orders = json.loads(ok("orders", path, "--gm", "--json"))
    assert {"train MBR 3 pool", "train MBR 4 pool"} <= set(orders) and "train MBR 6" not in orders
    play(path, "gm: train MBR 4 pool")  # what its treasury pays alone it may choose
    assert company(path, "MBR")["trains"] == ["4"] and company(path, "MBR")["treasury"] == 60


def test_version_5_let_the_director_pay_for_the_6_selling_shares(tmp_path):
    path = mbr_floated(tmp_path, version=5)
    play(path, "gm: train MBR 6")
    assert view(path)["emergency"]["due"] == 630 - 360 - 60 and view(path)["awaiting"] == ["a"]


# ---- 3. in an emergency, another company's train at most at face value ---------------------------
def test_a_company_that_must_buy_may_buy_another_companys_train_at_face_value_its_director_paying(tmp_path):
    path = mbr_floated(tmp_path)
    refused(path, "gm: train MBR 5 from PST 451", "MBR has $360: with its director's help it pays at most the 5 train's "
                                                 "face value, $450")
    refused(path, "gm: train SFR 4 from FTR 1000", "SFR has $940; the 4 train costs $1000")  # SFR has a train: no help
    assert "train MBR 5 from PST 450" in json.loads(ok("orders", path, "--gm", "--json"))
    pst = company(path, "PST")["treasury"]
    play(path, "gm: train MBR 5 from PST 450")  # not the cheapest train: 1830 lets it (step/train.rb)
    assert "MBR has $360 for PST's 5 train ($450); its director a has $60 and must sell shares to raise $30 more." in events(path)
    assert view(path)["emergency"]["due"] == 30
    play(path, "a: sell SFR 1")
    assert "a pays $90 toward MBR's 5 train." in events(path) and "MBR buys a 5 train from PST for $450." in events(path)
    assert trains(path)["MBR"] == ["5"] and trains(path)["PST"] == ["3"] and company(path, "PST")["treasury"] == pst + 450
    assert not view(path)["emergency"] and view(path)["awaiting"] == ["gm"]
    consistent(path)


def test_version_5_refused_a_trade_above_the_buyers_treasury(tmp_path):
    path = mbr_floated(tmp_path, version=5)
    refused(path, "gm: train MBR 5 from PST 450", "MBR has $360; the 5 train costs $450")


def test_a_trade_its_director_cannot_raise_the_money_for_is_refused(tmp_path):
    """FTR (no train, $20): its director a has no money and only FTR's certificate, which a
    keeps (the directorship of the company buying the train): a can raise nothing."""
    path = emergency_game(tmp_path, a_money=0)
    arrange(path, lambda state: state["companies"]["SFR"]["shares"].update(a=0, c=state["companies"]["SFR"]["shares"]["c"] + 2))
    play(path, "gm: train SFR 2")
    refused(path, "gm: train FTR 2 from SFR 80", "FTR has $20 and its director a can raise at most $0 more: the 2 train costs $80")
    play(path, "gm: train FTR 2 from SFR 20")  # what the treasury pays alone


# ---- 4. over the certificate limit: sell until at it ----------------------------------------------
def two_over_the_limit(tmp_path, version=None):
    """Six players (limit 7): a holds 6 FTR (director) and 4 SFR, 9 certificates, at their turn
    in stock round 2 (test_stock_round_v4.over_the_limit, with three SFR shares more arranged:
    one for a, two for b, its director)."""
    path = over_the_limit(tmp_path, version)

    def more(state):  # arranged: shares from SFR's company, as if a and b had bought them
        sfr = state["companies"]["SFR"]
        sfr["shares"].update(a=4, b=4)
        sfr["ipo"], sfr["floated"] = 2, True
    arrange(path, more)
    assert view(path)["players"][0]["certs"] == 9 and view(path)["turn"] == "a"
    return path


def nobody_takes(path):
    while (v := view(path))["sale"]:
        play(path, f"{v['awaiting'][0]}: offer no")


def test_a_player_still_over_the_limit_after_a_sale_sells_again_before_buying_or_passing(tmp_path):
    path = two_over_the_limit(tmp_path)
    play(path, "a: sell SFR 1")
    nobody_takes(path)  # the Pool absorbs it
    v = view(path)
    assert v["players"][0]["certs"] == 8 and v["turn"] == "a" and v["must_sell"]
    assert v["prompts"]["a"] == "sell shares first: over the certificate limit of 7"
    assert v["orders"] == [*(f"sell FTR {n}" for n in range(1, 5)), *(f"sell SFR {n}" for n in range(1, 4))]
    assert "a is over the certificate limit: sells shares first." in ok("show", path)
    refused(path, "a: pass", "you hold 8 certificates, over the limit of 7: sell shares first (sell COMPANY N)")
    refused(path, "a: buy PST company", "over the limit of 7: sell shares first")
    play(path, "a: sell SFR 1")  # a second sale in the turn, of the same company here
    nobody_takes(path)
    v = view(path)
    assert v["players"][0]["certs"] == 7 and not v["must_sell"] and company(path, "SFR")["pool"] == 2
    refused(path, "a: sell FTR 1", "you sold SFR shares this turn: buy one share or pass")
    play(path, "a: pass")
    assert view(path)["turn"] == "b"


def test_version_5_let_a_player_pass_after_selling_part_of_the_excess(tmp_path):
    path = two_over_the_limit(tmp_path, version=5)
    play(path, "a: sell SFR 1")
    nobody_takes(path)
    assert view(path)["players"][0]["certs"] == 8 and "pass" in view(path)["orders"]
    play(path, "a: pass")


# ---- 5. a bankrupt player's shares are sold into the Pool -------------------------------------------
@position
def mbr_needs_the_last_6(tmp_path, version=None):
    """In operating round 6 MBR buys the 3 of the open market; the first 6 (SFR's) rusts it, PST
    buys the 4 of the open market; MBR, without trains, must buy the last 6 ($630): it has $180
    and its director a $60 and shares that fetch $282 sold to the Pool today."""
    path = mbr_floated(tmp_path, version)
    play(path, "gm: train MBR 3 pool", "gm: train SFR 6", "gm: train PST 4 pool", "gm: train MBR 6")
    v = view(path)
    assert v["emergency"]["due"] == 390 and v["awaiting"] == ["a"] and v["trains"]["pool"] == {}
    return path


def test_a_director_who_cannot_raise_the_money_goes_bankrupt_and_the_pool_takes_their_shares(tmp_path):
    path = mbr_needs_the_last_6(tmp_path)
    assert "bankrupt" in view(path)["orders"]  # $282 of shares cannot raise $390: no need to sell them one by one
    prices = {c["name"]: c["price"] for c in view(path)["companies"] if c["director"]}
    assert prices == {"FTR": 36, "SFR": 38, "PST": 38, "MBR": 60}
    play(path, "a: bankrupt")
    said = events(path)
    at = said.index("a cannot raise $390 for MBR's 6 train and goes bankrupt.")
    assert said[at + 1:] == [
        "a sells 1 MBR share to the Pool for $60; MBR falls to $57.",  # keeping MBR's directorship (b holds 2)
        "a sells 1 SFR share to the Pool for $38; SFR falls to $36.",  # operating order: the highest price first
        "a sells 2 PST shares to the Pool for $76; PST falls to $34.",
        "a sells 3 FTR shares to the Pool for $108; FTR falls to $31.",
        "b holds more FTR shares than a and becomes its director (a exchanges the director's certificate for two of b's shares).",
        "a's $342 goes to the bank.",
        said[-1]]
    assert said[-1].startswith("The game ends (a is bankrupt); ")
    v = view(path)
    a = v["players"][0]
    assert (a["money"], a["shares"], company(path, "FTR")["director"]) == (0, {"MBR": 2}, "b")
    assert {c["name"]: c["pool"] for c in v["companies"] if c["director"]} == {"FTR": 3, "SFR": 1, "PST": 2, "MBR": 1}
    rows = json.loads(ok("standings", path, "--json"))
    assert [r["player"] for r in rows][-1] == "a" and rows[-1]["score"] == 2 * 57  # by value: a's MBR certificate
    consistent(path)


def test_version_5_ended_the_game_with_the_bankrupt_keeping_money_and_shares(tmp_path):
    path = mbr_needs_the_last_6(tmp_path, version=5)
    assert "bankrupt" not in view(path)["orders"]
    refused(path, "a: bankrupt", "you can still raise money: sell FTR 1")
    play(path, "a: sell FTR 3", "a: sell SFR 1", "a: sell PST 2", "a: sell MBR 1", "a: bankrupt")
    assert view(path)["players"][0]["money"] == 342 and view(path)["game_over"]


# ---- 7. trains between companies: no longer one a round ---------------------------------------------
SWAPS = ("gm: train SFR 4 from FTR 100", "gm: train FTR 4 from SFR 150", "gm: train SFR 4 from FTR 200")


def test_a_company_buys_trains_from_others_up_to_its_limit_in_an_operating_round(tmp_path):
    path = four_operating_rounds(tmp_path)
    play(path, *SWAPS, "gm: train FTR 4 from SFR 120")  # SFR's second purchase in the round; FTR's second
    assert trains(path) == {"FTR": ["4", "4"], "SFR": ["3"], "PST": ["3", "5"]}
    assert (company(path)["treasury"], company(path, "SFR")["treasury"]) == (420 + 100 - 150 + 200 - 120, 820 - 100 + 150 - 200 + 120)
    refused(path, "gm: train SFR 4 from FTR 100", "SFR has bought 2 trains from other companies in this operating round, "
                                                 "as many as its limit of 2 (1830: a company buys trains in its own turn only)")
    assert not [o for o in json.loads(ok("orders", path, "--gm", "--json")) if o.startswith("train SFR 4 from")]
    play(path, *(f"gm: operate {co} 0 withhold" for co in ("FTR", "SFR", "PST")), "gm: done", *ALL_PASS)
    play(path, "gm: train SFR 4 from FTR 60")  # a new operating round: the count starts again


def test_version_5_allowed_one_train_from_another_company_a_round(tmp_path):
    path = four_operating_rounds(tmp_path, version=5)
    play(path, *SWAPS[:2])
    refused(path, SWAPS[2], "SFR has bought a train from another company in this operating round already")


# ---- 8. the game ends as 1830 ends; `rounds` is an option --------------------------------------------
def test_a_new_game_has_no_last_set_unless_the_option_rounds_sets_one(tmp_path):
    path = new(tmp_path)
    assert gamefile.load(path).options == {"rounds": 0}
    assert "Phase 2. Stock round 1; 1 operating round follows it." in ok("show", path)
    assert "of at most" not in ok("show", path, "--gm")
    short = tmp_path / "short"
    short.mkdir()
    path = new(short, "--option", "rounds=2")
    assert "Phase 2. Stock round 1 of at most 2; 1 operating round follows it." in ok("show", path)
    play(path, *STOCK_ROUND_1)
    assert "Operating round 1: 1 of 1 after stock round 1 (of at most 2)." in ok("show", path, "--as", "b")
    play(path, *OPERATING_ROUNDS[:26])  # to the end of operating round 3, the second set's last
    assert view(path)["game_over"]
    assert events(path)[-1].startswith("The game ends (2 sets of operating rounds have been played); ")


def test_without_the_option_a_game_ends_after_20_sets_at_the_latest():
    """Nobody starts a company: nothing would ever break the bank (the cap keeps every game,
    bots' included, finite; MAX_ROUNDS)."""
    from judge.engine.game import Game

    game = Game.new("stock-round", ["a", "b", "c"], seed=3)
    while not game.is_over():
        who = game.awaiting()[0]
        game.submit(who, ["done" if who == "gm" else "pass"])
    assert game.state["round"] == 20
    assert game.state["events"][-1]["text"].startswith(
        "The game ends (20 sets of operating rounds have been played, the most a game plays); ")


# ---- decided: a share the Pool absorbs on the first column -------------------------------------------
@position
def ftr_on_the_first_column(tmp_path, version=None):
    """Every company withholds in operating rounds 5 to 8: FTR, from $40, reaches the first
    column and goes down it to $30 (row 4 of 7). Stock round 5 begins; b holds 2 FTR."""
    path = four_operating_rounds(tmp_path, version)
    withhold = tuple(f"gm: operate {co} 0 withhold" for co in ("FTR", "SFR", "PST")) + ("gm: done",)
    play(path, *withhold, *ALL_PASS, *withhold * 3)
    assert view(path)["phase"] == "stock" and company(path)["price"] == 30
    return path


@pytest.mark.parametrize("version, paid, pool_falls_to", [(6, 28, 28), (5, 30, 28)])
def test_the_pool_absorbing_on_the_first_column_pays_the_price_one_row_down(tmp_path, version, paid, pool_falls_to):
    path = ftr_on_the_first_column(tmp_path, None if version == 6 else version)
    money = view(path)["players"][1]["money"]
    play(path, "a: pass", "b: sell FTR 1", "c: offer no", "a: offer no", "a: offer no")  # c, a, then FTR itself
    assert f"Nobody took a FTR share: the Pool absorbs one for ${paid}; FTR falls to ${pool_falls_to}." in events(path)
    assert view(path)["players"][1]["money"] == money + paid


# ---- judge upgrade -------------------------------------------------------------------------------
def test_judge_upgrade_from_version_5_lists_what_versions_6_and_7_change_and_the_game_keeps_its_rounds(tmp_path):
    from judge.engine import bots

    path = new(tmp_path, version=5)
    play(path, "a: par FTR 60", "b: pass", "c: pass")
    out = flat(ok("upgrade", path))
    assert "from stock-round version 5 to version 7" in out
    for line in ("rusting removes every train of the old type, those in the open market too",
                 "a player over the certificate limit sells until at the limit",
                 "a new game ends as 1830 ends, when the bank breaks or a director goes bankrupt",
                 "a company buys trains only in its own turn, after it has run"):
        assert f"- {line}" in out
    game = gamefile.load(path)
    assert game.ruleset.version == 7 and game.options == {"rounds": 6}
    bots.play_out(game)
    assert game.is_over() and game.state["round"] <= 6 and game.differences(game.replay()) == []


def test_a_version_5_game_whose_trains_were_entered_before_the_revenue_is_not_upgraded_and_plays_on(tmp_path):
    import shutil
    from pathlib import Path

    path = tmp_path / "v5.toml"
    golden = Path(__file__).parents[2] / "golden" / "files" / "2026-11-27" / "stock-round.toml"
    shutil.copy(golden, path)
    result = judge("upgrade", path)
    assert result.exit_code == 3
    assert flat("cannot upgrade to stock-round version 7: log entry 48 ('25 gm train FTR 2') does not replay: illegal "
                'order "train FTR 2": FTR runs before it buys') in flat(result.output)
    assert path.read_bytes() == golden.read_bytes()
