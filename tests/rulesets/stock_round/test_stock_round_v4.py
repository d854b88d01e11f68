"""stock-round version 4 (issue 26): the 1830 rules where 1876v2 is silent, each played through
the command line, beside what version 3 did (games of version 3 keep it). docs/stock-round.md
names each rule's source (18xx.games, tobymao/18xx) and this file's test of it."""
import json

import pytest

from judge.store import gamefile
from mailkit import flat

from test_stock_round_1830 import (arrange, bank_left, company, emergency_game, events, judge, new, ok, pass_until, play,
                                   refused, set_version, two_companies, view)


def consistent(path):
    """The saved state passes the ruleset's check (money and trains add up)."""
    game = gamefile.load(path)
    game.ruleset.check(game.state)


def money(path):
    return {p["name"]: p["money"] for p in view(path)["players"]}


# ---- 1. a broken bank pays in full to the end of the game -----------------------------------
@pytest.mark.parametrize("version", [3, 4])
def test_a_broken_bank_pays_every_dividend_in_full_to_the_end(tmp_path, version):
    path = two_companies(tmp_path, version=version)
    play(path, "gm: train FTR 2", "gm: train SFR 2")
    arrange(path, bank_left(20))
    before = money(path)
    play(path, "gm: operate FTR 80 pay")  # $8 a share: a holds 4 FTR, b 1, c 1: $48, the bank has $20
    assert "The bank is broken: the game ends after this set of operating rounds." in events(path)
    got = {p: money(path)[p] - before[p] for p in before}
    play(path, "gm: operate SFR 80 pay")  # b 3 SFR, c 2, a 1: $48 more
    then = {p: money(path)[p] - before[p] - got[p] for p in before}
    if version == 4:
        assert got == {"a": 32, "b": 8, "c": 8} and then == {"a": 8, "b": 24, "c": 16}
        assert view(path)["bank"] == 20 - 48 - 48  # paid from the reserve
        assert "Bank: broken, $76 paid from its reserve" in ok("show", path)
    else:  # version 3: what the bank still had, in seat order, then nothing
        assert got == {"a": 20, "b": 0, "c": 0} and then == {"a": 0, "b": 0, "c": 0}
        assert view(path)["bank"] == 0
    consistent(path)  # the money adds up
    play(path, "gm: done")
    assert view(path)["game_over"] and events(path)[-1].startswith("The game ends (the bank is broken); ")


# ---- 2 and 3. the train limit of the phase a purchase starts in; trains over a fallen limit ----
def before_the_4s(tmp_path, version):
    """FTR holds three 2 trains, SFR three 2s and a 3; the two other 3s are gone (arranged):
    the next train is the first 4, which rusts the 2s and lowers the limit to 3."""
    path = two_companies(tmp_path, version=version)

    def rich(state):  # arranged: $2,000 more in each treasury, from the bank
        for co in ("FTR", "SFR"):
            state["companies"][co]["treasury"] += 2000
        state["bank"] -= 4000
    arrange(path, rich)
    play(path, *["gm: train FTR 2"] * 3, *["gm: train SFR 2"] * 3, "gm: train SFR 3")

    def no_more_3s(state):
        state["trains"]["bank"]["3"], state["trains"]["scrapped"]["3"] = 0, 2
    arrange(path, no_more_3s)
    assert view(path)["trains"]["next"] == "4" and company(path)["trains"] == ["2", "2", "2"]
    return path


def test_version_3_refused_the_first_4_to_a_company_with_three_trains_it_rusts(tmp_path):
    path = before_the_4s(tmp_path, 3)
    refused(path, "gm: train FTR 4", "FTR owns 3 trains, the limit is 3")


def test_the_first_4_is_bought_under_the_limit_of_the_phase_it_starts_in_and_rusts_the_2s(tmp_path):
    path = before_the_4s(tmp_path, 4)
    play(path, "gm: train FTR 4")
    assert "The first 4 train rusts every 2 train." in events(path)
    assert company(path)["trains"] == ["4"] and company(path, "SFR")["trains"] == ["3"]
    assert view(path)["trains"]["limit"] == 3 and view(path)["awaiting"] == ["gm"]


