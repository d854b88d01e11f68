"""The mail record: one JSON line per event in NAME.mail.log beside a game's file, or in
mail.log in the games directory for what belongs to no game (unknown games, unreadable
messages, undeliverable mail, quarantined messages). Files 0600: never a password in them,
but addresses and orders are nobody else's business."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from judge.engine import writes


def iso(when: datetime) -> str:
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def journal_path(game_path: Path) -> Path:
    """Everything that arrives for a game is logged in NAME.mail.log beside its file."""
    return game_path.with_name(game_path.stem + ".mail.log")


def general_log(cfg) -> Path:
    """What names no game of this judge is logged here."""
    return cfg.games / "mail.log"


def record(path: Path, when: datetime, **fields) -> None:
    """Append one JSON line (time, sender, Message-ID, outcome, ...) to a log; never a password."""
    line = (json.dumps({"time": iso(when), **fields}, ensure_ascii=False) + "\n").encode("utf-8")
    writes.append(path, line, 0o600, narrow=True)  # (a log written by an earlier judge at 0644: narrowed)
