"""Stock tokens on a binary multiplier board: a holding of n shares (owned > 0, shorted < 0)
lies as popcount(n) tokens in the 1x, 2x, 4x, ... columns (RULINGS.md §3)."""
from __future__ import annotations

import itertools


def tokens(holding: int) -> int:
    """Tokens a holding takes on the binary multiplier board."""
    return bin(abs(holding)).count("1")


def board_tokens(holding: int, uncancelled: int = 0) -> int:
    """Tokens on the multiplier board for `holding` with `uncancelled` shares left on the
    other side (7 owned as +8x -1x: uncancelled 1, 2 tokens)."""
    return tokens(abs(holding) + uncancelled) + tokens(uncancelled)


def fewest_uncancelled(holding: int, have: int) -> int:
    """The fewest shares left uncancelled so that `holding` fits on the multiplier board with
    `have` tokens (0, fully cancelled, whenever popcount(|holding|) <= have). Some number
    always fits when a buy or short of k brings popcount(k) new tokens: the old board with the
    new tokens beside it, uncancelled, shows the new holding with at most `have` tokens."""
    return next(u for u in itertools.count() if board_tokens(holding, u) <= have)


def columns_of(holding: int, uncancelled: int = 0) -> str:
    """'+4x +1x' for 5 owned, '-2x' for 2 shorted, '+8x -1x' for 7 owned with 1 uncancelled."""
    sign, other = ("+", "-") if holding > 0 else ("-", "+")

    def bits(n, s):
        return [f"{s}{1 << b}x" for b in reversed(range(n.bit_length())) if n >> b & 1]
    return " ".join(bits(abs(holding) + uncancelled, sign) + bits(uncancelled, other))


def uncancelled(pl: dict, company: str) -> int:
    """Shares left uncancelled on the other side of a player's multiplier board (version 2)."""
    return pl.get("uncancelled", {}).get(company, 0)
