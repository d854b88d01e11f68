"""Waiting for a lock another judge process holds (flock), for a bounded time: the one loop of
the league's index lock, the archive's repository lock and the publishing marks' lock.

A deadline is a time.monotonic() instant shared by every lock a command waits for, so a busy
lock makes a command wait a bounded total (judge/publish/step.py `waiting`), never a bounded
time for each game it publishes."""
from __future__ import annotations

import fcntl
import time

POLL = 0.05  # seconds between two tries


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
