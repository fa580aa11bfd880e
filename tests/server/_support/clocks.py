"""A clock that moves only when a test says so: the repeat-pairing holds of quick match are
tested to the second without waiting two minutes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from erren.server.clock import Clock, Timer

__all__ = ["ManualClock"]

NEVER_S = 10**9
"""The real delay of the loop timer that only carries a manual timer's cancellation."""


@dataclass
class _Due:
    deadline: float
    handle: asyncio.TimerHandle
    callback: Callable[[], None]


class ManualClock(Clock):
    """:class:`Clock` whose :meth:`now` and timers move only by :meth:`advance` (real seconds,
    ``scale`` as the real clock's)."""

    def __init__(self, scale: float = 1.0, start: float = 1_000_000.0) -> None:
        super().__init__(scale)
        self.t = start
        self._due: list[_Due] = []

    def now(self) -> float:
        return self.t

    def call_later(self, game_seconds: float, callback: Callable[[], None]) -> Timer:
        deadline = self.t + self.real(game_seconds)
        handle = asyncio.get_running_loop().call_later(NEVER_S, callback)  # cancel state only
        self._due.append(_Due(deadline, handle, callback))
        return Timer(handle, deadline)

    def pending(self) -> list[float]:
        """The deadlines of the timers not yet fired nor cancelled, soonest first."""
        return sorted(d.deadline for d in self._due if not d.handle.cancelled())

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds`` (real) and fire the timers then due, in order."""
        self.t += seconds
        due = sorted(
            (d for d in self._due if d.deadline <= self.t and not d.handle.cancelled()),
            key=lambda d: d.deadline,
        )
        for d in due:
            d.handle.cancel()
            d.callback()
        self._due = [d for d in self._due if not d.handle.cancelled()]
