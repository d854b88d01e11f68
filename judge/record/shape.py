"""The shape of a public record as its readers read it (the site: judge/site/; the league:
judge/league/records.py): every field they read, with its type, numbers finite and within
2**53. `check` refuses a record that does not fit with GameFileError naming the file and the
first field that does not ("friday.toml: the record's moves[12].scores[1] is not a number"),
before any reader touches it: a record edited by hand or by a forger is skipped with that one
warning, never a traceback, and the other records are published. Keys a reader does not read
are not checked (an extra key is ignored); `[game_file]` is the game file's, checked by the
engine when the game is read from it."""
from __future__ import annotations

import math
import re

from judge.engine.errors import GameFileError

LIMIT = 2 ** 53  # numbers beyond it lose their last digits as floats (charts, sums)


class _Misfit(Exception):
    def __init__(self, path: str, what: str):
        super().__init__(f"{path} {what}")


def text(value, path: str) -> None:
    if not isinstance(value, str):
        raise _Misfit(path, "is not text")


def whole(value, path: str) -> None:
    if type(value) is not int or abs(value) > LIMIT:
        raise _Misfit(path, "is not a whole number (within 2**53)")


def integer(value, path: str) -> None:
    """A whole number of any size (a time in nanoseconds, say: never drawn or summed)."""
    if type(value) is not int:
        raise _Misfit(path, "is not a whole number")


def number(value, path: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or abs(value) > LIMIT:
        raise _Misfit(path, "is not a finite number (within 2**53)")


def truth(value, path: str) -> None:
    if not isinstance(value, bool):
        raise _Misfit(path, "is not true or false")


def table(value, path: str) -> None:
    if not isinstance(value, dict):
        raise _Misfit(path, "is not a table")


def optional(item):
    """`item`, or null (JSON's None: the judge's own derived files)."""
    def check(value, path: str) -> None:
        if value is not None:
            item(value, path)
    return check


def listing(item):
    def check(value, path: str) -> None:
        if not isinstance(value, list):
            raise _Misfit(path, "is not a list")
        for i, v in enumerate(value):
            item(v, f"{path}[{i}]")
    return check


def row(*items):
    """A list of exactly len(items) values, each fitting its item (a tuple kept as JSON)."""
    def check(value, path: str) -> None:
        if not isinstance(value, list) or len(value) != len(items):
            raise _Misfit(path, f"is not a list of {len(items)}")
        for i, (v, item) in enumerate(zip(value, items)):
            item(v, f"{path}[{i}]")
    return check


def mapping(item):
    def check(value, path: str) -> None:
        table(value, path)
        for k, v in value.items():
            item(v, f"{path}.{k}" if path else str(k))
    return check


def fields(shape: dict, required: tuple = ()):
    def check(value, path: str) -> None:
        table(value, path)
        for key in required:
            if key not in value:
                raise _Misfit(f"{path}.{key}".lstrip("."), "is missing")
        for key, item in shape.items():
            if key in value:
                item(value[key], f"{path}.{key}".lstrip("."))
    return check


def op(value, path: str) -> None:
    from judge.record.moves import REPORT_OP

    if not isinstance(value, str) or not REPORT_OP.fullmatch(value):
        raise _Misfit(path, "is not a line of a report ('=LINE COUNT' or '+TEXT')")


def price(value, path: str) -> None:
    if not isinstance(value, list) or len(value) != 2:
        raise _Misfit(path, "is not [company, price]")
    text(value[0], f"{path}[0]")
    number(value[1], f"{path}[1]")


def standings(value, path: str) -> None:
    """The final standings' rows: a player, a rank, a score, and the ruleset's own columns,
    the same in every row (the site draws them as one table)."""
    listing(fields({"player": text, "rank": whole, "score": number}, ("player",)))(value, path)
    for i, row in enumerate(value[1:], 1):
        if set(row) != set(value[0]):
            raise _Misfit(f"{path}[{i}]", "has other columns than the first row")


CORRECTION = fields({"kind": text, "time": text, "from_move": whole, "to_move": whole, "since": whole,
                     "reason": text, "undone": listing(text), "seat": text, "player": text, "previous": text})
ROW = fields({"move": whole, "orders": listing(text), "events": listing(text), "scores": listing(number),
              "prices": listing(price), "report": listing(op), "head": text}, ("move",))
VIEW = fields({"title": text, "standings": standings, "prompts": mapping(text), "awaiting": listing(text),
               "seed": whole, "salt": text, "set_by_gm": listing(text)})

# what the league reads (the fast reader leaves the moves and the view out), then the site
LEAGUE = {"game": text, "ruleset": text, "commitment": text, "players": listing(text), "log": listing(text),
          "complete": truth, "game_over": truth, "corrections": listing(CORRECTION),
          "league": fields({"ended": text, "deadlines": truth, "facts": listing(table)}), "game_file": table}
SITE = {**LEAGUE, "move": whole, "seats": mapping(fields({"player": text, "since": whole}, ("player",))),
        "report": text, "view": VIEW, "deadline": text, "moves": listing(ROW),
        "log_head": fields({"move": whole, "hash": text}, ("move", "hash"))}
REQUIRED = ("game", "ruleset", "players", "log", "complete", "game_over")


def conform(value, checker) -> None:
    """Refuse (GameFileError) `value` when it does not fit `checker` (one of the checks above,
    such as `fields(...)`), naming the first field that does not ("running.x.move is not a
    whole number"): the judge's own derived files (judge/record/derived.py) are checked so."""
    try:
        checker(value, "")
    except _Misfit as e:
        raise GameFileError(str(e).strip()) from None
    except RecursionError:  # (what json.loads could nest, deeper than Python's stack for a walk)
        raise GameFileError("it is nested too deep") from None


def check(record: dict, where: str, shape: dict = SITE) -> None:
    """Refuse (GameFileError) a record whose fields do not fit `shape` (SITE: all the site
    reads; LEAGUE: what the league reads), naming the first that does not."""
    from judge.record.public import KIND

    required = REQUIRED + (("move", "view", "report") if shape is SITE else ())
    try:
        if record.get("record") != KIND:
            raise _Misfit("record", f"is not '{KIND}'")
        fields(shape, required)(record, "")
    except _Misfit as e:
        raise GameFileError(f"{where}: the record's {e}") from None
    if shape is SITE and isinstance(record.get("moves"), list):
        from judge.record import moves

        try:
            moves.bounded(record["moves"])
        except GameFileError as e:
            raise GameFileError(f"{where}: the record's {e}") from None
