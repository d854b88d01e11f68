"""Orders: immutable values parsed from one line of text, and the helpers rulesets parse with."""
from __future__ import annotations

import re
from dataclasses import dataclass

from judge.engine.errors import AmbiguousOrder, OrderSyntaxError

MAX_LINE = 200
_MOVE_PREFIX = re.compile(r"#\s*(\S+)\s*(.*)$", re.S)


@dataclass(frozen=True)
class Order:
    """One accepted order. `str(order)` is its canonical text, which parses back to it."""

    player: str
    verb: str
    args: tuple = ()

    def __str__(self) -> str:
        return " ".join([self.verb, *(str(a) for a in self.args)])


def order_lines(text: str) -> list[str]:
    """The order lines of a block of text: `#` followed by a space, or a lone `#`, starts a comment.

    `#17 bid` is an order carrying its move number, so `#` directly before a digit is kept.
    """
    lines = []
    for raw in text.removeprefix("\ufeff").splitlines():  # a byte-order mark (Windows Notepad)
        line = re.sub(r"(^|\s)#(?!\d)(\s.*|$)", "", raw).strip()
        if line:
            lines.append(line)
    return lines


def comment_note(text: str) -> str:
    """Why a text with lines gave no order: its lines were read as comments ("" if not)."""
    comments = [raw.strip() for raw in text.splitlines() if raw.strip().startswith("#")]
    if not comments or any(raw.strip() and not raw.strip().startswith("#") for raw in text.splitlines()):
        return ""
    return (f"every line was read as a comment ('{comments[0][:40]}': '# ' starts a comment; "
            "a move number is written with no space: '#30 bid')")


def split_move(line: str) -> tuple[int | None, str]:
    """`#17 bid` -> (17, "bid"); `bid` -> (None, "bid")."""
    check_line(line)
    if not line.strip():
        raise OrderSyntaxError("an empty order line")
    m = _MOVE_PREFIX.match(line.strip())
    if not m:
        return None, line.strip()
    number, rest = m.groups()
    if not (number.isdigit() and number.isascii()) or len(number) > 9:
        raise OrderSyntaxError(f"move number '#{number}' is not a whole number", line)
    if not rest.strip():
        raise OrderSyntaxError("a move number with no order after it", line)
    return int(number), rest.strip()


def check_line(line: str) -> None:
    if not line.isprintable():
        raise OrderSyntaxError("the line holds control or binary characters", line.encode("unicode_escape").decode()[:60])
    if len(line) > MAX_LINE:
        raise OrderSyntaxError(f"an order line is at most {MAX_LINE} characters", line[:40] + "...")


def words(line: str) -> list[str]:
    return line.lower().split()


def parse_count(word: str, line: str, *, what: str = "number") -> int:
    """A whole number >= 0 written in digits."""
    if not word.isdigit() or not word.isascii():
        raise OrderSyntaxError(f"'{word}' is not a whole {what}", line)
    if len(word) > 6:
        raise OrderSyntaxError(f"'{word}' is far too large", line)
    return int(word)


def pick(word: str, choices, line: str, *, what: str) -> str:
    """Match `word` to one of `choices` by a unique case-insensitive prefix."""
    w = word.lower()
    exact = [c for c in choices if c.lower() == w]
    if exact:
        return exact[0]
    found = [c for c in choices if c.lower().startswith(w)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise OrderSyntaxError(f"unknown {what} '{word}' (one of: {', '.join(choices)})", line)
    raise AmbiguousOrder(f"'{word}' could be {' or '.join(found)}", line)
