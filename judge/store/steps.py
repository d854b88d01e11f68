"""The steps of the judge's work on disk, named, for the kill test and the benchmarks only (the
judge itself never reads them): every write of a file (judge/store/gamefile.py write_atomic),
every git command (judge/record/archive.py) and the taking and leaving of a game's lock.

    JUDGE_STEPS=FILE   append a line "NAME SECONDS" (time.monotonic) at every step reached
    JUDGE_KILL_AT=N    kill the judge (SIGKILL, nothing cleaned up) when it reaches its N-th step

Unset (always, but in those tests), a step costs one look-up of the environment."""
from __future__ import annotations

import os
import signal
import time

from judge.engine import writes

_reached = 0


def step(name: str) -> None:
    global _reached
    trace, kill = os.environ.get("JUDGE_STEPS"), os.environ.get("JUDGE_KILL_AT")
    if not trace and not kill:
        return
    _reached += 1
    if trace:
        writes.append(trace, f"{name} {time.monotonic():.6f}\n".encode(), 0o644)
    if kill and _reached == int(kill):
        os.kill(os.getpid(), signal.SIGKILL)
