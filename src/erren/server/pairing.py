"""Quick match's queues on a single server, and the rule against repeat pairings.

**The repeat rule.**  Quick match does not pair the same two accounts again within
:data:`REPEAT_HOLD_S` (two minutes of game time, ``TableConfig.repeat_hold_s``) of their last
pairing, in any room.  A player who arrives while only such a recent opponent waits is queued
instead (anyone else who arrives meanwhile is paired as usual, with the oldest player waiting
whom he may meet); when the hold ends and both still wait, the one who was held back is paired
with the other at once, the other in seat 0 as the one who waited.  So a farm of fresh accounts
that quick-match one account and escape at once gets each of its puppets paired with it once
per two minutes instead of instantly, over and over; two friends alone on a quiet server wait
at most two minutes for a rematch, and not at all after a match that lasted longer than that.
A cluster keeps the same rule in Redis (:mod:`erren.server.cluster.matching`).

:class:`RecentPairs` remembers when each two accounts were last paired (on the server's
:class:`~erren.server.clock.Clock`, so a test moves time by hand); :class:`Queues` holds the
players waiting in each room, oldest first, and picks a player's partner under the rule.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from erren.server.clock import Clock

if TYPE_CHECKING:
    from erren.server.table import TableView

__all__ = ["REPEAT_HOLD_S", "Queues", "RecentPairs", "Waiter"]

REPEAT_HOLD_S = 120.0
"""Game seconds after a quick-match pairing before the same two accounts are paired again."""
HOLD_PRECISION_S = 0.001
"""Holds are counted to the game millisecond: a hold with less left has ended (the clock's
float arithmetic does not keep a player waiting for a nanosecond's timer)."""


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


class RecentPairs:
    """When quick match last paired each two accounts (wall-clock seconds of ``clock``), for
    as long as it matters: entries older than the hold are forgotten."""

    def __init__(self, clock: Clock, hold_s: float = REPEAT_HOLD_S) -> None:
        self.clock = clock
        self.hold_s = hold_s
        self._met: dict[tuple[int, int], float] = {}
        """Insertion order is pairing order: the oldest entries are forgotten first."""

    def paired(self, a: int, b: int) -> None:
        """``a`` and ``b`` were just paired."""
        self._forget_old()
        key = _pair(a, b)
        self._met.pop(key, None)
        if self.hold_s > 0:
            self._met[key] = self.clock.now()

    def held(self, a: int, b: int) -> float:
        """Game seconds before ``a`` and ``b`` may be paired again (``0.0``: now)."""
        met = self._met.get(_pair(a, b))
        if met is None:
            return 0.0
        left = self.hold_s - (self.clock.now() - met) / self.clock.scale
        return left if left >= HOLD_PRECISION_S else 0.0

    def _forget_old(self) -> None:
        for key in list(self._met):
            if self.held(*key) > 0:
                return
            del self._met[key]


@dataclass(eq=False)
class Waiter:
    """A player waiting in a room's queue; ``future`` is his seat once he is paired."""

    user_id: int
    name: str
    future: asyncio.Future[tuple[TableView, int]] = field(repr=False)

    @property
    def live(self) -> bool:
        return not self.future.done()


class Queues:
    """The players waiting in each room (oldest first) and :attr:`recent` pairings."""

    def __init__(self, recent: RecentPairs) -> None:
        self.recent = recent
        self.rooms: dict[str, list[Waiter]] = {}

    def waiting_in(self, user_id: int) -> str | None:
        """The room the account waits in (``None``: none)."""
        for room, waiters in self.rooms.items():
            if any(w.user_id == user_id and w.live for w in waiters):
                return room
        return None

    def add(self, room: str, user_id: int, name: str) -> Waiter:
        future: asyncio.Future[tuple[TableView, int]] = asyncio.get_running_loop().create_future()
        waiter = Waiter(user_id, name, future)
        self.rooms.setdefault(room, []).append(waiter)
        return waiter

    def drop(self, room: str, waiter: Waiter) -> None:
        queue = self.rooms.get(room, [])
        if waiter in queue:
            queue.remove(waiter)

    def partner(self, room: str, user_id: int) -> Waiter | None:
        """Take the oldest player waiting in ``room`` whom ``user_id`` may meet now out of the
        queue (players no longer waiting are dropped on the way; the account's own entry and
        recent opponents stay)."""
        queue = self.rooms.get(room, [])
        for waiter in list(queue):
            if not waiter.live:
                queue.remove(waiter)
            elif waiter.user_id != user_id and self.recent.held(user_id, waiter.user_id) == 0:
                queue.remove(waiter)
                return waiter
        return None

    def hold(self, room: str, user_id: int) -> float | None:
        """Game seconds until ``user_id`` may meet one of the recent opponents waiting in
        ``room`` (``None``: none waits there)."""
        held = [
            self.recent.held(user_id, w.user_id)
            for w in self.rooms.get(room, [])
            if w.live and w.user_id != user_id
        ]
        return min((h for h in held if h > 0), default=None)

    async def wait(
        self,
        room: str,
        waiter: Waiter,
        wait_s: float,
        rematch: Callable[[Waiter], Awaitable[TableView | None]],
    ) -> tuple[TableView, int]:
        """Wait until ``waiter`` is paired: by a player who arrives (his table, seat 0), or,
        when the hold with a recent opponent waiting in ``room`` ends, by ``rematch(waiter)``
        (the lobby pairs him with the oldest player he may meet now: that table, seat 1;
        ``None``: nobody).  :class:`TimeoutError` when ``wait_s`` seconds have passed (he has
        left the queue, as he has when this coroutine is cancelled)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + wait_s
        try:
            while waiter.live and (left := end - loop.time()) > 0:
                if await self._alarm(room, waiter, left):
                    table = await rematch(waiter)
                    if table is not None:
                        return table, 1
        except asyncio.CancelledError:
            if waiter.future.done() and not waiter.future.cancelled():
                return waiter.future.result()  # paired just now: the seat stands
            self._give_up(room, waiter)
            raise
        if not waiter.live:
            return waiter.future.result()
        self._give_up(room, waiter)
        raise TimeoutError

    async def _alarm(self, room: str, waiter: Waiter, left: float) -> bool:
        """Wait at most ``left`` real seconds for the waiter's pairing or for the end of his
        next hold (:meth:`hold`, on the clock); whether a hold ended first."""
        hold = self.hold(room, waiter.user_id)
        rung: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def ring() -> None:
            if not rung.done():
                rung.set_result(None)

        timer = None if hold is None else self.recent.clock.call_later(hold, ring)
        try:
            either: set[asyncio.Future[Any]] = {waiter.future, rung}
            await asyncio.wait(either, timeout=left, return_when=asyncio.FIRST_COMPLETED)
            return rung.done() and waiter.live
        finally:
            if timer is not None:
                timer.cancel()
            rung.cancel()

    def _give_up(self, room: str, waiter: Waiter) -> None:
        self.drop(room, waiter)
        waiter.future.cancel()

    def cancel(self, user_id: int, error: Exception) -> bool:
        """Take the account out of every queue, its request answered with ``error``; whether
        it was waiting."""
        for queue in self.rooms.values():
            for waiter in list(queue):
                if waiter.user_id == user_id and waiter.live:
                    queue.remove(waiter)
                    waiter.future.set_exception(error)
                    return True
        return False

    def close(self) -> None:
        """The server stops: every waiting request is cancelled."""
        for queue in self.rooms.values():
            for waiter in queue:
                if waiter.live:
                    waiter.future.cancel()
