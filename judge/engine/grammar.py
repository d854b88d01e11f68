"""Orders as a short grammar: templates such as `buy COMPANY N` with the values each slot may
take now, instead of every combination. A ruleset's `order_forms` builds them; the report prints
them, and `orders()` expands them back into the exact orders (the tests compare those with
`legal_orders` and `parse`). The exact list stays in the JSON view and `judge orders`.

A pattern's UPPERCASE words are slots; each case fills every slot with one part:
    Word(("pool", "company"))      one of these words           "pool/company"
    Numbers((1, 2, 3, 5))          one of these whole numbers   "1-3/5"
    Some(("Nile", "Nile"), 1, 2)   1 to 2 of these, any order   "1-2 of Nile Nile"
"""
from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

WIDTH = 76  # a report line, phones included
COLUMN = 22  # where the values start after the pattern


@dataclass(frozen=True)
class Word:
    choices: tuple[str, ...]

    def text(self) -> str:
        return "/".join(self.choices)

    def expand(self) -> list[str]:
        return list(self.choices)


@dataclass(frozen=True)
class Numbers:
    values: tuple[int, ...]

    def text(self) -> str:
        runs, values = [], sorted(self.values)
        for v in values:
            if runs and v == runs[-1][1] + 1:
                runs[-1][1] = v
            else:
                runs.append([v, v])
        return "/".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)

    def expand(self) -> list[str]:
        return [str(v) for v in sorted(self.values)]


@dataclass(frozen=True)
class Some:
    """Between `least` and `most` of the items of `pool` (a multiset), written in any order."""

    pool: tuple
    least: int
    most: int

    def items(self) -> str:
        """The pool, an item repeated counted: "GameStart x3 Nile"."""
        counts = Counter(self.pool)
        return " ".join(f"{v} x{counts[v]}" if counts[v] > 1 else f"{v}" for v in dict.fromkeys(self.pool))

    def text(self) -> str:
        items = self.items()
        if len(self.pool) == self.least == self.most == 1:
            return items
        if self.least == self.most:
            return f"all of {items}" if self.most == len(self.pool) else f"{self.most} of {items}"
        if self.most == len(self.pool):
            return {0: f"none or any of {items}", 1: f"any of {items}"}.get(self.least, f"{self.least} or more of {items}")
        return f"{self.least}-{self.most} of {items}"

    def expand(self) -> list[str]:
        counts = sorted(Counter(self.pool).items())
        out = []
        for picked in itertools.product(*(range(n + 1) for _, n in counts)):
            chosen = [str(v) for (v, _), k in zip(counts, picked) for _ in range(k)]
            if self.least <= len(chosen) <= self.most:
                out.append(" ".join(chosen))
        return out


@dataclass(frozen=True)
class Faces(Some):
    """Any of some dice's faces, written as they show ("1 4 4 6"; the help says "any of")."""

    def items(self) -> str:
        return " ".join(map(str, self.pool))

    def text(self) -> str:
        return self.items() if self.least == 1 and self.most == len(self.pool) else super().text()


@dataclass(frozen=True)
class Form:
    pattern: str
    cases: tuple[tuple, ...] = ()
    note: str = ""  # what the order does, for a player (no part of the grammar)

    def orders(self) -> list[str]:
        """Every order this form stands for, spelled out."""
        if not self.cases:
            return [self.pattern]
        out = []
        for case in self.cases:
            for values in itertools.product(*(part.expand() for part in case)):
                filled, it = [], iter(values)
                for w in self.pattern.split():
                    filled.append(next(it) if is_slot(w) else w)
                out.append(" ".join(" ".join(filled).split()))
        return out

    def lines(self, width: int = WIDTH) -> list[str]:
        """The pattern, then its cases; a long line is broken between cases only."""
        if not self.cases:
            return [f"  {self.pattern:<{COLUMN - 3}} {self.note}".rstrip()]
        lines = [f"  {self.pattern:<{COLUMN - 3}} "]
        texts = [" ".join(part.text() for part in case) for case in self.cases]
        for i, text in enumerate(texts):
            text += "," if i < len(texts) - 1 else ""
            if len(lines[-1]) > COLUMN and len(lines[-1]) + 1 + len(text) > width:
                lines.append(" " * COLUMN)
            lines[-1] += (" " if len(lines[-1]) > COLUMN else "") + text
        if self.note:
            lines.append(" " * COLUMN + self.note)
        return [line.rstrip() for line in lines]


def is_slot(word: str) -> bool:
    return any(c.isalpha() for c in word) and word == word.upper()


def form(pattern: str, cases, note: str = "") -> list[Form]:
    """A form with its cases (an empty list if no case is possible). Cases that differ only in
    their first Word are merged: `Edison 1-5, Nile 1-5` becomes `Edison/Nile 1-5`."""
    merged: dict[tuple, list[str]] = {}
    others = []
    for case in cases:
        case = tuple(case)
        if case and isinstance(case[0], Word):
            merged.setdefault(case[1:], []).extend(case[0].choices)
        else:
            others.append(case)
    out = [(Word(tuple(words)), *rest) for rest, words in merged.items()] + others
    return [Form(pattern, tuple(out), note)] if out else []


def from_orders(orders: list[str]) -> list[Form]:
    """The default grammar: orders grouped by their first word, the rest as alternatives."""
    groups: dict[str, list[str]] = {}
    for o in orders:
        verb, _, rest = o.partition(" ")
        groups.setdefault(verb, []).append(rest)
    out = []
    for verb, rests in groups.items():
        bare = [r for r in rests if not r]
        if bare:
            out.append(Form(verb))
        more = [r for r in rests if r]
        if more:
            out += [Form(f"{verb} {r}") for r in more] if len(more) == 1 else form(f"{verb} ARGUMENTS", [(Word(tuple(more)),)])
    return out


def grouped(orders: list[str], patterns: dict[str, str]) -> list[Form]:
    """Forms from an exact list of orders: those whose verb has a pattern (`sell COMPANY N`) are
    grouped by their middle words, the last word's values collected (numbers as ranges); the
    other orders stay as they are, in their first order."""
    groups: dict[str, dict[tuple, list[str]]] = {}
    out: list = []
    for o in orders:
        w = o.split()
        if w[0] in patterns and len(w) == len(patterns[w[0]].split()):
            if w[0] not in groups:
                groups[w[0]] = {}
                out.append(w[0])
            groups[w[0]].setdefault(tuple(w[1:-1]), []).append(w[-1])
        else:
            out.append(Form(o))
    forms = []
    for item in out:
        if isinstance(item, Form):
            forms.append(item)
            continue
        cases = [(*(Word((m,)) for m in middle), Numbers(tuple(map(int, last))) if all(x.isdigit() for x in last)
                  else Word(tuple(last))) for middle, last in groups[item].items()]
        forms += form(patterns[item], cases)
    return forms


def render(forms: list[Form]) -> list[str]:
    return [line for f in forms for line in f.lines()]


def example(forms: list[Form]) -> str:
    """One order a player can copy: the first of the first form that takes values."""
    for f in forms:
        if f.cases:
            orders = f.orders()
            return orders[min(1, len(orders) - 1)]
    return forms[0].pattern if forms else ""
