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
players waiting in each room, oldest first, with their skill and the time they joined, and
picks a player's partner under the pairing rule (:mod:`erren.server.matchrule`: the closest
rating within a window that widens with the wait, never a blocked player) and the repeat
rule.  A waiting player's alarm rings when a repeat hold ends (on the game clock) or when a
window widens enough to admit another waiting player (on the queues' wall clock): he is then
paired as if he had just arrived.

**Nobody is paired with a player who is gone.**  A waiting player's request holds his place;
when its connection closes (the tab closed or reloaded, the page hidden: the browser client
drops its request then) he is *away*: he keeps his place for :data:`QUEUE_GRACE_S` wall-clock
seconds (``TableConfig.queue_grace_s``, on the queues' own clock, which a test injects), nobody
is paired with him meanwhile, and a request of his for the same room resumes the wait in that
place; when the grace ends he leaves the queue.  Any other seat request of his ends the wait at
once (an away wait never refuses him with ``waiting``).  A player whose pairing was dissolved
because the other did not come (:mod:`erren.server.quickmatch`) is put back at the front,
away until his client asks again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from erren.server.clock import Clock, Timer
from erren.server.matchrule import START_SKILL, Candidate, Rule

if TYPE_CHECKING:
    from erren.server.table import TableView

__all__ = [
    "QUEUE_GRACE_S",
    "REPEAT_HOLD_S",
    "SHOW_UP_S",
    "ClientGoneError",
    "Queues",
    "RecentPairs",
    "Search",
    "Waiter",
]

REPEAT_HOLD_S = 120.0
"""Game seconds after a quick-match pairing before the same two accounts are paired again."""
QUEUE_GRACE_S = 5.0
"""Wall-clock seconds an away player keeps his place in the queue: long enough for a reload on
a slow phone, short enough that nobody waits long behind a closed tab."""
SHOW_UP_S = 8.0
"""Wall-clock seconds both players of a new quick match have to join their table
(:mod:`erren.server.quickmatch`): a client joins within a second of its answer."""
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


class ClientGoneError(Exception):
    """The waiting request's client closed its connection: the player is away (his place is
    kept for the grace), and nobody reads the request's answer."""


class Alarm(Enum):
    """What ended one wait of a waiting request (:meth:`Queues.wait`)."""

    PAIRED = "paired"
    HOLD_OVER = "hold-over"
    WIDENED = "widened"
    GONE = "gone"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class Search:
    """Where an account's quick-match search is: its ``room``, and whether it is ``away``."""

    room: str
    away: bool


@dataclass(eq=False)
class Waiter:
    """A player waiting in a room's queue; ``future`` is his seat once he is paired; ``skill``
    his rating's ``mu`` in the room's family (``None``: put back after a dissolved pairing,
    :mod:`erren.server.matchrule`); ``since`` when he joined the queue (the queues' wall
    clock); ``away`` the end of his grace while no request of his waits (``None``: one
    does)."""

    user_id: int
    name: str
    future: asyncio.Future[tuple[TableView, int]] = field(repr=False)
    skill: float | None = START_SKILL
    since: float = 0.0
    away: Timer | None = field(default=None, repr=False)

    @property
    def live(self) -> bool:
        return not self.future.done()

    @property
    def present(self) -> bool:
        """Waiting, and his request with him: he may be paired."""
        return self.live and self.away is None


class Queues:
    """The players waiting in each room (oldest first) and :attr:`recent` pairings; an away
    player's grace and every wait the pairing ``rule`` counts run on ``wall`` (real seconds
    unless a test injects its clock)."""

    def __init__(
        self,
        recent: RecentPairs,
        *,
        wall: Clock | None = None,
        grace_s: float = QUEUE_GRACE_S,
        rule: Rule | None = None,
    ) -> None:
        self.recent = recent
        self.wall = wall or Clock()
        self.grace_s = grace_s
        self.rule = rule or Rule()
        """The pairing rule (:mod:`erren.server.matchrule`), with its block list."""
        self.rooms: dict[str, list[Waiter]] = {}

    def _find(self, user_id: int) -> tuple[str, Waiter] | None:
        for room, waiters in self.rooms.items():
            for waiter in waiters:
                if waiter.user_id == user_id and waiter.live:
                    return room, waiter
        return None

    def waiting_in(self, user_id: int) -> str | None:
        """The room the account waits in (``None``: none)."""
        found = self._find(user_id)
        return None if found is None else found[0]

    def search(self, user_id: int) -> Search | None:
        """The account's search: its room and whether it is away (``None``: none)."""
        found = self._find(user_id)
        return None if found is None else Search(found[0], found[1].away is not None)

    def add(
        self,
        room: str,
        user_id: int,
        name: str,
        *,
        front: bool = False,
        skill: float | None = START_SKILL,
    ) -> Waiter:
        """Queue the player, of ``skill``, at the back of ``room``'s queue (``front``: at its
        front); his wait counts from now."""
        future: asyncio.Future[tuple[TableView, int]] = asyncio.get_running_loop().create_future()
        waiter = Waiter(user_id, name, future, skill, self.wall.now())
        queue = self.rooms.setdefault(room, [])
        if front:
            queue.insert(0, waiter)
        else:
            queue.append(waiter)
        return waiter

    def step_away(self, room: str, waiter: Waiter) -> None:
        """No request of the waiter waits any more: he keeps his place for the grace, paired
        with nobody, then leaves the queue unless a request of his resumed the wait."""
        if waiter.away is None and waiter.live:
            waiter.away = self.wall.call_later(self.grace_s, lambda: self._expire(room, waiter))

    def _expire(self, room: str, waiter: Waiter) -> None:
        if waiter.away is not None:
            self._give_up(room, waiter)

    def resume(self, room: str, user_id: int) -> Waiter | None:
        """The account's away wait in ``room``, present again in its place (``None``: it has
        none there)."""
        for waiter in self.rooms.get(room, []):
            if waiter.user_id == user_id and waiter.live and waiter.away is not None:
                waiter.away.cancel()
                waiter.away = None
                return waiter
        return None

    def yield_away(self, user_id: int) -> bool:
        """End the account's wait if it is away (another request of his comes first); whether
        it was."""
        found = self._find(user_id)
        if found is None or found[1].away is None:
            return False
        self._give_up(*found)
        return True

    def drop(self, room: str, waiter: Waiter) -> None:
        queue = self.rooms.get(room, [])
        if waiter in queue:
            queue.remove(waiter)

    def waited(self, since: float) -> float:
        """Seconds waited since ``since`` (the wall clock's)."""
        return (self.wall.now() - since) / self.wall.scale

    def _present(self, room: str) -> list[Waiter]:
        """The players present in ``room``'s queue, oldest first (players no longer waiting
        are dropped)."""
        queue = self.rooms.get(room, [])
        queue[:] = [w for w in queue if w.live]
        return [w for w in queue if w.present]

    def _seeker(self, user_id: int, skill: float | None, since: float | None) -> Candidate:
        return Candidate(user_id, skill, 0.0 if since is None else self.waited(since))

    def partner(
        self,
        room: str,
        user_id: int,
        skill: float | None = START_SKILL,
        since: float | None = None,
    ) -> Waiter | None:
        """Take the player waiting in ``room`` whom ``user_id`` (of ``skill``, waiting since
        ``since``; ``None``: just arrived) is paired with now under the rule out of the queue
        (players no longer waiting are dropped on the way; the account's own entry, recent
        opponents, blocked and away players stay)."""
        present = self._present(room)
        waiting = [Candidate(w.user_id, w.skill, self.waited(w.since)) for w in present]
        chosen = self.rule.choose(self._seeker(user_id, skill, since), waiting, self.recent.held)
        if chosen is None:
            return None
        waiter = present[chosen]
        self.rooms[room].remove(waiter)
        return waiter

    def widens(self, room: str, waiter: Waiter) -> float | None:
        """Seconds (wall clock) until the window of ``waiter`` and another player present in
        ``room`` will admit a gap it does not admit now (``None``: none will)."""
        waiting = [Candidate(w.user_id, w.skill, self.waited(w.since)) for w in self._present(room)]
        return self.rule.next_chance(
            self._seeker(waiter.user_id, waiter.skill, waiter.since), waiting
        )

    def hold(self, room: str, user_id: int) -> float | None:
        """Game seconds until ``user_id`` may meet one of the recent opponents waiting in
        ``room`` (``None``: none waits there)."""
        blocks = self.rule.blocks
        held = [
            self.recent.held(user_id, w.user_id)
            for w in self.rooms.get(room, [])
            if w.present and w.user_id != user_id and not blocks.blocked(user_id, w.user_id)
        ]
        return min((h for h in held if h > 0), default=None)

    async def wait(
        self,
        room: str,
        waiter: Waiter,
        wait_s: float,
        rematch: Callable[[Waiter], Awaitable[TableView | None]],
        gone: asyncio.Future[None] | None = None,
    ) -> tuple[TableView, int]:
        """Wait until ``waiter`` is paired: by a player who arrives (his table, seat 0), or,
        when the hold with a recent opponent waiting in ``room`` ends or his window widens to
        admit another waiting player, by ``rematch(waiter)`` (the lobby pairs him under the
        rule now: that table, seat 1; ``None``: nobody).  :class:`TimeoutError` when ``wait_s``
        seconds have passed (he has left the queue, as he has when this coroutine is
        cancelled); :class:`ClientGoneError` when ``gone`` is done first (the request's client
        closed its connection: he is away)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + wait_s
        try:
            while waiter.live and (left := end - loop.time()) > 0:
                alarm = await self._alarm(room, waiter, left, gone)
                if alarm is Alarm.GONE:
                    self.step_away(room, waiter)
                    raise ClientGoneError
                if alarm in (Alarm.HOLD_OVER, Alarm.WIDENED):
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

    async def _alarm(
        self, room: str, waiter: Waiter, left: float, gone: asyncio.Future[None] | None
    ) -> Alarm:
        """Wait at most ``left`` real seconds for the waiter's pairing, the end of his next
        hold (:meth:`hold`, on the clock), the widening of a window (:meth:`widens`, on the
        wall clock) or his client's going (``gone``): which came."""
        hold = self.hold(room, waiter.user_id)
        widens = self.widens(room, waiter)
        loop = asyncio.get_running_loop()
        rung: asyncio.Future[None] = loop.create_future()
        widened: asyncio.Future[None] = loop.create_future()

        def ring(alarm: asyncio.Future[None]) -> None:
            if not alarm.done():
                alarm.set_result(None)

        timers = [
            self.recent.clock.call_later(hold, lambda: ring(rung)) if hold is not None else None,
            self.wall.call_later(widens, lambda: ring(widened)) if widens is not None else None,
        ]
        try:
            either: set[asyncio.Future[Any]] = {waiter.future, rung, widened}
            if gone is not None:
                either.add(gone)
            await asyncio.wait(either, timeout=left, return_when=asyncio.FIRST_COMPLETED)
            if not waiter.live:
                return Alarm.PAIRED
            if gone is not None and gone.done():
                return Alarm.GONE
            if rung.done():
                return Alarm.HOLD_OVER
            return Alarm.WIDENED if widened.done() else Alarm.TIMEOUT
        finally:
            for timer in timers:
                if timer is not None:
                    timer.cancel()
            rung.cancel()
            widened.cancel()

    def _give_up(self, room: str, waiter: Waiter) -> None:
        self.drop(room, waiter)
        if waiter.away is not None:
            waiter.away.cancel()
            waiter.away = None
        waiter.future.cancel()

    def cancel(self, user_id: int, error: Exception) -> bool:
        """Take the account out of every queue, its request answered with ``error`` (an away
        wait, which no request reads, just ends); whether it was waiting."""
        found = self._find(user_id)
        if found is None:
            return False
        room, waiter = found
        if waiter.away is not None:
            self._give_up(room, waiter)
            return True
        self.drop(room, waiter)
        waiter.future.set_exception(error)
        return True

    def close(self) -> None:
        """The server stops: every waiting request is cancelled, every grace too."""
        for queue in self.rooms.values():
            for waiter in queue:
                if waiter.away is not None:
                    waiter.away.cancel()
                    waiter.away = None
                if waiter.live:
                    waiter.future.cancel()
