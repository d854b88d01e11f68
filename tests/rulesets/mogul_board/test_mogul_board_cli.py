"""mogul-board through the command line: `sell none` (RULINGS §2: all your box-colour shares or
none), the default order of a second who misses the deadline, the components checked when a
game is created, and version-1 games that keep their own rules."""
import copy
import shutil
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from judge.engine import bots
from judge.mail.mailgame import parse_time
from judge.store import gamefile
from judge.cli import app
from judge.engine.ruleset import get
from judge.rulesets.mogul.rules import CRASH, company

from mailkit import T0, address, flat, make_site

RS = get("mogul-board")
OLD = Path(__file__).parents[2] / "golden" / "files" / "2026-11-22" / "mogul-board.toml"


def judge(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def ok(*args):
    result = judge(*args)
    assert result.exit_code == 0, result.output
    return result.output


def deck_with(top):
    placard = [c for seat in RS.data["placard"]["3"] for c in seat]
    rest = Counter(RS.all_cards()) - Counter(placard) - Counter(top) - Counter([CRASH])
    return [*top, CRASH, *sorted(rest.elements())]


def new_game(tmp_path, extra=()):
    """alice starts; the first card revealed is yellow/blue (box blue)."""
    setup = tmp_path / "s.toml"
    setup.write_text('start_player = "alice"\ndeck = [' + ", ".join(f'"{c}"' for c in deck_with(["yellow/blue"])) + "]\n")
    path = tmp_path / "g.toml"
    ok("new", "mogul-board", path, "-p", "alice", "-p", "bob", "-p", "carol", "--seed", 1, "--setup", setup, *extra)
    return path


def alice_wins(path):
    ok("order", path, "--as", "alice", "bid")
    ok("order", path, "--as", "bob", "pass")
    ok("order", path, "--as", "carol", "pass")


def blue(game, player):
    return sum(company(c) == "blue" for c in game.state["players"][player]["shares"])


def test_sell_none_is_listed_and_keeps_the_second_s_shares(tmp_path):
    path = new_game(tmp_path)
    alice_wins(path)
    ok("order", path, "--as", "alice", "take")
    game = gamefile.load(path)
    second = game.awaiting()[0]
    held = blue(game, second)
    assert held, "the second holds blue shares (the placard's portfolio)"
    assert "sell none" in ok("show", path, "--as", second)
    # the prompt is public: everyone reads it, so it names the player
    assert f"sell {second}'s {held} blue share{'s' if held != 1 else ''} (all or none)" in game.ruleset.prompt(game.state, second)
    out = ok("order", path, "--as", second, "SELL None")
    assert "ok: sell none" in out
    game = gamefile.load(path)
    assert blue(game, second) == held and game.state["players"][second]["score"] == 0
    assert f"{second} sells nothing." in [e["text"] for e in game.state["events"]]


def test_the_winner_may_sell_none_and_the_second_takes_the_card(tmp_path):
    path = new_game(tmp_path)
    alice_wins(path)
    held = blue(gamefile.load(path), "alice")
    ok("order", path, "--as", "alice", "sell none")
    game = gamefile.load(path)
    assert blue(game, "alice") == held and game.state["players"]["alice"]["score"] == 0
    assert "yellow/blue" in game.state["players"][game.state["second"]]["shares"] or game.is_over()


def test_sell_anything_else_is_refused_naming_both_forms(tmp_path):
    path = new_game(tmp_path)
    alice_wins(path)
    before = path.read_bytes()
    result = judge("order", path, "--as", "alice", "sell 2")
    assert result.exit_code == 4
    assert 'syntax error "sell 2": write sell (all your shares of the box colour) or sell none' in flat(result.output)
    assert path.read_bytes() == before


def test_a_second_who_misses_the_deadline_sells_none(tmp_path):
    site = make_site(tmp_path)
    setup = tmp_path / "s.toml"
    setup.write_text('start_player = "alice"\ndeck = [' + ", ".join(f'"{c}"' for c in deck_with(["yellow/blue"])) + "]\n")
    path = site.game_path()
    ok("new", "mogul-board", path, *[x for p in ("alice", "bob", "carol") for x in ("-p", f"{p}={address(p)}")],
       "--seed", 1, "--setup", setup, "--deadline", 48, "--remind", 0, "--config", tmp_path / "judge.toml",
       "--now", T0.isoformat())
    alice_wins(path)
    ok("order", path, "--as", "alice", "take")
    game = gamefile.load(path)
    second = game.awaiting()[0]
    held = blue(game, second)
    deadline = parse_time(game.meta["mail"]["deadline"])  # (started anew by the shell's orders, at their time)
    out = ok("tick", "--config", tmp_path / "judge.toml", "--now", (deadline + timedelta(hours=1)).isoformat())
    assert "the judge ordered 'sell none' for them (the default order)" in out
    game = gamefile.load(path)
    orders = [e for e in game.log if " judge: " not in e]  # (the judge's own entries: the missed deadline, the end)
    assert orders[-1].endswith(f"{second} sell none") and blue(game, second) == held


# ---- the components, checked when a game is created -------------------------------------------
def edited(monkeypatch, change):
    data = copy.deepcopy(RS.data)
    change(data)
    monkeypatch.setitem(RS.__dict__, "data", data)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["companies"]["blue"].update(shares=9),
     "games/mogul-board.toml: [companies.blue] shares = 9, but [deck.blue] has 8 blue cards"),
    (lambda d: d["placard"].update({"3": [["blue/red", "green/yellow"], ["yellow/green", "red/brown"], ["blue/blue", "brown/red"]]}),
     "games/mogul-board.toml: [placard] 3: the card blue/blue is not in the deck"),
    (lambda d: d["placard"].update({"4": [["blue/green", "red/yellow"]]}),
     "games/mogul-board.toml: [placard] 4 must list 4 start positions"),
    (lambda d: d["networks"]["red"].append("XYZ"),
     "games/mogul-board.toml: [networks] red: XYZ is not a station space of [stations]"),
    (lambda d: d["networks"]["red"].append("LOS"),
     "games/mogul-board.toml: [stations] LOS lies on 3 networks; a space lies on one or two"),
    (lambda d: d["stations"].update(ZZZ="Nowhere"),
     "games/mogul-board.toml: [stations] ZZZ lies on 0 networks"),
    (lambda d: d["deck"]["red"].update(red=1),
     "games/mogul-board.toml: [deck.red] red = 1: a box colour is another company's colour"),
])
def test_bad_component_data_is_refused_when_a_game_is_created(tmp_path, monkeypatch, change, message):
    edited(monkeypatch, change)
    result = judge("new", "mogul-board", tmp_path / "g.toml", "-p", "a", "-p", "b", "-p", "c", "--seed", 1)
    assert result.exit_code == 3 and message in flat(result.output), result.output
    assert not (tmp_path / "g.toml").exists()


