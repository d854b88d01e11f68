"""An end the players agree on (the mail lines `propose end` / `agree end`, logged as the game
master's order "end by agreement"): every ruleset sees the game as over, scores it as it
stands, and replay reproduces it exactly."""
import pytest

from judge.engine import bots
from judge.store import gamefile
from judge.engine.errors import GameOver
from judge.engine.game import AGREED_END, Game
from judge.record.history import all_events
from judge.mail.settings import catch_up
from judge.record.public import build
from judge.engine.report import render
from judge.engine.ruleset import GM
from registry import every_name


@pytest.mark.parametrize("name", every_name())
@pytest.mark.parametrize("moves", [0, 7, 40])
def test_an_agreed_end_is_over_in_every_ruleset_and_replays_exactly(name, moves, tmp_path):
    game = Game.new(name, ["alice", "bob", "carol"], seed=5)
    for _ in range(moves):
        if not game.is_over():
            bots.play_one(game)
    if game.is_over():
        with pytest.raises(GameOver):
            game.submit(GM, [AGREED_END])
        return
    game.submit(GM, [AGREED_END])
    assert game.is_over() and game.awaiting() == [] and game.status()["winners"]
    assert "agreed to end the game" in render(game.view("alice"))
    for who in ["alice", None, GM]:
        render(game.view(who))
    assert game.differences(game.replay()) == []
    path = tmp_path / "g.toml"
    gamefile.create(game, path)
    again = gamefile.load(path)
    assert again.is_over() and again.audit() == []
    assert build(again, "g")["complete"]
    with pytest.raises(GameOver):
        again.submit("alice", ["pass"])


@pytest.mark.parametrize("name", every_name())
def test_catching_up_shows_a_player_only_the_events_they_may_see(name):
    game = Game.new(name, ["alice", "bob", "carol"], seed=2)
    for _ in range(60):
        if not game.is_over():
            bots.play_one(game)
    text = catch_up(game, "bob", 1)
    assert text.startswith("Since your last report (move 1)")
    hidden = [e["text"] for e in all_events(game) if "to" in e and "bob" not in e["to"]]
    assert not any(h in text for h in hidden)
    shown = [e["text"] for e in all_events(game) if "to" not in e or "bob" in e["to"]]
    assert f"{len(shown)} events" in text.splitlines()[0]


@pytest.mark.parametrize("name", every_name())
def test_the_game_masters_end_by_agreement_is_public_in_every_ruleset(name):
    """Every player was told the game ended by agreement: the public log shows the entry as it
    is (a ruleset's declared order words do not name the game master's), where a rollback
    leaves it in a running game's record."""
    from judge.record.entries import public_entry, secret_entry

    game = Game.new(name, ["alice", "bob", "carol"], seed=5)
    entry = f"3 {GM} {AGREED_END}"
    assert public_entry(game, entry) == entry and not secret_entry(game, entry)
