"""One budget of waiting for the locks of a command (judge/store/flock.py): only the time spent
waiting counts, so a tick that worked longer than its budget still waits for a busy lock."""
from __future__ import annotations

import fcntl
import os

from judge.store import flock

from fakeclock import Clock


def test_work_done_within_the_budget_is_not_counted_as_waiting(tmp_path, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(flock.time, "monotonic", clock.monotonic)
    monkeypatch.setattr(flock.time, "sleep", clock.sleep)
    path = tmp_path / "lock"
    held, mine = os.open(path, os.O_RDWR | os.O_CREAT), os.open(path, os.O_RDWR)
    fcntl.flock(held, fcntl.LOCK_EX)  # (another judge's: flock locks belong to an open file)
    try:
        with flock.waiting(3):
            clock.sleep(60)  # a minute of publishing, no waiting
            began = clock.now
            assert not flock.take(mine, flock.deadline(10))
            assert 2.9 <= clock.now - began <= 3.1  # it waited its whole budget, not nothing
            began = clock.now
            assert not flock.take(mine, flock.deadline(10))  # the budget spent: tried once
            assert clock.now == began
    finally:
        os.close(held)
        os.close(mine)
