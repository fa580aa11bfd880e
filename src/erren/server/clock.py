"""Timers of the table runtime, behind an injectable clock.

A :class:`Clock` schedules callbacks after a number of *game* seconds.  ``scale`` turns game
seconds into real ones, so tests run a 20-second turn timer in 20 ms (``Clock(scale=0.001)``)
without changing a rule.  Callbacks run on the event loop (``loop.call_later``): a timer costs
one heap entry, not a task, which keeps a thousand tables cheap.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

__all__ = ["Clock", "Timer"]


class Timer:
    """A scheduled callback; :meth:`cancel` is idempotent."""

    __slots__ = ("_handle", "deadline")

    def __init__(self, handle: asyncio.TimerHandle | None, deadline: float) -> None:
        self._handle = handle
        self.deadline = deadline
        """When it fires, on the clock's :meth:`Clock.now` scale (real seconds)."""

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None


class Clock:
    """Real time, with game seconds multiplied by ``scale``."""

    def __init__(self, scale: float = 1.0) -> None:
        if scale <= 0:
            raise ValueError("the clock scale must be positive")
        self.scale = scale

    def now(self) -> float:
        """Wall-clock seconds since the epoch (for deadlines sent to clients)."""
        return time.time()

    def real(self, game_seconds: float) -> float:
        """The real duration of ``game_seconds``."""
        return game_seconds * self.scale

    def call_later(self, game_seconds: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` after ``game_seconds`` (scaled) on the running loop."""
        delay = self.real(game_seconds)
        loop = asyncio.get_running_loop()
        return Timer(loop.call_later(delay, callback), self.now() + delay)

    async def sleep(self, game_seconds: float) -> None:
        await asyncio.sleep(self.real(game_seconds))
