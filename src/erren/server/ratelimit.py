"""Flood control for one connection: a token bucket, then a strike count.

Each message takes a token; tokens come back at ``rate`` per second up to ``burst``.  A message
that finds the bucket empty is refused (an error on the socket, nothing done) and counts a
strike; ``max_strikes`` refused messages within one refill of the bucket close the connection.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["TokenBucket"]


class TokenBucket:
    def __init__(
        self,
        rate: float = 20.0,
        burst: float = 40.0,
        max_strikes: int = 20,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.max_strikes = max_strikes
        self._now = now
        self._tokens = burst
        self._last = now()
        self.strikes = 0

    def take(self) -> bool:
        """Whether one more message may pass now."""
        now = self._now()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            if self._tokens >= self.burst - 1:
                self.strikes = 0
            return True
        self.strikes += 1
        return False

    @property
    def exhausted(self) -> bool:
        """Too many refused messages: close the connection."""
        return self.strikes >= self.max_strikes
