"""A monotonic clock moved by the test: each wait (`sleep`) passes at once, and the time it
stood for is added to the clock (judge/store/flock.py's waits, the watcher's)."""
from __future__ import annotations


class Clock:
    def __init__(self, now: float = 1000.0):
        self.now = now

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
