"""Small helpers of the rumors ruleset: company names in words, the Bull/Bear marker, dice as
multisets, money and plurals in text."""
from __future__ import annotations

import itertools
import re
from collections import Counter
from functools import lru_cache


def joined(names, text: str) -> str:
    """The text with a company written as the rulebook spells it, in words ("Unusual Oil",
    "Game Start"), joined into its name in the judge (UnusualOil)."""
    for c in names:
        spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", r"\\s+", c)
        if spaced != c:
            text = re.sub(rf"(?i)\b{spaced}\b", c, text)
    return text


def marker(filled: int) -> str:
    return f"Bull {5 - filled}" if filled <= 5 else f"Bear {filled - 5}"


def sub_multisets(items: list, min_size: int = 0, max_size: int | None = None) -> list[tuple]:
    """Every sub-multiset of `items`, as sorted tuples, smallest first."""
    return list(_sub_multisets(tuple(sorted(items)), min_size, max_size))


@lru_cache(maxsize=4096)  # the same few screens and boards are asked about all game long
def _sub_multisets(items: tuple, min_size: int, max_size: int | None) -> tuple[tuple, ...]:
    counts = sorted(Counter(items).items())
    found = []
    for pick_counts in itertools.product(*(range(n + 1) for _, n in counts)):
        chosen = tuple(v for (v, _), k in zip(counts, pick_counts) for _ in range(k))
        if len(chosen) >= min_size and (max_size is None or len(chosen) <= max_size):
            found.append(chosen)
    return tuple(sorted(found, key=lambda d: (len(d), d)))


def contains(pool: list, wanted: list) -> bool:
    return not Counter(wanted) - Counter(pool)


def remove_all(pool: list, gone: list) -> None:
    for x in gone:
        pool.remove(x)


def dollars(n: int) -> str:
    return f"-${-n}" if n < 0 else f"${n}"


def signed(n: int) -> str:
    return f"-${-n}" if n < 0 else f"+${n}"


def company_in(view: dict, name: str) -> dict:
    """The company `name` as a view shows it."""
    return next(c for c in view["companies"] if c["name"] == name)


def plural(n: int, word: str, many: str = "") -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"
