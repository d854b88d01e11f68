"""Privacy, proved over the whole registry: at several points of a game, for each player, redraw
everything that player may not know (resample_hidden) and check their report and JSON view stay
byte-for-byte the same. A ruleset whose resample_hidden is missing fails here.

JUDGE_PRIVACY_GAMES (default 1) sets the games per ruleset, player count and option set."""
from __future__ import annotations

import json

import pytest

from judge import bots
from judge.game import Game
from judge.report import render
from judge.rng import Rng
from judge.ruleset import GM
from judge.rulesets.mogul import Mogul

from registry import config_id, configs, many, new_game, random_bots

GAMES = many("JUDGE_PRIVACY_GAMES", 1)
EVERY = 16  # orders between the positions checked
TRIES = 8  # resamples per player and position until one changes a hidden fact
VIEWER_KEYS = ("player", "orders", "order_forms", "example", "you")  # the parts of a view that name who reads it


def with_state(game: Game, state: dict) -> Game:
    return game.with_state(state)


def seen(game: Game, player) -> tuple[str, str]:
    view = game.view(player)
    return json.dumps(view, indent=2, ensure_ascii=False), render(view)


def hides_something(game: Game, player: str) -> bool:
    """While the game runs, the game master sees something `player` does not (viewer-specific
    keys aside). After the end what is left may be deducible (the last card of a pile)."""
    if game.is_over():
        return False

    def facts(who):
        return {k: v for k, v in game.view(who).items() if k not in VIEWER_KEYS}
    return facts(GM) != facts(player)


def privacy_failures(game: Game, seed: int) -> list[str]:
    """What goes wrong when each player's hidden facts are redrawn in the current position."""
    rs, out = game.ruleset, []
    for player in game.players:
        where = f"{rs.name} seed {seed} move {game.move} player {player}"
        before, original = seen(game, player), json.dumps(game.state, sort_keys=True)
        changed = False
        for k in range(TRIES):
            other = rs.resample_hidden(game.state, player, Rng(seed * 1000 + game.move * 10 + k))
            if json.dumps(game.state, sort_keys=True) != original:
                return [f"{where}: resample_hidden changed the state it was given"]
            rs.check(other)
            json_view, report = seen(with_state(game, other), player)
            if json_view != before[0]:
                out.append(f"{where}: the JSON view shows a hidden fact:\n{_first_difference(before[0], json_view)}")
            if report != before[1]:
                out.append(f"{where}: the report shows a hidden fact:\n{_first_difference(before[1], report)}")
            if out:
                return out
            if other != game.state:
                changed = True
                break
        if hides_something(game, player) and not changed:
            out.append(f"{where}: something is hidden from {player}, but {TRIES} resamples changed nothing")
    return out


def _first_difference(a: str, b: str) -> str:
    for x, y in zip(a.splitlines(), b.splitlines()):
        if x != y:
            return f"  before:    {x}\n  resampled: {y}"
    return "  (one is longer)"


def checked_positions(config, seed: int):
    """A random game, stopping at every EVERY-th order and at the end."""
    game = new_game(*config, seed)
    yield game
    while not game.is_over():
        bots.play_one(game, random_bots(game), salt="privacy")
        if len(game.log) % EVERY == 0 or game.is_over():
            yield game


@pytest.mark.parametrize("config", configs(), ids=config_id)
def test_what_a_player_may_not_know_never_reaches_their_report(config):
    for seed in range(GAMES):
        for game in checked_positions(config, seed):
            assert privacy_failures(game, seed) == []


class LeakyMogul(Mogul):
    """Mogul with a report that shows everyone's chips: the proof must catch it."""

    def view(self, state, player):
        return super().view(state, GM if player else None)


def test_the_proof_catches_a_report_that_shows_another_players_chips():
    game = new_game("mogul", 4, {}, 5)
    game.ruleset = LeakyMogul()
    bots.play_one(game, random_bots(game))
    failures = privacy_failures(game, 5)
    assert failures and "hidden fact" in failures[0]


def test_the_proof_catches_a_resample_that_changes_nothing():
    class Lazy(Mogul):
        def resample_hidden(self, state, player, rng):
            return json.loads(json.dumps(state))

    game = new_game("mogul", 4, {}, 5)
    game.ruleset = Lazy()
    failures = privacy_failures(game, 5)
    assert failures and "resamples changed nothing" in failures[0]
