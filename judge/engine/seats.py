"""Turn order round the table. The seats (`state["seats"]`) are listed clockwise, in the order
the players were given when the game was made."""
from __future__ import annotations


def clockwise(seats: list[str], first: str) -> list[str]:
    """Every seat once, clockwise from `first`."""
    i = seats.index(first)
    return seats[i:] + seats[:i]


def next_clockwise(seats: list[str], player: str, among=None) -> str:
    """The next player clockwise from `player` (who is seated); with `among`, the next one of
    those (`player` when none of them is anyone else)."""
    i, n = seats.index(player), len(seats)
    for k in range(1, n):  # (no list built: a bid asks it every time)
        q = seats[(i + k) % n]
        if among is None or q in among:
            return q
    return player
