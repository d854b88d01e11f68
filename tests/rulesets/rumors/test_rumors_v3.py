"""Rumors version 3 (issue 23, items 3-5): a short is legal on public facts alone, the roll
phase's orders are answered truthfully, and a game ended by agreement cashes out. Games of
versions 1 and 2 keep their rules (and `judge upgrade` moves one to version 3)."""
import json

import pytest

from judge.engine import bots
from judge.engine.errors import IllegalOrder
from judge.engine.game import AGREED_END, Game
from judge.engine.report import render
from judge.engine.ruleset import GM, get

NAMES = ["alice", "bob", "carol"]
COMPANIES = ["Edison", "Nile", "Gazillioon"]


def new(seed=1, version=None) -> Game:
    g = Game.new("rumors", NAMES, seed=seed, setup={"companies": COMPANIES, "first_player": "alice"},
                 salt="0" * 32)
    if version is not None:
        g.ruleset = g.ruleset.at_version(version)
        g = g.replay()
    return g


def nile_nearly_out(g: Game, bob_board: int, bob_discards: int) -> None:
    """Nile: 8 of 10 spaces filled (shorts of 1 or 2 fit), one token in the supply, alice and
    carol hold nothing; bob holds the other 21 tokens, `bob_board` of them on his multiplier
    board (a holding of that many bits) and `bob_discards` in his discard."""
    assert bob_board + bob_discards == 30 - 8 - 1
    s, rs = g.state, g.ruleset
    for p in NAMES:
        s["players"][p]["holdings"]["Nile"] = 0
        s["players"][p]["uncancelled"]["Nile"] = 0
        s["players"][p]["discards"]["Nile"] = 0
    s["players"]["bob"]["holdings"]["Nile"] = (1 << bob_board) - 1
    s["players"]["bob"]["discards"]["Nile"] = bob_discards
    s["companies"]["Nile"].update(filled=8, supply=1)
    rs.check(s)


def shorts(g: Game, player="alice") -> list[str]:
    return [o for o in g.ruleset.legal_orders(g.state, player) if o.startswith("short Nile")]


# ---- item 3: a refused short told a secret --------------------------------------------------
def test_version_2_refused_a_short_on_the_discards_nobody_may_count():
    """The secret that leaked: with the same public table, alice's order list differed by how
    bob's tokens lay behind his screen."""
    few, many = new(version=2), new(version=2)
    nile_nearly_out(few, 21, 0)
    nile_nearly_out(many, 18, 3)
    assert few.view(None) == many.view(None) and few.view("alice") != many.view("alice")
    assert shorts(few) == [] and shorts(many) == ["short Nile 1", "short Nile 2"]


def test_version_2s_report_shows_the_shorts_nobody_may_count_only_where_the_orders_did():
    """The costs in the report (issue 27) add nothing to that leak: in a version 2 game the
    players not awaited see the shorts the board's spaces allow, whatever the discards."""
    few, many = new(version=2), new(version=2)
    nile_nearly_out(few, 21, 0)
    nile_nearly_out(many, 18, 3)
    assert few.view("carol")["you"]["trade"]["Nile"]["short"] == [[1, 15], [2, 30]]
    assert few.view("carol") == many.view("carol") and render(few.view("carol")) == render(many.view("carol"))
    assert few.view("alice")["you"]["trade"]["Nile"]["short"] == []  # awaited: her orders say so already


def test_a_short_is_legal_whenever_the_board_has_the_spaces():
    few, many = new(), new()
    nile_nearly_out(few, 21, 0)
    nile_nearly_out(many, 18, 3)
    for g in (few, many):
        assert shorts(g) == ["short Nile 1", "short Nile 2"]
        short_line = next(line for line in render(g.view("alice")).splitlines() if line.startswith("  short COMPANY N"))
        assert short_line.endswith("Nile 1-2")  # the report's grammar line for shorts
    assert json.dumps(few.view("alice")) == json.dumps(many.view("alice"))
    assert few.ruleset.prompt(few.state, "alice") == many.ruleset.prompt(many.state, "alice")


def test_the_discards_return_first_and_then_the_short_is_made():
    g = new()
    nile_nearly_out(g, 18, 3)
    g.submit("alice", "short Nile 2")  # needs 2 + 1 tokens; the supply holds 1, bob's discard 3
    nile = g.state["companies"]["Nile"]
    assert nile["filled"] == 10 and nile["supply"] == 1 + 3 - 3
    assert g.state["players"]["bob"]["discards"]["Nile"] == 0
    assert g.state["players"]["alice"]["holdings"]["Nile"] == -2 and g.awaiting() == ["bob"]
    assert any("supply ran short" in e["text"] for e in g.view("carol")["events"])
    g.ruleset.check(g.state)


def test_a_short_the_returned_discards_cannot_cover_is_not_made_and_the_same_player_orders_again():
    g = new()
    nile_nearly_out(g, 20, 1)
    money, move = g.state["players"]["alice"]["money"], g.move
    g.submit("alice", "short Nile 2")  # the supply 1 + 1 returned: a short of 2 needs 3
    nile = g.state["companies"]["Nile"]
    assert nile["filled"] == 8 and nile["supply"] == 2
    assert g.state["players"]["alice"]["money"] == money and g.state["players"]["alice"]["holdings"]["Nile"] == 0
    assert g.awaiting() == ["alice"] and g.move == move + 1 and g.state["turns"][0] == "alice"
    events = [e["text"] for e in g.view("carol")["events"]]
    assert any("supply ran short" in t for t in events) and any("nothing is shorted" in t for t in events)
    # every discard is back in the supplies, as everyone saw: a short of 2 is refused now, on public facts
    assert shorts(g) == ["short Nile 1"]
    with pytest.raises(IllegalOrder, match="every discard is back in the supplies"):
        g.submit("alice", "short Nile 2")
    g.submit("alice", "short Nile 1")
    assert nile["filled"] == 9 and nile["supply"] == 0 and g.awaiting() == ["bob"]
    g.ruleset.check(g.state)


