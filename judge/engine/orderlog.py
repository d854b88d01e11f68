"""The log of accepted orders, "MOVE PLAYER ORDER" each: a list-like that keeps the game
file's own text of the entries it was read with.

The log grows with the game while everything else in the file stays about the same size, so
a command must not split, parse or re-serialise it whole: `judge order` reads the log's lines
as one block of text, counts them, appends its new entries as text, and writes the block back
unchanged. The entries themselves are split out only when something iterates or indexes the
log (`judge verify`, replay, bots). In the file the log stays what it always was, the last
table, one TOML string a line:

    [log]
    orders = [
      "1 alice bid",
      "2 bob pass",
    ]
"""
from __future__ import annotations

import re
from typing import NamedTuple

HEADER = "\n[log]\norders = ["
# An entry as tomli-w writes it when it needs no escape (every entry the judge writes: an
# order line is printable and its canonical text holds no quote or backslash).
_PLAIN = re.compile(r'[^"\\\x00-\x1f\x7f]*')
_LINES = re.compile(r'(?:  "[^"\\\x00-\x1f\x7f]*+",\n)*+')  # possessive: nothing to backtrack


_ENTRY = re.compile(r"^(\d+) (\S+) (.+)$")


class LogEntry(NamedTuple):
    """One entry of the log, "MOVE PLAYER TEXT": an order as the judge writes it, or (TEXT
    "secret: ..." or "secret for round N: ...") a standing order given or cancelled. The one
    place that reads an entry's parts."""

    move: int
    player: str
    text: str

    @classmethod
    def read(cls, entry: str) -> "LogEntry | None":
        """The entry's parts, or None for a line that is not "MOVE PLAYER TEXT"."""
        m = _ENTRY.match(entry)
        return cls(int(m[1]), m[2], m[3]) if m else None

    def __str__(self) -> str:
        return f"{self.move} {self.player} {self.text}"


class Log:
    """The logged orders. Behaves as a list of strings (len, iteration, indexing, slicing,
    equality with a list, item assignment) and grows by `append` and `extend`."""

    __slots__ = ("_text", "_count", "_read", "_new", "version")

    def __init__(self, entries=()):
        self._text = ""  # the file's lines of the first _count entries
        self._count = 0
        self._read = None  # those entries, once split out of _text
        self._new = list(entries)  # entries given since
        self.version = 0  # raised by every change (what a cache of something made from the log keys on)

    @classmethod
    def from_lines(cls, text: str) -> "Log | None":
        """The log whose array lines (`  "ENTRY",` each with its newline) are `text`, or None
        when they are not all plain entries (then the file is read by tomllib instead)."""
        if not _LINES.fullmatch(text):
            return None
        log = cls()
        log._text, log._count = text, text.count("\n")
        return log

    def lines(self) -> str | None:
        """The array lines of every entry, or None when an entry needs escaping in TOML."""
        if not all(_PLAIN.fullmatch(e) for e in self._new):
            return None
        return self._text + "".join(f'  "{e}",\n' for e in self._new)

    def _entries(self) -> list[str]:
        if not self._count:
            return self._new
        if self._read is None:
            self._read = [line[3:-2] for line in self._text.split("\n")[:-1]]
        return self._read + self._new if self._new else self._read

    # ---- a list of strings ----------------------------------------------------------------
    def __len__(self) -> int:
        return self._count + len(self._new)

    def __iter__(self):
        return iter(self._entries())

    def __reversed__(self):
        """The entries from the last, without splitting the whole text (a look at the log's end)."""
        yield from reversed(self._new)
        if self._read is not None or not self._count:
            yield from reversed(self._read or [])
            return
        end = len(self._text)
        while end > 0:
            start = self._text.rfind("\n", 0, end - 1) + 1
            yield self._text[start + 3:end - 3]
            end = start

    def __getitem__(self, index):
        if index == -1 and not self._new and self._read is None and self._count:
            start = self._text.rfind("\n", 0, -1) + 1  # the last line alone
            return self._text[start + 3:-3]
        return self._entries()[index]

    def __eq__(self, other):
        if isinstance(other, (Log, list)):
            return len(self) == len(other) and self._entries() == list(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return f"Log({self._entries()!r})"

    def __setitem__(self, index, entry) -> None:
        """Replace entries (the proofs redraw secret orders): the file's text is then dropped
        and every entry written afresh."""
        entries = list(self)
        entries[index] = entry
        self._text, self._count, self._read, self._new = "", 0, None, entries
        self.version += 1

    def append(self, entry: str) -> None:
        self._new.append(entry)
        self.version += 1

    def extend(self, entries) -> None:
        self._new.extend(entries)
        self.version += 1

    def copy(self) -> "Log":
        log = Log(self._new)
        log._text, log._count, log._read = self._text, self._count, self._read
        return log
