"""The judge's own entries in the log: what the judge did or saw itself, logged beside the
players' orders, public, replayed and audited like them, and never given by anyone's order.

    12 judge: upgrade from version 3 to version 5      # `judge upgrade`: the rules from here on
    30 judge: missed carol by 2026-05-04T08:00:00Z: the default order
    30 carol pass                                       # (the order the judge gave for the seat)
    31 judge: resigned bob                              # the judge's bot plays the seat from here
    40 judge: seat dave to erin                         # the game master handed the seat on
    77 judge: ended at 2026-07-01T12:00:00Z             # the change that found the game over
    77 judge: ended at 2026-07-01T12:00:00Z with no deadlines     # (a game no deadline bound)

The player of such an entry is JUDGE, which no player's name can be (names hold no colon).
An entry keeps the move number of the move it was logged at and does not end it. The engine
alone reads them (`Game.replay`, `Game.note`): a ruleset never sees one. Replaying one adds
it to the state's list `judged` (absent until the first), so that a log whose entries of the
judge were edited, added, moved or taken out no longer replays to its saved state, and
`judge audit` fails naming the entry.

An upgrade replays the whole log before it under the new version (as `judge upgrade` always
did: every logged order must still fit), and the game goes on under it; `judge audit` checks
the commitment with the version the game began under (the first upgrade's `from`) and replays
each stretch under its own version. The league's facts (missed deadlines with the default
orders given, resignations, seats handed on, the end's time) are logged by games of file
format 2 (judge/record/conduct.py); earlier files keep them in [meta.league].
"""
from __future__ import annotations

import re
from typing import NamedTuple

from judge.engine.errors import GameFileError

JUDGE = "judge:"  # the player of the judge's entries (a player's name has no colon)
KEY = "judged"  # the state's list of the judge's entries replayed so far
UNNAMED = "a new player"  # a seat handed on without a name (judge/record/corrections.py)

_FORMS = {
    "upgrade": re.compile(r"^upgrade from version (\d{1,6}) to version (\d{1,6})$"),
    "missed": re.compile(r"^missed (\S+) by (\S+): (.+)$"),
    "resigned": re.compile(r"^resigned (\S+)$"),
    "seat": re.compile(r"^seat (\S+) to (.+)$"),
    "ended": re.compile(r"^ended at (\S+?)( with no deadlines)?$"),
}
NO_DEADLINES = "with no deadlines"  # an end's note: the league's "on time" has nothing to count
DEFAULT = "the default order"  # how the judge chose a missed order, mostly (judge/gateway/deadlines.py)
# What a rollback over an entry keeps: the seat's player, a resignation and the rules stay
# what they are now, so it logs them again at the move it returns to (a missed deadline and
# the end go with the orders they came with).
KEPT_BY_ROLLBACK = ("upgrade", "resigned", "seat")


class Fact(NamedTuple):
    """One entry of the judge, read: its move, kind and arguments."""

    move: int
    kind: str
    args: tuple

    def __str__(self) -> str:
        return entry(self.move, text(self.kind, *self.args))


def text(kind: str, *args) -> str:
    """The entry's text for `kind` with `args` (the forms above)."""
    if kind == "upgrade":
        return f"upgrade from version {args[0]} to version {args[1]}"
    if kind == "missed":
        return f"missed {args[0]} by {args[1]}: {args[2]}"
    if kind == "resigned":
        return f"resigned {args[0]}"
    if kind == "seat":
        return f"seat {args[0]} to {args[1]}"
    if kind == "ended":  # (the time; NO_DEADLINES when no deadline bound the game)
        return f"ended at {args[0]}" + (f" {NO_DEADLINES}" if args[1:] and args[1] else "")
    raise ValueError(kind)


def entry(move: int, text_: str) -> str:
    return f"{move} {JUDGE} {text_}"


def is_fact(entry_: str) -> bool:
    """Whether a log entry is one of the judge's (fast: most entries are not)."""
    return f" {JUDGE} " in entry_ and entry_.split(" ", 2)[1] == JUDGE


def read(move: int, text_: str) -> Fact:
    """The entry's parts, or GameFileError when its text is none of the forms."""
    for kind, form in _FORMS.items():
        m = form.match(text_)
        if m:
            args = tuple(int(a) if kind == "upgrade" and a.isdigit() else (a or "").strip() for a in m.groups())
            return Fact(move, kind, args)
    raise GameFileError(f"its text is none of the judge's entries ({', '.join(_FORMS)})")


def facts(log) -> list[Fact]:
    """The judge's entries of a log, read (entries that are not the judge's left out)."""
    out = []
    for e in log:
        if is_fact(e):
            move, _, rest = e.split(" ", 2)
            out.append(read(int(move), rest))
    return out


def first_version(log, version: int) -> int:
    """The version of the rules a game with this log began under: the first upgrade's `from`,
    or `version` (the file's) when the log has none."""
    for e in log:
        if is_fact(e) and " upgrade from version " in e:
            fact = read(int(e.split(" ", 1)[0]), e.split(" ", 2)[2])
            return fact.args[0]
    return version


def ended(state: dict) -> str:
    """When the game ended, as its entry says ("" before the entry)."""
    return ended_in(state.get(KEY, []))


def ended_in(log) -> str:
    """When the game ended, as the judge's entry among `log`'s says ("" without one; entries
    that are not text are passed over: a record's log is read as it stands)."""
    for e in log:
        if isinstance(e, str) and " judge: ended at " in e:
            return e.split(" judge: ended at ", 1)[1].split(" ", 1)[0]
    return ""


def recorded(state: dict, entry_: str) -> None:
    """Keep a replayed entry of the judge in the state (see the module's text)."""
    state.setdefault(KEY, []).append(entry_)
