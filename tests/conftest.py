import pytest

from judge.game import Game


@pytest.fixture
def new_game():
    def make(ruleset="mogul", n=3, seed=1, **kw):
        names = ["alice", "bob", "carol", "dave", "erin", "frank"][:n]
        return Game.new(ruleset, names, seed=seed, **kw)

    return make
