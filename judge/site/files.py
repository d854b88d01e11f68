"""Reading the site's own files: never through a link, never waiting on a FIFO (the site's
folder may hold what an earlier judge, or someone else, left there)."""
from __future__ import annotations

from pathlib import Path


def read(path: Path) -> str | None:
    """A file of the site as it is, or None: missing, unreadable, or not a regular file (a link
    is never followed, a FIFO never waited on)."""
    from judge.store.gamefile import is_regular

    try:
        return path.read_text(encoding="utf-8") if is_regular(path) else None
    except (OSError, UnicodeDecodeError):
        return None