def test_the_batch_is_cut_after_a_short_that_returned_the_discards():
    g = new()
    nile_nearly_out(g, 20, 1)
    accepted = g.submit("alice", ["short Nile 2", "short Nile 1"])
    assert accepted.unjudged == ["short Nile 1"] and "discard" in accepted.revealed
    assert g.awaiting() == ["alice"]


def test_a_standing_short_that_cannot_be_made_stops_instead_of_looping():
    g = new()
    nile_nearly_out(g, 20, 1)
    g.submit("bob", "turn 1 short Nile 2")  # bob's turn comes after alice's
    g.submit("alice", "pass")
    assert g.awaiting() == ["bob"] and g.state["companies"]["Nile"]["filled"] == 8
    notes = g.view("bob").get("standing_stopped", [])
    assert notes and "every discard is back in the supplies" in notes[0]


def test_the_privacy_proof_catches_version_2s_refusal_and_passes_version_3():
    """The proof redraws how the others' tokens lie behind their screens (multiplier boards and
    discards, the totals included): version 2's order list changes with it, version 3's not."""
    from proofs.test_privacy import privacy_failures

    caught = {}
    for version in (2, 3):
        failures = []
        for seed in range(12):
            g = new(version=version if version == 2 else None)
            nile_nearly_out(g, 20, 1)  # version 2: a short of 1 may be ordered, of 2 not
            failures += privacy_failures(g, seed)
        caught[version] = failures
    assert caught[2] and "hidden fact" in caught[2][0]
    assert caught[3] == []


# ---- item 4: the roll phase answers truthfully ---------------------------------------------------
def roll_phase(seed=5) -> Game:
    g = Game.new("rumors", ["a", "b", "c"], seed=seed)
    for p in "b c a a c b".split():
        g.submit(p, ["pass"])
    assert g.state["phase"] == "roll"
    return g


def test_bag_none_as_the_report_offers_it_is_accepted():
    g = roll_phase()
    screen = g.state["players"]["a"]["screen"]
    assert len(screen) <= 5 and "none or any of" in render(g.view("a"))
    accepted = g.submit("a", ["bag none"])
    assert [str(o) for o in accepted] == ["bag"] and g.state["bag_orders"]["a"] == []


def test_bag_extra_typed_in_the_roll_phase_bags_the_dice_over_the_limit():
    g = roll_phase()
    g.submit("a", ["bag extra"])
    assert "a" in g.state["bag_orders"] and len(g.state["players"]["a"]["screen"]) - len(g.state["bag_orders"]["a"]) <= 5


def test_a_second_bag_order_is_refused_with_the_reason_not_answered_ok():
    g = roll_phase()
    g.submit("a", ["bag"])
    with pytest.raises(IllegalOrder, match="roll-phase order .*already.* final"):
        g.submit("a", ["bag Nile"])
    assert "standing" not in g.state and g.state["bag_orders"]["a"] == []


def test_a_second_bag_order_in_the_same_message_is_not_judged_and_not_kept():
    g = roll_phase()
    screen = g.state["players"]["a"]["screen"]
    accepted = g.submit("a", ["bag", f"bag {screen[0]}"])
    assert accepted.unjudged == [f"bag {screen[0]}"] and "standing" not in g.state
    assert g.state["bag_orders"]["a"] == []


def test_version_2_keeps_its_roll_phase_words():
    g = roll_phase()
    g.ruleset = g.ruleset.at_version(2)
    with pytest.raises(Exception, match="unknown company 'none'"):
        g.replay().submit("a", ["bag none"])


# ---- item 5: an agreed end cashes out ---------------------------------------------------------
def agreed(version=None) -> Game:
    g = new(seed=3, version=version)
    for _ in range(30):
        bots.play_one(g)
    g.submit(GM, [AGREED_END])
    return g


def test_an_agreed_end_cashes_out_the_holdings_as_the_rulebook_end_does():
    g = agreed()
    s = g.state
    for row in g.ruleset.standings(s):
        pl = s["players"][row["player"]]
        worth = sum(h * s["companies"][c]["price"] for c, h in pl["holdings"].items())
        assert row["cash"] == pl["money"] and row["cashout"] == worth and row["score"] == pl["money"] + worth
    best = max(row["score"] for row in g.ruleset.standings(s))
    assert {r["player"] for r in g.ruleset.standings(s) if r["score"] == best} == set(g.status()["winners"])


def test_version_2_scores_an_agreed_end_as_it_did():
    g = agreed(version=2)
    for row in g.ruleset.standings(g.state):
        assert row["score"] == g.state["players"][row["player"]]["money"]


# ---- versions --------------------------------------------------------------------------------
def test_judge_upgrade_moves_a_version_2_game_to_the_current_version(tmp_path):
    from pathlib import Path
    import shutil

    from typer.testing import CliRunner

    from judge.cli import app
    from judge.store import gamefile

    work = tmp_path / "g.toml"
    shutil.copy(Path(__file__).parents[2] / "golden" / "files" / "2026-11-24" / "rumors.toml", work)
    assert gamefile.load(work).ruleset.version == 2
    result = CliRunner().invoke(app, ["upgrade", str(work)])
    assert result.exit_code == 0, result.output
    game = gamefile.load(work)
    assert game.ruleset is get("rumors") and game.ruleset.version == get("rumors").version
    bots.play_out(game)
    assert game.is_over() and game.differences(game.replay()) == []
