"""Reading a text/plain part sent as `format=flowed` (RFC 3676), as Thunderbird and Apple Mail
send it: the client wraps a long line at a space and marks the break by leaving that space at
the end of the line (a "soft" break). Read as it stands, a long order splits into two lines,
and the second may be an order of its own ("press alice ... so here it is: " + "pass"). Joined
again, the player's line is one line, as they wrote it.

- A line ending in a space joins the next line of the same quote depth; with `DelSp=yes` that
  space is removed (the client added it), without it the space stays.
- A line's quote depth is its count of leading `>`; a soft break never joins lines of two
  depths. The space a client puts before a line beginning with a space, `>` or `From `
  ("space-stuffing") is removed; the signature separator `-- ` stays a line of its own.
- Quoted lines come back as `>` marks, a space and their text.
"""
from __future__ import annotations


def unflow(text: str, delsp: bool = False) -> str:
    out: list[str] = []
    joined, depth = None, 0  # the paragraph being joined, and its quote depth
    for raw in text.split("\n"):
        line = raw.rstrip("\r")
        level = len(line) - len(line.lstrip(">"))
        line = line[level:]
        if line.startswith(" "):  # space-stuffed (or the space after the quote marks)
            line = line[1:]
        soft = line.endswith(" ") and line != "-- "
        if soft and delsp:
            line = line[:-1]
        if joined is not None and level == depth:
            joined += line
        else:
            if joined is not None:  # a soft break before a change of depth: the line ends there
                out.append(_quoted(depth, joined))
            joined, depth = line, level
        if not soft:
            out.append(_quoted(depth, joined))
            joined = None
    if joined is not None:
        out.append(_quoted(depth, joined))
    return "\n".join(out)


def _quoted(depth: int, line: str) -> str:
    return ">" * depth + (" " if depth and line else "") + line
