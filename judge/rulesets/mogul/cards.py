"""Mogul's cards: a share card is written `company/border` (its background, the company, and
the colour of its border); the crash card ends the game."""
from __future__ import annotations

CRASH = "crash"


def company(card: str) -> str:
    return card.split("/")[0]


def border(card: str) -> str:
    return card.split("/")[1]


def shares_of(n: int, colour: str) -> str:
    """'1 red share', '3 red shares'."""
    return f"{n} {colour} share{'s' if n != 1 else ''}"
