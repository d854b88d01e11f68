"""Fair play for turn notices (judge/mail/notices.py, docs/notices.md): the whole text of every
notice a change gives (a player's "your turn", their end of the game, the public channel's
message) and of the reminder that may follow depends only on its recipient's view. At positions of a random game of every
ruleset, the next order is given in the real game and in worlds where everything the
recipient may not know is redrawn (registry.redrawn: the other players' secrets, the undealt
cards, the generator's future draws, others' standing orders); wherever the recipient's view
after the change is the same as in the real game (registry.sees: every event they were told,
the standings, the summary), their notices must be the same byte for byte. (A world where
the view after differs, as when another player's redrawn standing order fired, tells the
recipient that openly; one where the order is refused proves nothing. Both are passed over.)"""
from __future__ import annotations

import pytest

from judge.engine import bots
from judge.engine.errors import JudgeError
from judge.mail import notices

from registry import config_id, configs, positions, redrawn, sees

EVERY = 29  # orders between the positions checked (and every edge: a round or phase ends)
TRIES = 1  # a redrawn world per recipient and position (each position a world of its own)


def one_table_a_ruleset() -> list:
    seen, out = set(), []
    for config in configs():
        if config[0] not in seen:
            seen.add(config[0])
            out.append(config)
    return out


def told(game, player: str, order: str, who) -> tuple[str, list[dict]]:
    """What `who` (a player, or notices.PUBLIC) sees after `player` gives `order`, and the
    change's notices to them."""
    before, start = game.awaiting(), game.move
    after = game.copy()
    after.submit(player, [order])
    wants = {who}
    said = notices.for_change("g1", after, start, before, wants, lambda p: "Deadline: soon.", "https://x/{game}")
    if who in after.awaiting() and not after.is_over():  # and the reminder judge tick would give them
        said.append(notices.reminder("g1", who, after.view(who), "Deadline: soon."))
    return sees(after, who or None), [n for n in said if n["to"] == who]


def unfair_notices(game, seed: int) -> list[str]:
    player = game.awaiting()[0]
    order = bots.choose(game, player, "random", salt="notice")
    for who in [*game.players, notices.PUBLIC]:
        real = told(game, player, order, who)
        for k in range(TRIES):
            other = redrawn(game, who or None, seed * 1000 + game.move * 10 + k)
            try:
                theirs = told(other, player, order, who)
            except JudgeError:
                continue
            if theirs[0] == real[0] and theirs[1] != real[1]:
                return [f"{game.ruleset.name} move {game.move}: {player} gives '{order}'; the notice to "
                        f"{who or 'the public channel'} was\n  {real[1]}\nbut with other hidden facts (the same view)\n  {theirs[1]}"]
    return []


# Cost: one random game a ruleset (its first table), each recipient's notices in three worlds at
# every edge and every 29th order.
@pytest.mark.parametrize("config", one_table_a_ruleset(), ids=config_id)
def test_no_notice_depends_on_what_its_recipient_may_not_know(config):
    for game, _, _ in positions(config, 0, EVERY):
        assert unfair_notices(game, 0) == []


def test_the_proof_catches_a_notice_that_tells_a_hidden_fact(monkeypatch):
    real = notices.for_change

    def leaky(name, game, *args, **kwargs):
        out = real(name, game, *args, **kwargs)
        return [{**n, "body": n["body"] + repr(game.state)} for n in out]

    monkeypatch.setattr(notices, "for_change", leaky)
    config = next(c for c in one_table_a_ruleset() if c[0] == "mogul")
    assert any(unfair_notices(game, 0) for game, _, _ in positions(config, 0, EVERY))
