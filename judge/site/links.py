"""A player's link to their own private page: the game's page with their seat's key in the
fragment (`GAME.html#k=...`), which a browser never sends to a server (judge/store/seatkeys.py
keeps the keys; judge/publish/private.py seals the views the page opens)."""
from __future__ import annotations

from judge.site.pages import base
from judge.store import seatkeys


def private(game, name: str, seat: str, site_url: str = "") -> str | None:
    """`seat`'s link: relative to the site's folder, or absolute under `site_url`; None for a
    game without seat keys."""
    key = seatkeys.current(game, seat)
    if key is None:
        return None
    page = f"{base(game.ruleset.name, name)}.html#{seatkeys.fragment(key)}"
    return f"{site_url.rstrip('/')}/{page}" if site_url else page