def test_the_shipped_components_pass_the_check():
    RS.check_data()


# ---- version 1 games keep their rules ---------------------------------------------------------
def test_a_version_1_game_keeps_its_rules_and_judge_upgrade_moves_it_to_version_2(tmp_path):
    path = tmp_path / "old.toml"
    shutil.copy(OLD, path)
    game = gamefile.load(path)
    assert game.ruleset.version == 1
    while game.state["phase"] != "second" and not game.is_over():  # play the old game on until a second sells
        bots.play_one(game)
    assert not game.is_over(), "the old game (bots are deterministic) reaches a second's choice"
    second = game.awaiting()[0]
    assert "sell none" not in game.ruleset.legal_orders(game.state, second)
    assert game.ruleset.default_order(game.state, second) == "sell"
    gamefile.save(game, path)
    result = judge("order", path, "--as", second, "sell none")
    assert result.exit_code == 4 and "write just sell" in result.output
    assert "'sell none' does not exist in version 1 of the rules" in flat(result.output)
    out = ok("upgrade", path)
    assert flat("from mogul-board version 1 to version 2") in flat(out)
    again = gamefile.load(path)
    assert again.ruleset.version == 2 and "sell none" in again.ruleset.legal_orders(again.state, second)


def test_a_version_1_game_stops_a_standing_sell_none_saying_version_1_has_none(tmp_path):
    from judge.engine import standing

    path = tmp_path / "old.toml"
    shutil.copy(OLD, path)
    game = gamefile.load(path)

    def holds_box_shares():
        p, box = game.awaiting()[0], game.ruleset.sell_colour(game.state)
        return game.ruleset.count(game.state["players"][p], box) > 0

    while not (game.state["phase"] in ("winner", "second") and holds_box_shares()):
        assert not game.is_over(), "the old game (bots are deterministic) reaches a choice with shares to sell"
        bots.play_one(game)
    player, role = game.awaiting()[0], game.state["phase"]
    game.submit(player, [f"if {role} sell none"])
    assert game.awaiting() == [player]  # not carried out: asked as usual
    (note,) = [n["text"] for n in standing.notes_of(game.state, player)]
    assert note.startswith(f'"if {role} sell none" stopped: ')
    assert "'sell none' does not exist in version 1 of the rules" in note and "write just sell" not in note
