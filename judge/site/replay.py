"""The public report at every move as a game's page carries it: one JSON block of each report's
changes from the previous one, rebuilt in the browser by site.js, so that a page costs what its
moves changed and not a whole report a move (a 1,387-move stock round: 4 MB of reports, 0.4 MB
of changes). The page shows the last report as plain text besides, for a reader without script.

A report is a list of operations on the previous report's lines (the first on none):

    [I, N]          N lines of the previous report from line I
    [I, P, S, MID]  line I of the previous report, its first P and last S characters kept, MID between
    "TEXT"          a new line

`decode` is what site.js does (tests/site/test_pages.py checks that the two agree)."""
from __future__ import annotations

import difflib
import json

GAIN = 12  # a changed line is kept as its middle only when that saves this many characters


def operations(before: list[str], after: list[str]) -> list:
    out: list = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append([i1, i2 - i1])
            continue
        for k, new in enumerate(after[j1:j2]):
            if tag == "replace" and k < i2 - i1:
                old = before[i1 + k]
                p = 0
                while p < min(len(old), len(new)) and old[p] == new[p]:
                    p += 1
                s = 0
                while s < min(len(old), len(new)) - p and old[-1 - s] == new[-1 - s]:
                    s += 1
                middle = new[p:len(new) - s]
                if len(middle) + GAIN < len(new):
                    out.append([i1 + k, p, s, middle])
                    continue
            out.append(new)
    return out


def encode(texts: list[str]) -> list[list]:
    """The operations of each report of `texts` (whole reports, in order of their moves)."""
    out, before = [], []
    for text in texts:
        lines = text.split("\n")
        out.append(operations(before, lines))
        before = lines
    return out


def decode(ops: list[list]) -> list[str]:
    out, before = [], []
    for step in ops:
        lines = []
        for op in step:
            if isinstance(op, str):
                lines.append(op)
            elif len(op) == 2:
                lines += before[op[0]:op[0] + op[1]]
            else:
                old = before[op[0]]
                lines.append(old[:op[1]] + op[3] + old[len(old) - op[2]:])
        out.append("\n".join(lines))
        before = lines
    return out


def script(moves: list[int], texts: list[str]) -> str:
    """The JSON of the page's block: {"moves": [...], "ops": [...]}, safe inside <script>."""
    data = json.dumps({"moves": moves, "ops": encode(texts)}, ensure_ascii=False, separators=(",", ":"))
    return data.replace("<", "\\u003c")
