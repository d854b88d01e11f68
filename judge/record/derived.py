"""The judge's own derived files: JSON it writes beside what it publishes and can make again
from the records (the site's games.json and finished/MONTH.json: judge/site/listing.py; the
league index's league.json, rows and lists: judge/league/index.py). They are read as records
are: never through a link or from a FIFO, within a size, parsed without a traceback however
deep they nest, and checked field by field (judge/record/shape.py) before anything is drawn
from them. One that does not check is as none: its reader makes it again from the records and
says so in one warning (`derived file ... does not check (...): made again from the records`).
"""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from judge.engine.errors import GameFileError
from judge.record import shape

SAID = "the judge's file"  # how each warning of a derived file made again begins
MAX_BYTES = 64 * 1024 * 1024  # a derived file of 10,000 games' site or index is far smaller


def read(path: Path, checker=None) -> tuple[object | None, str]:
    """(the data of the derived file at `path`, ""), or (None, "") when there is none, or
    (None, why it is made again) when it cannot be read or does not fit `checker` (a check of
    judge/record/shape.py)."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None, ""
    except OSError as e:
        return None, said(path, e.strerror or str(e))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, said(path, "it is not a regular file")
        if info.st_size > MAX_BYTES:
            return None, said(path, f"it is larger than {MAX_BYTES // 2**20} MB")
        with open(fd, "rb", closefd=False) as f:
            data = json.loads(f.read(MAX_BYTES + 1).decode("utf-8"))
        warning = remade(path, data, checker) if checker is not None else ""
        return (None, warning) if warning else (data, "")
    except OSError as e:
        return None, said(path, e.strerror or str(e))
    except ValueError as e:  # (UnicodeDecodeError and JSONDecodeError are ValueErrors)
        return None, said(path, f"it is not JSON: {type(e).__name__}")
    except RecursionError:
        return None, said(path, "it is nested deeper than the judge writes")
    finally:
        os.close(fd)


def fits(data, checker) -> str:
    """Why `data` does not fit `checker` (the first field that does not), or "" when it does."""
    try:
        shape.conform(data, checker)
        return ""
    except GameFileError as e:
        return str(e)


def remade(path: Path, data, checker) -> str:
    """The warning that the file at `path`, read as `data`, does not fit `checker` and is made
    again, or "" when it fits."""
    why = fits(data, checker)
    return said(path, why) if why else ""


def said(path: Path, why: str) -> str:
    return f"{SAID} {path} does not check ({why}): made again from the records"
