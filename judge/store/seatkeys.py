"""Each seat's secret key for its private page (docs/public-record.md, "Private views"): 32
random bytes, kept in the game file's secret part, [meta.private], never in a view, a report
or a record while the game runs; revealed with the seed when it is over, so that `judge audit`
opens every private view that was published. A seat handed on gets a new key from the move
its new player takes it (the old player's link opens nothing newer).

    [meta.private.keys]
    alice = [{ key = "64 hex digits", since = 1 }]
    bob = [{ key = "...", since = 1 }, { key = "...", since = 12 }]   # handed on at move 12

No cryptography here (this is on an order's path): the keys are drawn with os.urandom; the
publishing step (judge/publish/private.py) derives from them and encrypts.
"""
from __future__ import annotations

import base64
import os
import re

KEY_BYTES = 32
_HEX = re.compile(r"^[0-9a-f]{64}$")


def _keys(game) -> dict:
    private = game.meta.get("private")
    keys = private.get("keys") if isinstance(private, dict) else None
    return keys if isinstance(keys, dict) else {}


def ensure(game) -> bool:
    """Give every seat without one a key (a new game, a game made before keys); whether any
    was drawn."""
    keys = _keys(game)
    missing = [seat for seat in game.players if not _valid(keys.get(seat))]
    if not missing:
        return False
    keys = {**keys, **{seat: [_fresh(1)] for seat in missing}}
    game.meta["private"] = {**(game.meta.get("private") or {}), "keys": keys}
    return True


def renew(game, seat: str, since: int) -> None:
    """A new key for `seat` from move `since` (its seat handed on): the old one opens no view
    published after it. Every earlier key is kept (and revealed at the end): a view sealed in
    this very move, before the seat was handed on, was sealed with it."""
    ensure(game)
    keys = _keys(game)
    game.meta["private"]["keys"] = {**keys, seat: [*keys[seat], _fresh(since)]}


def current(game, seat: str) -> bytes | None:
    """The seat's key now (None: the game has no keys yet)."""
    held = _keys(game).get(seat)
    return bytes.fromhex(held[-1]["key"]) if _valid(held) else None


def at_move(keys: dict, seat: str, move: int) -> list[bytes]:
    """The keys the seat may have had for a view published at `move` (from `keys` as `every`
    gives them), the newest first: a seat handed on during that move had two."""
    held = keys.get(seat) if isinstance(keys.get(seat), list) else []
    return [bytes.fromhex(k["key"]) for k in reversed(held) if isinstance(k, dict) and isinstance(k.get("since"), int)
            and k["since"] <= move and _HEX.match(str(k.get("key")))]


def every(game) -> dict:
    """{seat: [{key, since}]}: every key each seat has had (what a finished game reveals)."""
    return {seat: [dict(k) for k in held] for seat, held in _keys(game).items() if _valid(held)}


def fragment(key: bytes) -> str:
    """The key as the link's fragment carries it: `k=` and 43 characters of base64url."""
    return "k=" + base64.urlsafe_b64encode(key).decode().rstrip("=")


def _fresh(since: int) -> dict:
    return {"key": os.urandom(KEY_BYTES).hex(), "since": since}


def _valid(held) -> bool:
    return (isinstance(held, list) and bool(held)
            and all(isinstance(k, dict) and _HEX.match(str(k.get("key"))) and isinstance(k.get("since"), int)
                    for k in held))
