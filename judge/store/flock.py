"""Waiting for a lock another judge process holds (flock), for a bounded time: the one loop of
the league's index lock, the archive's repository lock and the publishing marks' lock.

Within `waiting` (judge tick's whole run: judge/gateway/deadlines.py) the locks share one
budget of waiting: a busy lock makes the command wait a bounded total, never a bounded time
for each game it publishes. Only time spent waiting counts (a tick that worked for a minute
still waits for a lock its budget allows)."""
from __future__ import annotations

import contextvars
import fcntl
import time
from contextlib import contextmanager

POLL = 0.05  # seconds between two tries

_left: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar("left", default=None)


@contextmanager
def waiting(seconds: float):
    """Within it, every lock is waited for `seconds` in all (an enclosing `waiting` stands)."""
    token = _left.set([seconds]) if _left.get() is None else None
    try:
        yield
    finally:
        if token is not None:
            _left.reset(token)


def deadline(seconds: float) -> float:
    """Until when (time.monotonic()) to wait for a lock: what is left of the command's budget
    within `waiting`, else `seconds` from now."""
    left = _left.get()
    return time.monotonic() + (seconds if left is None else max(0.0, left[0]))


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
            began = time.monotonic()
            time.sleep(min(POLL, left))
            budget = _left.get()
            if budget is not None:  # (within `waiting`: what was waited is spent for every lock)
                budget[0] -= time.monotonic() - began
