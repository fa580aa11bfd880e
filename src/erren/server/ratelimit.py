"""Flood control: per connection a token bucket; per client address and account name the
throttles of registration and login.

Each message takes a token; tokens come back at ``rate`` per second up to ``burst``.  A message
that finds the bucket empty is refused (an error on the socket, nothing done) and counts a
strike; ``max_strikes`` refused messages within one refill of the bucket close the connection.

Accounts (:class:`AccountGate`): at most 30 new accounts per client address per hour, and after
10 wrong passwords for one account name (or 30 from one address) within a minute every further
attempt — the right password too — is refused until the oldest of them is a minute old.  The
counts live in the server's memory (one process).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

__all__ = ["AccessLimits", "AccountGate", "Throttle", "TokenBucket"]


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


# ---------------------------------------------------------------------------- accounts
@dataclass(frozen=True)
class AccessLimits:
    """How often accounts may be made and passwords tried (``erren serve`` options).

    ``register_per_address`` new accounts per client address per ``register_window_s``;
    ``login_per_account`` wrong passwords per account name and ``login_per_address`` per client
    address per ``login_window_s``.  A limit of 0 turns that throttle off."""

    register_per_address: int = 30
    register_window_s: int = 3600
    login_per_account: int = 10
    login_per_address: int = 30
    login_window_s: int = 60


class Throttle:
    """At most ``limit`` counted events per key within any ``window_s`` seconds (a moving
    window, kept by the ``limits`` library in memory).

    An attempt that might count is announced with :meth:`attempt` while it runs, so that
    concurrent attempts cannot all slip through before the first one is counted: an attempt is
    refused while the events counted plus those in flight reach the limit."""

    def __init__(
        self, name: str, limit: int, window_s: int, limiter: MovingWindowRateLimiter | None = None
    ) -> None:
        self.name = name
        self.limit = limit
        self._item = RateLimitItemPerSecond(max(limit, 1), max(window_s, 1))
        self._limiter = limiter or MovingWindowRateLimiter(MemoryStorage())
        self._running: Counter[str] = Counter()

    def retry_after(self, key: str) -> int | None:
        """Seconds to wait before trying again (``Retry-After``), or ``None``: go ahead."""
        if self.limit <= 0:
            return None
        stats = self._limiter.get_window_stats(self._item, self.name, key)
        if stats.remaining - self._running[key] > 0:
            return None
        return max(1, math.ceil(stats.reset_time - time.time()))

    @contextmanager
    def attempt(self, key: str) -> Iterator[None]:
        """Mark one attempt as in flight while the block runs."""
        self._running[key] += 1
        try:
            yield
        finally:
            self._running[key] -= 1
            if self._running[key] <= 0:
                del self._running[key]

    def count(self, key: str) -> None:
        """Count one event (a wrong password, a new account) for ``key``."""
        if self.limit > 0:
            self._limiter.hit(self._item, self.name, key)


class AccountGate:
    """The throttles of the account routes: registrations per address, wrong passwords per
    account and per address."""

    def __init__(self, limits: AccessLimits) -> None:
        self.limits = limits
        shared = MovingWindowRateLimiter(MemoryStorage())
        self.register = Throttle(
            "register", limits.register_per_address, limits.register_window_s, shared
        )
        self.login_account = Throttle(
            "login-account", limits.login_per_account, limits.login_window_s, shared
        )
        self.login_address = Throttle(
            "login-address", limits.login_per_address, limits.login_window_s, shared
        )
