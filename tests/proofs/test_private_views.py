"""The private views keep what they hide (docs/public-record.md, "Private views"), over every
ruleset and player count: at positions of random games (standing orders given now and then),
the public files made from the game (its record, its page and the sealed views beside it) hold
no seat key and no line of a private report that the public report lacks; each seat's key opens
its own view and no other; every ciphertext of a game has one length; a standing order given,
which nobody else may know of, changes no public byte; and a world in which everything hidden
from the public is redrawn gives sealed files that differ only in their random bytes."""
from __future__ import annotations

import base64
import json
from datetime import datetime, timezone

import pytest

from judge.engine import bots
from judge.engine.errors import JudgeError
from judge.publish import private
from judge.record import public
from judge.site import pages
from judge.store import seatkeys
from registry import config_id, configs, now_and_then_a_standing_order, redrawn

T = datetime(2026, 5, 1, tzinfo=timezone.utc)
SEEDS = (3,)


def smallest():
    """Each ruleset at its smallest and largest table, default options."""
    chosen = {}
    for name, n, options in configs():
        if not options:
            chosen.setdefault(name, []).append((name, n, options))
    return [c for cs in chosen.values() for c in {cs[0][1]: cs[0], cs[-1][1]: cs[-1]}.values()]


def played(config, seed: int, stops=(6, 25)):
    """Positions of a random game of `config` after each number of orders in `stops`, a
    standing order given now and then (cheap: the proofs of the whole games are the privacy
    proof's, tests/proofs/test_privacy.py)."""
    from judge.engine.rng import Rng
    from registry import new_game

    game, rng, out = new_game(*config, seed), Rng(seed), []
    for n in range(max(stops) + 1):
        if game.is_over():
            break
        if n in stops:
            out.append(game.copy())
        if now_and_then_a_standing_order(game, rng, 4) and game.is_over():
            break
        seat = rng.choice(game.awaiting())
        game.submit(seat, [bots.choose(game, seat, "random", salt="private")])
    return out


def secret_lines(game, seat: str) -> set[str]:
    """The lines of `seat`'s report that the public report lacks (their hand, their chips)."""
    from judge.engine.report import render

    mine, shown = render(game.view(seat)).splitlines(), set(render(game.view(None)).splitlines())
    return {line.strip() for line in mine if line.strip() and line not in shown and len(line.strip()) > 12
            and seat not in line}  # (a line naming the seat may be a public one worded for them)


def opened(game, sealed) -> dict:
    return {seat: [b["player"] for b in sealed["views"]
                   if private.open_one(seatkeys.current(game, seat), sealed, b) is not None]
            for seat in game.players}


@pytest.mark.parametrize("config", smallest(), ids=config_id)
def test_a_public_file_holds_no_key_or_private_line_and_each_key_opens_its_own_view_alone(config):
    lengths, secrets = set(), 0
    for game in played(config, SEEDS[0]):
        seatkeys.ensure(game)
        sealed = private.seal(game, "g")
        record = public.build(game, "g", rows=[], sealed=private.row(sealed))  # (the rows: the privacy proof's)
        files = pages.private_file(sealed) + public.dumps(record) + pages.game_page(record, None, (), sealed)
        for seat in game.players:
            key = seatkeys.current(game, seat)
            assert key.hex() not in files and base64.urlsafe_b64encode(key).decode().rstrip("=") not in files
            if not game.is_over():
                secrets += len(secret_lines(game, seat))
                leaked = [line for line in secret_lines(game, seat) if line in files]
                assert not leaked, f"{seat}'s private line {leaked[0]!r} is in a public file"
        assert opened(game, sealed) == {seat: [seat] for seat in game.players}
        lengths |= {len(base64.b64decode(b["ct"])) for b in sealed["views"]}
        assert ("keys" in record.get("private", {})) == game.is_over()
    assert lengths == {private.SIZE + 16}  # (the tag's 16 bytes)
    assert secrets or config[0] == "stock-round", "no private line was looked for"  # (the stock round hides nothing)


@pytest.mark.parametrize("config", smallest(), ids=config_id)
def test_a_standing_order_or_a_redrawn_secret_changes_no_public_byte_but_the_random_ones(config):
    game = played(config, SEEDS[0], stops=(12,))[0]
    seatkeys.ensure(game)
    sealed = private.seal(game, "g")
    text = pages.private_file(sealed)
    for seat in game.players:
        for example in game.ruleset.standing_examples(game.state, seat)[:1]:
            try:
                game.submit(seat, [example])
            except JudgeError:
                continue
            if game.move == sealed["move"] and not game.is_over():
                assert pages.private_file(private.seal(game, "g", text)) == text
    other = redrawn(game, None, 5)
    other.meta = json.loads(json.dumps(game.meta))
    again = private.seal(other, "g")

    def shape(s):
        return {**s, "views": [{"player": b["player"], "bytes": len(b["ct"])} for b in s["views"]]}
    assert shape(again) == shape(private.seal(game, "g"))
