"""Issue 27: a rumors standing order with a condition, considered at its owner's turn while the
condition is false, is not given, and its owner's next report says why ("not fired at move 3:
cost was $45, wanted <= 30"), nobody else's. The note lives as a stopped note does, until the
owner gives an order or a standing command, and goes when the order is carried out. Games begun
before (no `standing_unmet` in [meta]) make no such notes, so their logs replay as saved."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from judge.cli import app
from judge.engine import bots, standing
from judge.engine.game import Game
from judge.engine.report import render
from judge.engine.ruleset import GM
from judge.store import gamefile


def game(players=("a", "b", "c")) -> Game:
    """Every price $25, 5 shares on each board (a buy of 2 costs $45, a short of 1 brings $30);
    a first: action turns a b c c b a (with d: a b c d d c b a)."""
    return Game.new("rumors", list(players), seed=5, salt="0" * 32,
                    setup={"first_player": "a", "companies": ["Edison", "Nile", "Banana", "GameStart"][:len(players)]})


def notes(g: Game, player: str) -> list[str]:
    return g.view(player).get("standing_unmet", [])


def flat(text: str) -> str:
    return " ".join(text.split())  # (a long note is wrapped in the report)


def replays(g: Game) -> bool:
    again = gamefile.parse(gamefile.dumps(g).encode(), "g")
    return again.differences(again.replay()) == [] and again.to_dict() == g.to_dict()


def test_a_condition_false_at_the_owners_turn_is_told_to_the_owner_alone_with_the_reason():
    g = game()
    g.submit("b", ["turn 1 buy Edison 2 if cost <= 30", "turn 1 short Nile 1 if gain >= 40",
                   "turn 1 pass if Banana price > 30", "turn 1 pass"])
    g.submit("a", ["pass"])  # b's turn: no condition holds, the plain pass is given
    assert g.log[-1] == "2 b pass" and g.awaiting() == ["c"]
    assert notes(g, "b") == [
        '"turn 1 buy Edison 2 if cost <= 30" not fired at move 2: cost was $45, wanted <= 30',
        '"turn 1 short Nile 1 if gain >= 40" not fired at move 2: gain was $30, wanted >= 40',
        '"turn 1 pass if Banana price > 30" not fired at move 2: Banana\'s price was $25, wanted > 30']
    report = flat(render(g.view("b")))
    assert 'Note: "turn 1 buy Edison 2 if cost <= 30" not fired at move 2: cost was $45, wanted <= 30' in report
    for who in ["a", "c", None, GM]:  # nobody else: not the players, the public, the game master
        assert "not fired" not in render(g.view(who)) and "not fired" not in json.dumps(g.view(who))
    assert replays(g)


def test_the_note_stays_until_the_owner_acts():
    g = game()
    g.submit("b", ["buy Edison 2 if cost <= 30", "turn 1 pass"])
    g.submit("a", ["pass"])
    g.submit("c", ["pass"])  # others' doings leave it
    assert len(notes(g, "b")) == 1
    g.submit("b", ["standing"])  # listing them is no act (nothing is logged)
    assert len(notes(g, "b")) == 1 and replays(g)
    g.submit("c", ["pass"])  # b's second turn: considered again, the note made anew at move 5
    assert g.awaiting() == ["b"] and notes(g, "b") == [
        '"buy Edison 2 if cost <= 30" not fired at move 5: cost was $45, wanted <= 30']
    g.submit("b", ["pass"])  # b acts: the note has been read
    assert notes(g, "b") == [] and "Note:" not in render(g.view("b")) and replays(g)


def test_the_note_goes_when_the_order_is_carried_out():
    """c's turns are the 3rd and 6th; d shorts Edison between them, and c's order fires."""
    g = game(("a", "b", "c", "d"))
    g.submit("c", ["short Edison 1 if shares >= 6", "turn 1 pass"])
    g.submit("a", ["pass"])
    g.submit("b", ["pass"])
    assert notes(g, "c") == ['"short Edison 1 if shares >= 6" not fired at move 3: '
                             "Edison's shares on its board were 5, wanted >= 6"]
    g.submit("d", ["short Edison 1"])
    g.submit("d", ["pass"])  # c's second turn: Edison's board shows 6 shares now
    assert g.log[-1] == "6 c short Edison 1" and notes(g, "c") == [] and replays(g)


def test_a_condition_that_cannot_be_met_says_why():
    g = game()
    g.state["players"]["b"]["money"] = 500
    g.submit("b", ["turn 1 buy Nile 6 if cost <= 500", "turn 1 pass"])
    g.submit("a", ["pass"])
    assert notes(g, "b") == ['"turn 1 buy Nile 6 if cost <= 500" not fired at move 2: '
                             "Nile had only 5 shares on its board for a buy of 6"]


def test_an_order_for_another_turn_or_without_a_condition_leaves_no_note():
    g = game()
    g.submit("b", ["turn 2 buy Edison 2 if cost <= 30", "auto pass", "bag none"])
    g.submit("a", ["pass"])
    assert g.log[-1] == "2 b pass" and notes(g, "b") == []


def test_a_game_begun_before_makes_no_note_and_replays_as_saved(tmp_path):
    g = game()
    del g.meta[standing.UNMET_KEY]  # as a game file written before
    g.submit("b", ["turn 1 buy Edison 2 if cost <= 30", "turn 1 pass"])
    g.submit("a", ["pass"])
    assert g.log[-1] == "2 b pass" and notes(g, "b") == [] and standing.notes_of(g.state, "b") == []
    path = tmp_path / "old.toml"
    gamefile.create(g, path)
    assert standing.UNMET_KEY not in path.read_text()
    assert CliRunner().invoke(app, ["verify", str(path)]).exit_code == 0
    old = gamefile.load(path)
    bots.play_out(old)
    assert old.is_over() and replays(old)


def test_judge_show_gives_the_note_to_its_owner(tmp_path):
    path = str(tmp_path / "g.toml")
    run = CliRunner().invoke
    assert run(app, ["new", "rumors", path, "-p", "a", "-p", "b", "-p", "c", "--seed", "5"]).exit_code == 0
    first = gamefile.load(path).awaiting()[0]
    second = gamefile.load(path).state["turns"][1]
    assert run(app, ["order", path, "--as", second, "turn 1 short Nile 1 if gain >= 40", "turn 1 pass"]).exit_code == 0
    assert run(app, ["order", path, "--as", first, "pass"]).exit_code == 0
    shown = flat(run(app, ["show", path, "--as", second]).output)
    assert 'Note: "turn 1 short Nile 1 if gain >= 40" not fired at move 2: gain was $30, wanted >= 40' in shown
    assert "not fired" not in run(app, ["show", path, "--as", first]).output
    assert run(app, ["verify", path]).exit_code == 0
