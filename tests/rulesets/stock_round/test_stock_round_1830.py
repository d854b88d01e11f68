"""stock-round version 2: the 1830 rules the 1876v2 variant leans on (RULINGS §4), each played
through the command line, and a whole bot game of six sets of operating rounds.

Each game starts as the issue's reproductions do: `printf 'priority = "a"\\n' > s.toml;
judge new stock-round X.toml -p a -p b -p c --seed 3 --setup s.toml`."""
import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from judge.engine import bots
from judge.store import gamefile
from judge.cli import app
from judge.engine.game import Game
from judge.engine.ruleset import get
from judge.engine.rng import Rng

from mailkit import flat

SR = get("stock-round")
OLD = Path(__file__).parents[2] / "golden" / "files" / "2026-11-22" / "stock-round.toml"


def judge(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def ok(*args) -> str:
    result = judge(*args)
    assert result.exit_code == 0, result.output
    return result.output


def new(tmp_path, *extra, version=6) -> Path:
    """A game of `version` (6 unless given: the tests of versions 2-6 play its rules, in which the
    game master enters an operating round's results in any order; version 7's are in
    test_stock_round_v7.py)."""
    setup = tmp_path / "s.toml"
    setup.write_text('priority = "a"\n')
    path = tmp_path / "X.toml"
    ok("new", "stock-round", path, "-p", "a", "-p", "b", "-p", "c", "--seed", 3, "--setup", setup, *extra)
    if version != SR.version:
        set_version(path, version)
    return path


def play(path, *moves):
    """Orders as 'a: par FTR 60' or 'gm: done'."""
    for move in moves:
        who, _, text = move.partition(":")
        who = who.strip()
        ok("order", path, *(("--gm",) if who == "gm" else ("--as", who)), text.strip())


def refused(path, move, message):
    who, _, text = move.partition(":")
    who = who.strip()
    before = path.read_bytes()
    result = judge("order", path, *(("--gm",) if who == "gm" else ("--as", who)), text.strip())
    assert result.exit_code == 4, result.output
    assert flat(message) in flat(result.output), result.output
    assert path.read_bytes() == before


def view(path, who="a") -> dict:
    return json.loads(ok("show", path, "--as", who, "--json"))


def company(path, name="FTR") -> dict:
    return next(c for c in view(path)["companies"] if c["name"] == name)


def events(path) -> list[str]:
    return [e["text"] for e in view(path)["events"]]


def arrange(path, change):
    """Test arrangement: edit the saved state (money moved to or from the bank, the total kept)."""
    game = gamefile.load(path)
    change(game.state)
    game.ruleset.check(game.state)
    gamefile.save(game, path)


ALL_PASS = ("c: pass", "a: pass", "b: pass")


def set_version(path, version):
    """A new game of an older `version` of the rules (as a game file written then would be:
    before version 6 the option `rounds` was 6 by default)."""
    text = re.sub(r"(?m)^ruleset_version = \d+$", f"ruleset_version = {version}", path.read_text(), count=1)
    if version < 6:
        text = re.sub(r"(?m)^rounds = 0$", "rounds = 6", text)
    path.write_text(text)
    assert gamefile.load(path).ruleset.version == version


def at_version(game: Game, version: int) -> Game:
    """The new `game` as a game of an older `version` of the rules, from the same seed."""
    rs = SR.at_version(version)
    rng = Rng(game.rng.seed)
    state = Game._initial_state(rs, game.players, game.options, rng, game.setup)
    return Game(rs, game.players, game.options, game.setup, rng, state, [])


def pass_until(path, player=None):
    """Everyone whose turn it is passes, until it is `player`'s turn (None: the round's end)."""
    while (v := view(path))["phase"] == "stock" and v["turn"] != player:
        play(path, f"{v['turn']}: pass")


# ---- 1. the director's certificate passes on a sale -----------------------------------------
def issue_1(tmp_path) -> Path:
    path = new(tmp_path)
    play(path, "a: par FTR 60", "b: buy FTR company", "c: buy FTR company", "a: pass", "b: buy FTR company", *ALL_PASS)
    return path


def test_a_director_sells_below_another_holder_who_takes_the_certificate(tmp_path):
    path = issue_1(tmp_path)
    play(path, "gm: done", "c: pass")  # FTR has not floated (5 shares sold): nothing to operate
    assert company(path)["director"] == "a" and company(path)["holders"] == {"a": 2, "b": 2, "c": 1}
    play(path, "a: sell FTR 1")
    assert company(path)["director"] == "b"
    assert ("b holds more FTR shares than a and becomes its director (a exchanges the director's certificate "
            "for two of b's shares).") in events(path)
    play(path, "b: offer no", "c: offer no", "b: offer no")  # b, c, then FTR itself (director b)
    c = company(path)
    assert c["holders"] == {"a": 1, "b": 2, "c": 1} and c["pool"] == 1 and c["director"] == "b"


def test_the_certificate_stays_when_nobody_else_holds_two_shares(tmp_path):
    path = new(tmp_path)
    play(path, "a: par FTR 60", "b: buy FTR company", "c: buy FTR company")
    pass_until(path)
    play(path, "gm: done")
    pass_until(path, "a")
    refused(path, "a: sell FTR 1", "you may sell only 0 FTR shares: you keep the director's certificate until "
                                   "another player holds 2 or more FTR shares")


# ---- 2. sold out: up one row at the end of the stock round -----------------------------------
def ftr_sold_out(tmp_path) -> Path:
    """FTR's 10 shares all with players, SFR's 3 of 10, c to act in the stock round."""
    path = new(tmp_path)
    play(path, "a: par FTR 60", "b: par SFR 60")
    for _ in range(2):
        play(path, "c: buy FTR company", "a: buy FTR company", "b: buy FTR company")
    play(path, "c: buy FTR company", "a: buy FTR company")  # FTR: all 10 with players
    play(path, "b: buy SFR company")  # SFR: 3 sold, 7 with the company
    return path


def test_a_company_all_held_by_players_rises_one_row_at_the_end_of_the_stock_round(tmp_path):
    path = ftr_sold_out(tmp_path)
    assert company(path)["new"] == 0 and company(path)["price"] == 60
    play(path, "c: pass", "a: pass", "b: pass")
    assert company(path)["price"] == 63  # one row up (row 1 of the stand-in market)
    assert company(path, "SFR")["price"] == 60
    assert "FTR is sold out (all its shares held by players) and rises to $63." in events(path)



def test_a_sold_out_company_on_the_top_row_stays_there(tmp_path):
    path = ftr_sold_out(tmp_path)
    arrange(path, lambda state: state["companies"]["FTR"].update(token=[0, 6]))  # arranged: FTR on the top row at $66
    play(path, "c: pass", "a: pass", "b: pass")
    assert company(path)["price"] == 66
    assert "FTR is sold out but on the top row already." in events(path)

# ---- 3. only floated companies operate -------------------------------------------------------
def test_only_floated_companies_operate(tmp_path):
    path = new(tmp_path)
    play(path, "a: par FTR 60", "b: par SFR 60")
    for _ in range(2):
        play(path, "c: buy FTR company", "a: buy FTR company", "b: buy FTR company")
    assert "FTR floats (60% sold): it operates from the next operating round." in events(path)
    play(path, *ALL_PASS)
    assert company(path)["floated"] and not company(path, "SFR")["floated"]
    refused(path, "gm: operate SFR 0 withhold", "SFR has not floated: 2 of its 10 shares are sold; it operates once 6 are")
    refused(path, "gm: train SFR 2", "SFR has not floated")
    refused(path, "gm: done", "still to operate: FTR")
    play(path, "gm: train FTR 2", "gm: operate FTR 40 pay", "gm: done")
    assert view(path)["phase"] == "stock"
    assert "(not floated)" in ok("show", path)


# ---- 4. the Pool holds at most 50% -------------------------------------------------------------
def test_a_sale_that_would_put_more_than_half_in_the_pool_is_refused(tmp_path):
    path = new(tmp_path)
    play(path, "a: par FTR 60")
    for _ in range(6):
        play(path, "b: buy FTR company", "c: pass", "a: pass")
    play(path, "b: pass")
    play(path, "gm: train FTR 2", "gm: operate FTR 0 withhold", "gm: done")
    pass_until(path, "b")
    refused(path, "b: sell FTR 6", "the Pool holds 0 FTR shares and may hold at most 5 (50%): you may sell at most 5")
    play(path, "b: sell FTR 5")
    while (v := view(path))["sale"]:
        play(path, f"{v['awaiting'][0]}: offer no")
    assert company(path)["pool"] == 5
    play(path, "b: pass")
    pass_until(path, "a")
    refused(path, "a: sell FTR 1", "the Pool holds 5 FTR shares and may hold at most 5 (50%)")


def test_a_director_may_not_sell_down_into_a_full_pool_even_with_another_holder_of_two(tmp_path):
    """1830: no sale may bring the Pool above 50%. a directs FTR with 3 shares and b holds
    exactly 2, enough to take the director's certificate; but the Pool holds 5: a can sell
    nothing, so the directorship stays (the certificate never goes to the Pool)."""
    path = new(tmp_path, "-p", "d")
    play(path, "a: par FTR 60", "b: buy FTR company", "c: buy FTR company", "d: buy FTR company",
         "a: buy FTR company", "b: buy FTR company", "c: buy FTR company", "d: buy FTR company",
         "a: pass", "b: pass", "c: buy FTR company", "d: pass", "a: pass", "b: pass", "c: pass")
    assert company(path)["holders"] == {"a": 3, "b": 2, "c": 3, "d": 2} and company(path)["director"] == "a"
    play(path, "gm: train FTR 2", "gm: operate FTR 0 withhold", "gm: done")
    for seller, n in (("d", 2), ("c", 3)):  # nobody takes a share: the Pool absorbs them all
        pass_until(path, seller)
        play(path, f"{seller}: sell FTR {n}")
        while (v := view(path))["sale"]:
            play(path, f"{v['awaiting'][0]}: offer no")
        play(path, f"{seller}: pass")
    pass_until(path, "a")
    c = company(path)
    assert (c["pool"], c["holders"], c["director"]) == (5, {"a": 3, "b": 2}, "a")
    for n in (1, 3):
        refused(path, f"a: sell FTR {n}", "the Pool holds 5 FTR shares and may hold at most 5 (50%): you may sell at most 0")
    assert not [o for o in view(path, "a")["orders"] if o.startswith("sell")]
    play(path, "a: pass")
    refused(path, "b: sell FTR 1", "the Pool holds 5 FTR shares and may hold at most 5 (50%)")


# ---- 5. no sales in the first stock round ------------------------------------------------------
def test_no_sales_in_the_first_stock_round(tmp_path):
    path = new(tmp_path)
    play(path, "a: par FTR 60", "b: buy FTR company", "c: buy FTR company", "a: buy FTR company")
    refused(path, "b: sell FTR 1", "no shares are sold in the first stock round (a rule of 1830, which 1876v2 "
                                   "keeps where its rulebook is silent: docs/stock-round.md)")
    assert not [o for o in view(path, "b")["orders"] if o.startswith("sell")]
    refused(path, "b: sell SFR 1", "no shares are sold in the first stock round")


# ---- 6. operating rounds by phase, trains between companies, emergency money -------------------
def two_companies(tmp_path, version=None) -> Path:
    """FTR (director a) and SFR (director b) floated at par 100, $600 in each treasury (in a
    game of an older `version` of the rules, if given)."""
    path = new(tmp_path)
    if version:
        set_version(path, version)
    play(path, "a: par FTR 100", "b: par SFR 100", "c: buy FTR company", "a: buy FTR company", "b: buy SFR company",
         "c: buy SFR company", "a: buy FTR company", "b: buy FTR company", "c: buy SFR company", "a: buy SFR company",
         "b: pass", "c: pass", "a: pass")
    assert company(path)["floated"] and company(path, "SFR")["floated"]
    return path


def test_operating_rounds_follow_the_phase_each_with_its_own_results(tmp_path):
    path = two_companies(tmp_path, version=3)  # (version 3: trains between companies from phase 3)
    v = view(path)
    assert (v["train_phase"], v["or_in_set"], v["or_count"]) == ("2", 1, 1)
    refused(path, "gm: train SFR 2 from FTR 50", "companies sell each other trains from phase 3 (after the first 3 train)")
    play(path, *["gm: train FTR 2"] * 4, "gm: train SFR 2", "gm: train SFR 2")
    refused(path, "gm: train FTR 3", "FTR owns 4 trains, the limit is 4")
    play(path, "gm: train SFR 3")
    assert view(path)["train_phase"] == "3"
    play(path, "gm: operate FTR 80 withhold", "gm: operate SFR 70 pay", "gm: done")
    assert view(path)["phase"] == "stock"  # phase 2's set had one operating round
    assert "Phase 3. Stock round 2 of at most 6; 2 operating rounds follow it." in ok("show", path)
    pass_until(path)
    assert "Phase 3: 2 operating rounds follow stock round 2." in events(path)
    report = ok("show", path, "--gm")
    assert "Operating round 2: 1 of 2 after stock round 2 (of at most 6).\nPriority deal" in report
    play(path, "gm: operate FTR 80 pay")
    refused(path, "gm: operate FTR 80 pay", "FTR has operated in this round already")
    play(path, "gm: train SFR 2 from FTR 50")  # an agreed price, from phase 3
    refused(path, "gm: train SFR 2 from FTR 50", "SFR has bought a train from another company in this operating round already")
    refused(path, "gm: train FTR 3 from SFR 0", "a train between companies costs at least $1")
    refused(path, "gm: train FTR 5 from SFR 10", "SFR owns no 5 train")
    assert "SFR buys a 2 train from FTR for $50." in events(path)
    assert company(path)["trains"] == ["2", "2", "2"] and company(path, "SFR")["trains"] == ["2", "2", "3", "2"]
    play(path, "gm: operate SFR 90 withhold", "gm: done")
    v = view(path)
    assert (v["phase"], v["operating_round"], v["or_in_set"], v["operated"]) == ("operating", 3, 2, [])
    refused(path, "gm: done", "still to operate: FTR, SFR")
    play(path, "gm: operate FTR 60 withhold", "gm: operate SFR 90 pay", "gm: done")
    assert view(path)["phase"] == "stock" and view(path)["round"] == 3


def emergency_game(tmp_path, a_money, b_shares_of_sfr=2, version=None) -> Path:
    """FTR floated with a as director (2 shares, b 2 more); a also holds SFR shares. Then FTR
    has only $20 and no train, and a has `a_money`: the test arrangement of the emergency (in a
    game of an older `version` of the rules, if given)."""
    path = new(tmp_path)
    if version:
        set_version(path, version)
    play(path, "a: par FTR 60", "b: par SFR 60", "c: buy FTR company", "a: buy SFR company", "b: buy FTR company",
         "c: buy FTR company", "a: buy SFR company", "b: buy FTR company", "c: buy SFR company", "a: pass",
         "b: buy SFR company", "c: pass", "a: pass", "b: pass")
    assert company(path)["floated"] and company(path)["holders"] == {"a": 2, "b": 2, "c": 2}

    def poor(state):
        ftr, a = state["companies"]["FTR"], state["players"]["a"]
        state["bank"] += ftr["treasury"] - 20 + a["money"] - a_money
        ftr["treasury"], a["money"] = 20, a_money

    arrange(path, poor)
    return path


def test_the_director_pays_toward_a_train_the_company_must_buy(tmp_path):
    path = emergency_game(tmp_path, a_money=100)
    play(path, "gm: operate FTR 0 withhold", "gm: operate SFR 0 withhold")
    refused(path, "gm: done", "FTR owns no train and must buy one: train FTR 2 (its director pays what the treasury lacks)")
    play(path, "gm: train FTR 2")
    assert company(path)["trains"] == ["2"] and company(path)["treasury"] == 0
    assert view(path)["players"][0]["money"] == 40
    assert "a pays $60 toward FTR's 2 train." in events(path)


def test_the_director_sells_shares_for_the_train_under_the_1830_rules(tmp_path):
    path = emergency_game(tmp_path, a_money=10)
    play(path, "gm: train FTR 2")  # $80: FTR has $20, a has $10, so a must raise $50
    v = view(path)
    assert v["awaiting"] == ["a"] and v["emergency"]["due"] == 50
    assert "a must raise $50 for FTR's 2 train" in ok("show", path, "--as", "a")
    refused(path, "gm: operate FTR 0 withhold", "a is raising money for FTR's 2 train")
    refused(path, "a: sell FTR 1", "you would give up the directorship of FTR, whose train you pay for")
    refused(path, "a: sell SFR 2", "you need $50: 1 SFR share at $60 will do (sell no more than needed)")
    refused(path, "a: bankrupt", "you can still raise money: sell SFR 1")
    assert view(path)["orders"] == ["sell SFR 1"]
    play(path, "a: sell SFR 1")
    v = view(path)
    assert not v["emergency"] and company(path)["trains"] == ["2"]
    sfr = company(path, "SFR")
    assert sfr["pool"] == 1 and sfr["price"] == 57  # to the Pool at $60, the token one row down
    assert v["players"][0]["money"] == 10 + 60 - 60 and v["awaiting"] == ["gm"]
    game = gamefile.load(path)  # the file is consistent
    game.ruleset.check(game.state)



def test_an_emergency_sale_on_the_bottom_row_moves_the_token_one_column_left_in_version_3(tmp_path):
    path = emergency_game(tmp_path, a_money=10, version=3)  # (version 4: the token stays, test_stock_round_v4.py)
    arrange(path, lambda state: state["companies"]["SFR"].update(token=[6, 11]))  # arranged: SFR on the bottom row at $81
    play(path, "gm: train FTR 2", "a: sell SFR 1")  # a must raise $50: one SFR share to the Pool at $81
    sfr = company(path, "SFR")
    assert sfr["pool"] == 1 and sfr["price"] == 73  # the bottom row: one column left
    assert "a sells 1 SFR share to the Pool for $81; SFR falls to $73." in events(path)

@pytest.mark.parametrize("line", ["emergency sell every round", "emergency sell", "emergency sell SFR FTR"])
def test_a_standing_emergency_sell_raises_the_money_with_nobody_asked(tmp_path, line):
    """`emergency sell` (issue 11): given during the operating round (or for every round), the
    director's sale toward the train is made by it, the fewest shares, of a company other than
    the one buying the train (or of those listed); the game master carries on, nobody asked."""
    path = emergency_game(tmp_path, a_money=10)
    assert view(path)["phase"] == "operating"
    play(path, f"a: {line}")
    play(path, "gm: train FTR 2")
    v = view(path)
    assert not v["emergency"] and v["awaiting"] == ["gm"] and company(path, "SFR")["pool"] == 1
    assert "a sells 1 SFR share to the Pool for $60" in " ".join(events(path))
    assert "emergency sell" not in ok("show", path, "--as", "b") and "emergency sell" in ok("show", path, "--as", "a")


def test_a_standing_emergency_sell_of_listed_companies_that_cannot_sell_stops_and_asks(tmp_path):
    path = emergency_game(tmp_path, a_money=10)
    play(path, "a: emergency sell FTR every round")
    refused(path, "a: emergency sell Zebra", "unknown company 'zebra'")
    play(path, "gm: train FTR 2")
    v = view(path)
    assert v["awaiting"] == ["a"] and v["emergency"]["due"] == 50 and v.get("standing", []) == []
    assert v["standing_stopped"] == ['"emergency sell FTR every round" stopped: illegal order: you must raise $50 '
                                     "for FTR's train and can sell no shares of FTR"]
    assert "can sell no shares of FTR" in ok("show", path, "--as", "a")
    play(path, "a: sell SFR 1")


def test_a_standing_emergency_sell_never_goes_bankrupt(tmp_path):
    path = emergency_game(tmp_path, a_money=0)

    def no_sfr(state):
        sfr = state["companies"]["SFR"]["shares"]
        sfr["c"] += sfr["a"]
        sfr["a"] = 0

    arrange(path, no_sfr)
    play(path, "a: emergency sell every round", "gm: train FTR 2")
    v = view(path)
    assert v["awaiting"] == ["a"] and v["orders"] == ["bankrupt"] and "can sell no shares at all" in v["standing_stopped"][0]


def test_the_game_master_may_end_the_game_during_an_emergency(tmp_path):
    path = emergency_game(tmp_path, a_money=10)
    play(path, "gm: train FTR 2", "gm: end")
    v = view(path)
    assert v["game_over"] and not v["emergency"]
    gamefile.load(path).ruleset.check(gamefile.load(path).state)


def test_a_director_who_cannot_raise_the_money_goes_bankrupt_and_the_game_ends(tmp_path):
    path = emergency_game(tmp_path, a_money=0)

    def no_sfr(state):  # a's SFR shares go to c: a holds only FTR's director's certificate
        sfr = state["companies"]["SFR"]["shares"]
        sfr["c"] += sfr["a"]
        sfr["a"] = 0

    arrange(path, no_sfr)
    play(path, "gm: train FTR 2")
    assert view(path)["orders"] == ["bankrupt"]
    play(path, "a: bankrupt")
    assert view(path)["game_over"]
    assert "The game ends (a is bankrupt)" in " ".join(events(path))
    rows = json.loads(ok("standings", path, "--json"))
    assert rows[-1]["player"] == "a" and rows[-1]["rank"] == 3  # a bankrupt player ranks last


# ---- the bank breaks (1830: the game ends at the end of the set of operating rounds) -------
def bank_left(amount):
    """Test arrangement: the bank keeps `amount`; the rest goes to c (the total is kept)."""
    def change(state):
        state["players"]["c"]["money"] += state["bank"] - amount
        state["bank"] = amount
    return change


def test_a_bank_broken_in_an_operating_round_ends_the_game_after_the_last_of_its_set(tmp_path):
    path = two_companies(tmp_path, version=3)  # (version 3: it then pays only what it has)
    play(path, *["gm: train FTR 2"] * 4, "gm: train SFR 2", "gm: train SFR 2", "gm: train SFR 3",
         "gm: operate FTR 0 withhold", "gm: operate SFR 0 withhold", "gm: done")
    pass_until(path)
    assert (view(path)["or_in_set"], view(path)["or_count"]) == (1, 2)  # phase 3: two operating rounds
    arrange(path, bank_left(20))
    play(path, "gm: operate FTR 80 pay")  # $8 a share: a's 4 shares alone want $32
    assert "The bank is broken: the game ends after this set of operating rounds." in events(path)
    assert view(path)["bank"] == 0 and "Bank $0 (broken)" in ok("show", path)
    play(path, "gm: operate SFR 0 withhold", "gm: done")
    v = view(path)
    assert (v["phase"], v["or_in_set"], v["game_over"]) == ("operating", 2, False)  # the set is played out
    play(path, "gm: operate FTR 0 withhold", "gm: operate SFR 0 withhold", "gm: done")
    assert view(path)["game_over"] and view(path)["round"] == 2
    assert events(path)[-1].startswith("The game ends (the bank is broken); ")


def test_a_version_2_game_keeps_its_notice_of_a_broken_bank(tmp_path):
    """Version 3 only mended the notice's words (and 'follows' after one operating round); a
    game begun under version 2 keeps them, so that its log still replays to the saved events."""
    path = two_companies(tmp_path, version=2)
    assert "Phase 2: 1 operating round follow stock round 1." in events(path)
    play(path, "gm: train FTR 2", "gm: train SFR 2")
    arrange(path, bank_left(20))
    play(path, "gm: operate FTR 80 pay")
    assert "The bank is broken: the game ends at the end of this round." in events(path)


def test_judge_upgrade_moves_a_version_2_game_to_the_current_version_saying_what_changes(tmp_path):
    """A version 2 game still in its first stock round fits every later version; the golden
    version 2 game, whose game master bought trains before entering the revenue, fits versions
    3 to 6 but not version 7's company turns, and stays as it was."""
    path = new(tmp_path, version=2)
    play(path, "a: par FTR 60", "b: pass", "c: pass")
    out = ok("upgrade", path)
    assert flat(f"from stock-round version 2 to version {SR.version}") in flat(out)
    assert "  - a broken bank's notice says which set of operating rounds is the last" in out  # version 3
    assert "  - trains over a fallen limit go to the open market (discard CO TYPE)" in out  # version 4
    assert "no longer also who has the priority deal" in flat(out)  # version 5 (its line wrapped)
    assert "rusting removes every train of the old type" in flat(out)  # version 6
    assert "an operating round is a sequence of company turns" in flat(out)  # version 7
    ok("verify", path)
    game = gamefile.load(path)
    assert game.ruleset.version == SR.version
    bots.play_out(game)
    assert game.is_over() and game.differences(game.replay()) == []
    golden = tmp_path / "v2.toml"
    shutil.copy(Path(__file__).parents[2] / "golden" / "files" / "2026-11-22-evening" / "stock-round.toml", golden)
    result = judge("upgrade", golden)
    assert result.exit_code == 3 and "runs before it buys" in flat(result.output)
    assert gamefile.load(golden).ruleset.version == 2


def test_a_bank_broken_in_a_stock_round_ends_the_game_after_the_next_set(tmp_path):
    path = two_companies(tmp_path, version=3)  # (version 3: it then pays only what it has)
    assert "Phase 2: 1 operating round follows stock round 1." in events(path)
    play(path, "gm: train FTR 2", "gm: train SFR 2", "gm: operate FTR 0 withhold", "gm: operate SFR 0 withhold",
         "gm: done")
    arrange(path, bank_left(10))
    pass_until(path, "b")
    play(path, "b: sell FTR 1", "c: offer no", "a: offer no", "a: offer no")  # c, a, then FTR itself (director a)
    assert company(path)["pool"] == 1 and view(path)["bank"] == 0
    assert "The bank is broken: the game ends after the next set of operating rounds." in events(path)
    play(path, "b: pass")
    pass_until(path)
    v = view(path)
    assert (v["phase"], v["game_over"]) == ("operating", False)  # the stock round's set still follows
    play(path, "gm: operate FTR 0 withhold", "gm: operate SFR 0 withhold", "gm: done")
    assert view(path)["game_over"] and view(path)["round"] == 2
    assert events(path)[-1].startswith("The game ends (the bank is broken); ")


# ---- 7. the report ---------------------------------------------------------------------------
def test_the_report_shows_pool_prices_net_worth_passes_and_plain_refusals(tmp_path):
    path = issue_1(tmp_path)
    report = ok("show", path, "--as", "c")
    assert "Operating round 1: 1 of 1 after stock round 1.\nPriority deal: c." in report  # (no option rounds)
    assert "Pool at$" in report
    ftr = next(line for line in report.splitlines() if line.startswith("  FTR "))
    assert ftr.split()[6] == "66"  # the Pool's price: one column right of 60
    assert "Money Worth" in report
    a_row = next(line for line in report.splitlines() if line.startswith("  a  "))
    assert a_row.split()[1:3] == ["480", "600"]  # $480 and 2 FTR at $60
    play(path, "gm: done", "c: pass")
    report = ok("show", path)
    assert "\nPassed in a row: c (the round ends when all 3 pass in turn).\n" in report
    assert "Waiting for: a (" in report and "a's turn" not in report  # said once
    refused(path, "a: sell SFR 1", "you hold no SFR shares")


# ---- the whole game ----------------------------------------------------------------------------
def test_a_game_between_bots_runs_through_every_phase_until_the_bank_breaks():
    """Two sensible and two random bots, the game master's bot entering the results; version 6
    ends the game as 1830 does, here when the bank breaks, after a seventh set of operating
    rounds that the option `rounds` of older versions (6 by default) would not have played."""
    game = at_version(Game.new("stock-round", bots.NAMES[:4], seed=1), 6)
    kinds = {p: "sensible" if i % 2 == 0 else "random" for i, p in enumerate(game.players)}
    changes, sets = 0, {}
    while not game.is_over():
        directors = {co: c["director"] for co, c in game.state["companies"].items()}
        player, order = bots.play_one(game, kinds)
        state = game.state
        if order.startswith("sell"):
            changes += any(d and state["companies"][co]["director"] != d for co, d in directors.items())
        if state["phase"] == "operating":
            sets[state["round"]] = (SR.phase_train(state)["type"], state["or_count"])
        game.ruleset.check(state)
    state = game.state
    assert "The bank is broken" in " ".join(e["text"] for e in state["events"])
    assert state["events"][-1]["text"].startswith("The game ends (the bank is broken); ") and state["round"] == 7
    assert SR.phase_train(state)["type"] == "D"
    assert state["trains"]["scrapped"] == {"2": 6, "3": 3, "4": 3, "5": 0, "6": 0, "D": 0}  # rusted by 4, 6 and D
    assert sets[1] == ("2", 1) and {n for _, n in sets.values()} == {1, 2, 3}
    assert state["or_round"] == sum(n for _, n in sets.values()) > 6
    assert changes >= 1, "no director changed by a sale"
    assert game.differences(game.replay()) == []


# ---- 10. version 1 games keep their rules ------------------------------------------------------
def test_a_version_1_game_keeps_its_rules_and_upgrade_refuses_naming_the_order(tmp_path):
    path = tmp_path / "old.toml"
    shutil.copy(OLD, path)
    game = gamefile.load(path)
    assert game.ruleset.version == 1 and "floated" not in game.state["companies"]["FTR"]
    ok("verify", path)
    result = judge("upgrade", path)  # version 1 let an unfloated company operate: the log no longer fits
    assert result.exit_code == 3
    assert ("cannot upgrade to stock-round version 7: log entry 17 ('17 gm train FTR 2') does not replay: "
            'illegal order "train FTR 2": FTR has not floated') in flat(result.output)
    assert path.read_bytes() == OLD.read_bytes()
    ok("bot", path, "--as", game.awaiting()[0])  # and it plays on by version 1's rules
    assert gamefile.load(path).ruleset.version == 1