def to_the_first_5(tmp_path, version):
    path = before_the_4s(tmp_path, version)
    if version == 3:  # arranged: FTR with two 2s only, so that version 3 lets it buy the first 4
        arrange(path, lambda state: (state["companies"]["FTR"]["trains"].pop(), state["trains"]["scrapped"].update({"2": 1})))
    play(path, "gm: train FTR 4", "gm: train FTR 4", "gm: train SFR 4")
    assert view(path)["trains"]["next"] == "5"
    return path


def test_version_3_refused_the_first_5_to_a_company_with_two_trains(tmp_path):
    path = to_the_first_5(tmp_path, 3)
    refused(path, "gm: train FTR 5", "FTR owns 2 trains, the limit is 2")


def test_a_train_over_the_fallen_limit_goes_to_the_open_market_the_director_choosing(tmp_path):
    path = to_the_first_5(tmp_path, 4)
    play(path, "gm: train FTR 5")  # FTR: 4 4 5 under the limit of 2 that the 5 begins
    v = view(path)
    assert v["awaiting"] == ["a"] and v["discard"] == ["FTR"]
    assert "FTR owns 3 trains, over the limit of 2: its director a discards to the open market." in events(path)
    assert v["prompts"]["a"] == "discard FTR TYPE: FTR owns more trains than the limit of 2"
    assert v["orders"] == ["discard FTR 4", "discard FTR 5"]
    refused(path, "gm: operate FTR 0 withhold", "a is discarding FTR's trains over the limit")
    refused(path, "a: discard FTR 3", "FTR owns no 3 train")
    refused(path, "b: discard FTR 4", "not your turn")
    play(path, "a: discard FTR 4")
    v = view(path)
    assert company(path)["trains"] == ["4", "5"] and v["trains"]["pool"] == {"4": 1} and v["awaiting"] == ["gm"]
    assert "FTR discards a 4 train to the open market." in events(path)
    refused(path, "gm: train SFR 4 pool", "SFR owns 2 trains, the limit is 2")

    def sfr_loses_its_3(state):  # arranged: as if SFR's 3 had rusted
        state["companies"]["SFR"]["trains"].remove("3")
        state["trains"]["scrapped"]["3"] += 1
    arrange(path, sfr_loses_its_3)
    treasury = company(path, "SFR")["treasury"]
    assert "train SFR 4 pool" in json.loads(ok("orders", path, "--gm", "--json"))
    play(path, "gm: train SFR 4 pool")  # from the open market at face value
    assert company(path, "SFR")["trains"] == ["4", "4"] and company(path, "SFR")["treasury"] == treasury - 300
    assert view(path)["trains"]["pool"] == {} and "SFR buys a 4 train from the open market for $300." in events(path)
    consistent(path)


# ---- 4. a player over the certificate limit sells first ----------------------------------------
def over_the_limit(tmp_path, version=None):
    """Six players (limit 7): in stock round 2, a holds 6 FTR (director) and 3 SFR: 8 certificates
    (a game of version 6 unless `version` says another)."""
    path = tmp_path / "six.toml"
    setup = tmp_path / "s.toml"
    setup.write_text('priority = "a"\n')
    ok("new", "stock-round", path, *[x for p in "abcdef" for x in ("-p", p)], "--seed", 3, "--setup", setup)
    set_version(path, version or 6)
    play(path, "a: par FTR 60", "b: par SFR 60", "c: pass", "d: pass", "e: pass", "f: pass", "a: pass", "b: pass")
    play(path, "gm: done")

    def shares(state):  # arranged: shares from the companies (as if a had bought them)
        ftr, sfr = state["companies"]["FTR"], state["companies"]["SFR"]
        ftr["shares"]["a"], ftr["ipo"], ftr["floated"] = 6, 4, True
        sfr["shares"]["a"], sfr["ipo"] = 3, 5
    arrange(path, shares)
    pass_until(path, "a")
    assert view(path)["turn"] == "a" and view(path)["players"][0]["certs"] == 8
    return path


