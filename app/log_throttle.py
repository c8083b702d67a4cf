"""A warning about a lasting fault, logged at most once an interval.

A fault that every request meets (a dead rate-limit store, a replica that does not answer, a folder
the predictor cannot write) would otherwise write one line per request; logged once per process, a
fault that starts later in the process's life (a disk filling up) would never be seen. Once a
minute says it while it lasts without flooding the log."""
import time

WARNING_INTERVAL_S = 60.0


class Throttle:
    """True at most once per `interval_s`."""

    def __init__(self, interval_s=WARNING_INTERVAL_S, clock=time.monotonic):
        self.interval_s = interval_s
        self.clock = clock
        self._last = None

    def ready(self):
        now = self.clock()
        if self._last is not None and now - self._last < self.interval_s:
            return False
        self._last = now
        return True
