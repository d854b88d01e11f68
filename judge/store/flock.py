"""Waiting for a lock another judge process holds (flock), for a bounded time: the one loop of
the league's index lock, the archive's repository lock and the publishing marks' lock.

Within `waiting` (judge tick's whole run: judge/gateway/deadlines.py) every lock is waited for
until one deadline, a time.monotonic() instant shared by all: a busy lock makes the command
wait a bounded total, never a bounded time for each game it publishes."""
from __future__ import annotations

import contextvars
import fcntl
import time
from contextlib import contextmanager

POLL = 0.05  # seconds between two tries

_until: contextvars.ContextVar[float | None] = contextvars.ContextVar("until", default=None)


@contextmanager
def waiting(seconds: float):
    """Within it, every lock is waited for `seconds` in all (an enclosing `waiting` stands)."""
    token = _until.set(time.monotonic() + seconds) if _until.get() is None else None
    try:
        yield
    finally:
        if token is not None:
            _until.reset(token)


def deadline(seconds: float) -> float:
    """Until when (time.monotonic()) to wait for a lock: the command's deadline within
    `waiting`, else `seconds` from now."""
    until = _until.get()
    return time.monotonic() + seconds if until is None else until


def take(fd: int, until: float | None) -> bool:
    """Take an exclusive lock on the open file `fd`, trying at least once and waiting until
    `until` (time.monotonic(); None: as long as it takes); whether it was taken."""
    if until is None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return True
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            left = until - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(POLL, left))