def test_a_player_over_the_certificate_limit_must_sell_before_anything_else(tmp_path):
    path = over_the_limit(tmp_path)
    v = view(path)
    assert v["prompts"]["a"] == "sell shares first: over the certificate limit of 7"
    assert v["orders"] == [*(f"sell FTR {n}" for n in range(1, 5)), *(f"sell SFR {n}" for n in range(1, 4))]
    refused(path, "a: pass", "you hold 8 certificates, over the limit of 7: sell shares first (sell COMPANY N)")
    refused(path, "a: buy PST company", "over the limit of 7: sell shares first")
    play(path, "a: sell SFR 1", *(f"{p}: offer no" for p in "bcdef"), "b: offer no")  # nobody, nor SFR: the Pool
    assert view(path)["players"][0]["certs"] == 7 and company(path, "SFR")["pool"] == 1
    play(path, "a: pass")  # at the limit again: the turn goes on as usual


def test_version_3_let_a_player_over_the_certificate_limit_pass(tmp_path):
    path = over_the_limit(tmp_path, version=3)
    assert "pass" in view(path)["orders"]
    play(path, "a: pass")


# ---- 5. the game master's revenue is what the trains can run -----------------------------------
def test_revenue_is_bounded_by_the_trains_and_the_listed_orders_agree_with_parse(tmp_path):
    path = two_companies(tmp_path)
    refused(path, "gm: operate FTR 10 withhold", "FTR owns no train: its revenue is 0 (operate FTR 0 withhold)")
    play(path, "gm: train FTR 2")
    refused(path, "gm: operate FTR 6000 pay", "FTR's trains (2) run at most $80 ($40 a stop)")
    listed = [o for o in json.loads(ok("orders", path, "--gm", "--json")) if o.startswith("operate FTR")]
    assert listed == ["operate FTR 0 withhold", *(f"operate FTR {r} {h}" for r in range(10, 81, 10) for h in ("pay", "withhold"))]
    refused(path, "gm: operate FTR 90 pay", "run at most $80")
    play(path, "gm: operate FTR 80 pay")


def test_version_3_accepted_any_revenue(tmp_path):
    path = two_companies(tmp_path, version=3)
    play(path, "gm: train FTR 2", "gm: operate FTR 6000 withhold")


# ---- 6. an emergency sale on the bottom row: the token stays ------------------------------------
def test_an_emergency_sale_on_the_bottom_row_leaves_the_token_where_it_is(tmp_path):
    path = emergency_game(tmp_path, a_money=10)
    arrange(path, lambda state: state["companies"]["SFR"].update(token=[6, 11]))  # arranged: SFR on the bottom row at $81
    play(path, "gm: train FTR 2", "a: sell SFR 1")
    sfr = company(path, "SFR")
    assert sfr["pool"] == 1 and sfr["price"] == 81
    assert "a sells 1 SFR share to the Pool for $81; SFR falls to $81." in events(path)


# ---- 7. trains between companies from phase 2 ---------------------------------------------------
def test_companies_sell_each_other_trains_from_phase_2(tmp_path):
    path = two_companies(tmp_path)
    play(path, "gm: train FTR 2", "gm: train FTR 2", "gm: train SFR 2 from FTR 50")
    assert view(path)["train_phase"] == "2" and company(path, "SFR")["trains"] == ["2"]
    assert "SFR buys a 2 train from FTR for $50." in events(path)


# ---- judge upgrade -------------------------------------------------------------------------------
def test_judge_upgrade_from_version_3_lists_the_changes_of_versions_4_and_5(tmp_path):
    path = new(tmp_path, version=3)
    play(path, "a: par FTR 60", "b: pass", "c: pass", "a: pass")
    out = ok("upgrade", path)
    assert flat("from stock-round version 3 to version 7") in flat(out)
    assert "  - a player over the certificate limit must sell at the start of their turn" in out
    assert "notice" not in out  # (version 3's change is not repeated)
    assert judge("upgrade", path).exit_code == 2
