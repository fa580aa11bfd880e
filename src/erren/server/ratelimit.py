"""Flood control: per connection a token bucket; per client address and account name the
throttles of registration, guests and login; per client address the bound on open sockets.

Each message takes a token; tokens come back at ``rate`` per second up to ``burst``.  A message
that finds the bucket empty is refused (an error on the socket, nothing done) and counts a
strike; ``max_strikes`` refused messages within one refill of the bucket close the connection.

Accounts (:class:`AccountGate`): at most 30 new accounts and 30 new guests per client address
per hour, at most 30 friend requests and invites to friends per account in ten minutes, and
after 10 wrong passwords for one account name (or 30 from one address) within a
minute every further attempt — the right password too — is refused until the oldest of them is
a minute old.  Sockets (:class:`AddressSockets`): one client address holds at most
:data:`MAX_UNAUTHENTICATED_PER_ADDRESS` ``/ws`` connections that have not logged in yet and
:data:`MAX_SOCKETS_PER_ADDRESS` in all.  The counts live in the server's memory (one process).
"""

from __future__ import annotations

import enum
import math
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

__all__ = [
    "MAX_SOCKETS_PER_ADDRESS",
    "MAX_UNAUTHENTICATED_PER_ADDRESS",
    "AccessLimits",
    "AccountGate",
    "AddressSockets",
    "HeldSocket",
    "SocketCap",
    "Throttle",
    "TokenBucket",
]

MAX_UNAUTHENTICATED_PER_ADDRESS = 32
"""``/ws`` connections one client address may hold before they have logged in (each has a few
seconds to do so: ``erren.server.socket.AUTH_TIMEOUT_S``).  A browser opens one per tab and
logs in at once; a household or an office behind one address stays far below."""
MAX_SOCKETS_PER_ADDRESS = 256
"""``/ws`` connections one client address may hold in all, logged in or not (an account holds at
most 8 of them: ``erren.server.socket.MAX_SOCKETS_PER_ACCOUNT``).  Room for a school or an
office behind one NAT address; a flood of accounts from one address is held to it."""


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
    address per ``login_window_s``; ``guest_per_address`` new guests per client address per
    ``guest_window_s``; ``unauthenticated_per_address`` sockets not logged in yet and
    ``sockets_per_address`` sockets in all per client address (:class:`AddressSockets`).  A
    limit of 0 turns that throttle off."""

    register_per_address: int = 30
    register_window_s: int = 3600
    login_per_account: int = 10
    login_per_address: int = 30
    login_window_s: int = 60
    guest_per_address: int = 30
    guest_window_s: int = 3600
    unauthenticated_per_address: int = MAX_UNAUTHENTICATED_PER_ADDRESS
    sockets_per_address: int = MAX_SOCKETS_PER_ADDRESS
    friends_per_account: int = 30
    """Friend requests and invites to friends one account sends per ``friends_window_s``."""
    friends_window_s: int = 600


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
    """The throttles of the account routes: registrations and guests per address, wrong
    passwords per account and per address."""

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
        self.guest = Throttle("guest", limits.guest_per_address, limits.guest_window_s, shared)
        self.friends = Throttle(
            "friends", limits.friends_per_account, limits.friends_window_s, shared
        )


# ---------------------------------------------------------------------------- sockets
class SocketCap(enum.Enum):
    """The bound of :class:`AddressSockets` a new socket of an address ran into."""

    UNAUTHENTICATED = "unauthenticated"
    """The address holds as many sockets that have not logged in yet as it may."""
    OPEN = "open"
    """The address holds as many sockets as it may, logged in or not."""


@dataclass
class HeldSocket:
    """One socket counted for its address by :meth:`AddressSockets.holding`."""

    address: str
    logged_in: bool = field(default=False)


class AddressSockets:
    """The open ``/ws`` connections per client address: at most ``unauthenticated`` of them
    not logged in yet, and ``open`` in all (0: no bound).  A socket is counted from before its
    handshake is answered until it ends, so a refused one costs the server no more than the
    refusal."""

    def __init__(
        self,
        unauthenticated: int = MAX_UNAUTHENTICATED_PER_ADDRESS,
        open_: int = MAX_SOCKETS_PER_ADDRESS,
    ) -> None:
        self.unauthenticated = unauthenticated
        self.open = open_
        self._waiting: Counter[str] = Counter()
        self._open: Counter[str] = Counter()

    def limit(self, cap: SocketCap) -> int:
        """The bound ``cap`` stands for."""
        return self.unauthenticated if cap is SocketCap.UNAUTHENTICATED else self.open

    def waiting(self, address: str) -> int:
        """The address's sockets that have not logged in yet."""
        return self._waiting[address]

    def count(self, address: str) -> int:
        """The address's open sockets."""
        return self._open[address]

    def full(self, address: str) -> SocketCap | None:
        """The bound a new socket of ``address`` would exceed, or ``None``: it may open."""
        if 0 < self.open <= self._open[address]:
            return SocketCap.OPEN
        if 0 < self.unauthenticated <= self._waiting[address]:
            return SocketCap.UNAUTHENTICATED
        return None

    @contextmanager
    def holding(self, address: str) -> Iterator[HeldSocket]:
        """Count one socket of ``address`` while the block runs (check :meth:`full` first);
        :meth:`logged_in` moves it out of the sockets waiting to log in."""
        held = HeldSocket(address)
        self._open[address] += 1
        self._waiting[address] += 1
        try:
            yield held
        finally:
            if not held.logged_in:
                self._drop(self._waiting, address)
            self._drop(self._open, address)

    def logged_in(self, held: HeldSocket) -> None:
        """``held`` has logged in: it no longer counts against the unauthenticated bound."""
        if not held.logged_in:
            held.logged_in = True
            self._drop(self._waiting, held.address)

    @staticmethod
    def _drop(counts: Counter[str], address: str) -> None:
        counts[address] -= 1
        if counts[address] <= 0:
            del counts[address]
