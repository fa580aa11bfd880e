"""The quick-match queues every node shares, and the one seat per account every node respects.

**One reservation per account.**  ``{prefix}seat:{user}`` is the account's one place in the
whole cluster: the id of the table it sits at (any kind: quick match, private, against the
computer, campaign, joined by invite), or ``queue:ROOM`` while it waits for a quick match in
``ROOM``; no key, no place.  Every change of it is one Lua script, run atomically by Redis, that
looks at what the key holds first: :meth:`Matching.take_seat` (a node seats a player at a table
it owns: refused while the account sits elsewhere or waits), :meth:`Matching.join` (refused
while it sits or waits; pairs, or queues), :meth:`Matching.cancel`, :meth:`Matching.leave` and
:meth:`Matching.free_seats` (only a key that still holds that wait or that table is deleted).
So of two requests of one account on two nodes, whichever script runs first wins and the other
is refused (409 ``seated`` with the table, or ``waiting``), whatever their kinds.  A seat
expires :attr:`Matching.seat_ms` after its table's lease was last renewed (the owner renews it
with the lease), a wait :data:`MARGIN_MS` after the wait should have ended: a dead node's
players are free again after a while, never locked out for good.

**The queues.**  Per room a Redis list ``{prefix}q:{room}`` holds the waiting players
(``USER|NAME``, oldest first; an entry whose account no longer waits there is dropped when met)
and a hash ``{prefix}q:{room}#skill`` each one's skill and the start of his wait
(``USER`` → ``SKILL|SINCE_MS``; none for a player put back after a dissolved pairing).
:meth:`Matching.join` pairs the player under the pairing rule (:mod:`erren.server.matchrule`:
the closest skill within the wider of the two windows, never a blocked player — the node
hands the script the accounts the player is barred from — nor a recent opponent), seats both
at the table id the caller proposes and leaves the news in the waiting player's inbox
``{prefix}inbox:{user}``; or it queues the player (emptying his inbox of a past wait's news).
Two players are paired exactly once, by whichever node's script runs second; that node creates
the table.  :meth:`Matching.cancel`, from any node, takes a waiting player out of his queue and
leaves ``cancelled`` in his inbox, which wakes his node's wait; run by Redis one after the
other, a cancel and a pairing never both succeed.

**Away players** (:mod:`erren.server.quickmatch` has the rule).  A waiting player whose request's
client went away keeps ``seat:{user}`` = ``queue:ROOM`` and his entry in the queue, and gets
``{prefix}away:{user}`` (a random token; :meth:`Matching.step_away`): the scripts pass him over
when they pair, a join of his in the same room resumes his wait in its place (deleting the
key), and any other seat request of his ends the wait first (:meth:`Matching.take_seat`, a
join in another room).  His node ends the wait when the grace is over
(:meth:`Matching.drop_away`, only while the token is still there); both keys expire
:data:`MARGIN_MS` after that in any case (a node that died meanwhile).  A dissolved pairing's
player is put back at the front of the queue the same way (:meth:`Matching.requeue_front`).

**Repeat pairings** (:mod:`erren.server.pairing` has the rule): ``{prefix}met:{A}:{B}`` holds
when the two accounts were last paired (ms, the pairing node's clock), expiring with the hold
(:attr:`Matching.repeat_ms`).  A player who is queued is told the milliseconds until his next
chance — the first moment a hold ends or a window widens so that he may be paired with a
player waiting now — and his node's :meth:`Matching.wait` then tries the pairing again (the
same script, for a player already waiting), so two waiting players are paired as soon as the
rule allows it: each pair is watched by the node of the later of the two.

The scripts build key names from the prefix (one Redis, not Redis Cluster's hash slots).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from erren.server.cluster import queuescripts as scripts
from erren.server.cluster.waits import bounded
from erren.server.matchrule import START_SKILL, Rule
from erren.server.pairing import REPEAT_HOLD_S

__all__ = [
    "CANCELLED",
    "MARGIN_MS",
    "QUEUE_MARK",
    "Again",
    "Away",
    "Cancelled",
    "Found",
    "Joined",
    "Matching",
    "Outcome",
    "Paired",
    "Place",
    "PlaceKind",
    "Search",
]

MARGIN_MS = 2_000
"""A wait's reservation outlives the wait by this much: the waiting node takes it back itself;
the expiry is for a node that died while its player waited."""
QUEUE_MARK = "queue:"
"""What a waiting account's ``seat:{user}`` holds before the room's id (a table id never
starts so)."""
INBOX_MS = 60_000
"""A player's inbox outlives its last news by this much (his node reads it at once)."""


class Outcome(StrEnum):
    """What a script of the queues did (:class:`Joined`)."""

    PAIRED = "paired"
    """Paired with a waiting player (:attr:`Joined.opponent`), both seated at the table."""
    QUEUED = "queued"
    """Queued in the room (or, trying again, still waiting there)."""
    WAITING = "waiting"
    """Refused: the account already waits, in room :attr:`Joined.where`."""
    SEATED = "seated"
    """Refused: the account already sits at table :attr:`Joined.where`."""
    CANCELLED = "cancelled"
    """The wait in room :attr:`Joined.where` is cancelled."""
    IDLE = "idle"
    """Nothing to cancel: the account waits nowhere and sits nowhere."""
    GONE = "gone"
    """Trying again: the account no longer waits there (paired or cancelled meanwhile: its
    inbox has the news; or its wait expired)."""
    RESUMED = "resumed"
    """The account's away wait in the room is its request's again, in its place (still
    waiting; :attr:`Joined.held_s` as for ``queued``)."""
    LOST = "lost"
    """Only a resume was asked, and the account has no wait kept there."""


class PlaceKind(Enum):
    """What an account's one place in the cluster is."""

    SEATED = "seated"
    WAITING = "waiting"


@dataclass(frozen=True)
class Place:
    """Where an account is: seated at table ``where``, or waiting in room ``where``."""

    kind: PlaceKind
    where: str

    @classmethod
    def parse(cls, value: str) -> Place:
        """From what ``seat:{user}`` holds."""
        if value.startswith(QUEUE_MARK):
            return cls(PlaceKind.WAITING, value.removeprefix(QUEUE_MARK))
        return cls(PlaceKind.SEATED, value)


@dataclass(frozen=True)
class Search:
    """An account's quick-match search in the cluster: its ``room``, and whether it is
    ``away``."""

    room: str
    away: bool


@dataclass(frozen=True)
class Away:
    """The wait's client went away and the account is marked away with ``token``
    (:meth:`Matching.step_away`); its node ends the wait after the grace."""

    token: str


@dataclass(frozen=True)
class Paired:
    """The player is paired with ``user_id`` (``name``), who waited: seat 0 is theirs."""

    user_id: int
    name: str


@dataclass(frozen=True)
class Found:
    """A waiting player was paired: at ``table_id`` (another node's, or this one's), seat 0,
    against ``opponent`` (seat 1), whose node made the table."""

    table_id: str
    opponent: Paired

    @classmethod
    def parse(cls, text: str) -> Found:
        table_id, user, name = text.split("|", 2)
        return cls(table_id, Paired(int(user), name))


@dataclass(frozen=True)
class Cancelled:
    """The player's wait was cancelled (by :meth:`Matching.cancel`, from any node)."""


CANCELLED = Cancelled()


@dataclass(frozen=True)
class Joined:
    """What :meth:`Matching.join` did: ``paired`` (:attr:`opponent` set, both seated at table
    :attr:`where`), ``queued`` (in room :attr:`where`; :attr:`held_s` set when a recent
    opponent waits there: the seconds until the first such hold ends), ``waiting`` (already
    waiting in room :attr:`where`) or ``seated`` (at table :attr:`where`); what
    :meth:`Matching.cancel` did: ``cancelled`` (he waited in room :attr:`where`), ``seated``
    or ``idle``."""

    kind: Outcome
    where: str = ""
    opponent: Paired | None = None
    held_s: float | None = None


@dataclass(frozen=True)
class Again:
    """How a waiting player's node tries his pairing again (:meth:`Matching.wait`): his
    name, a fresh table id for each try (his node makes the table if he is paired), the
    seconds until the first try (:attr:`Joined.held_s`) and the accounts he is barred from."""

    name: str
    new_table: Callable[[], str]
    after_s: float
    barred: frozenset[int] = frozenset()


class Matching:
    def __init__(
        self,
        client: aioredis.Redis,
        prefix: str,
        *,
        seat_ms: int = 15_000,
        blocking: aioredis.Redis | None = None,
        timeout_s: float = 2.0,
    ) -> None:
        self.redis = client
        self.blocking = blocking or client
        self.timeout_s = timeout_s
        self.prefix = prefix
        self.seat_ms = seat_ms
        """A seat outlives the last renewal of its table's lease by this long (the owner renews
        it with the lease): a dead node's players are free again once it has passed, unless
        another node took the table over (and re-took the seats) meanwhile."""
        self.repeat_ms = round(REPEAT_HOLD_S * 1000)
        """How long after their pairing two accounts are not paired again (the node's lobby
        sets it from its table settings and clock)."""
        self.now: Callable[[], float] = time.time
        """Wall-clock seconds (the node's lobby sets its clock's)."""
        self._join = client.register_script(scripts.JOIN)
        self._leave = client.register_script(scripts.LEAVE)
        self._free = client.register_script(scripts.FREE)
        self._cancel = client.register_script(scripts.CANCEL)
        self._take = client.register_script(scripts.TAKE)
        self._away = client.register_script(scripts.AWAY)
        self._drop_away = client.register_script(scripts.DROP_AWAY)
        self._requeue = client.register_script(scripts.REQUEUE)
        self._unrequeue = client.register_script(scripts.UNREQUEUE)
        self.rule = Rule()
        """The pairing rule's window and whether it pairs by skill (the node's lobby sets its
        queues'; the blocks reach the script as each player's barred accounts)."""
        self.grace_ms = 5_000
        """How long an away player keeps his place (the node's lobby sets it from its table
        settings): his keys outlive it by :data:`MARGIN_MS`, his node ends the wait at it."""

    async def join(
        self,
        user_id: int,
        name: str,
        room: str,
        table_id: str,
        wait_s: float,
        *,
        resume: bool = False,
        skill: float = START_SKILL,
        barred: frozenset[int] = frozenset(),
    ) -> Joined:
        """Pair the player, of ``skill``, under the rule with one waiting in ``room`` (both
        are then seated at ``table_id``; never one of ``barred``), or queue him for
        ``wait_s`` seconds (``held_s``: the seconds until his next chance, when there is
        one).  His away wait in ``room`` is resumed in its place (``resumed``, or
        ``paired``); ``resume``: only that (``lost`` when none is kept; ``waiting``/``seated``
        when he is elsewhere)."""
        return await self._try(
            user_id, name, room, table_id, wait_s=wait_s, resume=resume, skill=skill, barred=barred
        )

    async def join_again(
        self,
        user_id: int,
        name: str,
        room: str,
        table_id: str,
        barred: frozenset[int] = frozenset(),
    ) -> Joined:
        """The player waits in ``room`` and his next chance has come (a hold ended, a window
        widened): pair him now as :meth:`join` would (``paired``, his node makes the table),
        or ``queued`` (still waiting; ``held_s`` as :meth:`join`'s), or ``gone`` (he no longer
        waits there)."""
        return await self._try(user_id, name, room, table_id, again=True, barred=barred)

    async def _try(
        self,
        user_id: int,
        name: str,
        room: str,
        table_id: str,
        *,
        wait_s: float = 0,
        again: bool = False,
        resume: bool = False,
        skill: float = START_SKILL,
        barred: frozenset[int] = frozenset(),
    ) -> Joined:
        wait_ms = max(1, round(wait_s * 1000)) + MARGIN_MS  # the waiter leaves by himself
        now_ms = round(self.now() * 1000)
        window = self.rule.window
        answer = await self._join(
            args=[
                *(self.prefix, user_id, name, room, wait_ms, table_id, self.seat_ms),
                *(now_ms, self.repeat_ms, int(again), INBOX_MS, int(resume)),
                *(_lua(skill), _lua(window.base), _lua(window.per_s)),
                _lua(window.longest_s * 1000),
                ",".join(str(u) for u in sorted(barred)),
                int(self.rule.by_skill),
            ]
        )
        kind, value = Outcome(answer[0]), str(answer[1])
        if kind is Outcome.PAIRED:
            other, _, other_name = value.partition("|")
            return Joined(kind, table_id, Paired(int(other), other_name))
        if kind in (Outcome.QUEUED, Outcome.RESUMED) and int(answer[2]) >= 0:
            return Joined(kind, value, held_s=int(answer[2]) / 1000)
        return Joined(kind, value)

    async def wait(
        self,
        user_id: int,
        room: str,
        wait_s: float,
        again: Again | None = None,
        gone: asyncio.Future[None] | None = None,
    ) -> Found | Cancelled | Joined | Away | None:
        """Wait (queued by :meth:`join`) until paired or cancelled (:meth:`cancel`, from any
        node); ``None`` when ``wait_s`` passed (the player has left the queue, as he has when
        this coroutine is cancelled).  With ``again`` (a chance was announced: a hold with a
        recent opponent or a window), his pairing is tried again at each chance
        (:meth:`join_again`): a
        ``paired`` :class:`Joined` when that paired him (his node makes the table).  When
        ``gone`` is done first (his request's client went away) he is marked away
        (:meth:`step_away`): :class:`Away`, and he is still in the queue."""
        inbox = f"{self.prefix}inbox:{user_id}"
        loop = asyncio.get_running_loop()
        end = loop.time() + max(wait_s, 0.01)
        after = None if again is None else again.after_s
        try:
            while True:
                left = end - loop.time()
                step = max(left if after is None else min(after, left), 0.01)
                found = await self._next(user_id, room, inbox, step, gone)
                if isinstance(found, Away):
                    return found
                if found is not None:
                    return _news(str(found[1]))
                if again is None or after is None or after >= left:
                    break
                joined = await self.join_again(
                    user_id, again.name, room, again.new_table(), again.barred
                )
                if joined.kind is Outcome.PAIRED:
                    return joined
                after = joined.held_s  # None: no hold left (or news in the inbox)
        except asyncio.CancelledError:
            await asyncio.shield(self.leave(user_id, room))
            raise
        if await self.leave(user_id, room):
            return None
        # paired or cancelled meanwhile (the script left its news in the inbox), or expired
        late = await self.redis.lpop(inbox)
        return None if late is None else _news(str(late))

    async def _next(
        self, user_id: int, room: str, inbox: str, step: float, gone: asyncio.Future[None] | None
    ) -> Any:
        """The inbox's next news within ``step`` seconds (``None``: none came), or
        :class:`Away` when ``gone`` came first and the player was still waiting (else the
        news of his pairing or cancel is on its way: awaited)."""
        popped = asyncio.ensure_future(
            bounded(self.blocking.blpop([inbox], timeout=step), step, self.timeout_s)
        )
        try:
            watched: set[asyncio.Future[Any]] = {popped} if gone is None else {popped, gone}
            await asyncio.wait(watched, return_when=asyncio.FIRST_COMPLETED)
            if not popped.done():
                token = await self.step_away(user_id, room)
                if token is not None:  # nothing can reach the inbox now but a cancel
                    popped.cancel()
                    with contextlib.suppress(asyncio.CancelledError, RedisError):
                        await popped
                    return Away(token)
            return await popped
        except asyncio.CancelledError:
            popped.cancel()
            raise

    async def step_away(self, user_id: int, room: str) -> str | None:
        """Mark the player, who waits in ``room``, away: his place is kept, nobody is paired
        with him, for :attr:`grace_ms` (:meth:`drop_away` ends it); the token, or ``None``
        when he no longer waits there (paired or cancelled meanwhile)."""
        token = secrets.token_hex(8)
        ttl = self.grace_ms + MARGIN_MS
        done = await self._away(args=[self.prefix, user_id, room, token, ttl])
        return token if done else None

    async def drop_away(self, user_id: int, room: str, token: str) -> bool:
        """The grace of the away player is over: he leaves the queue, unless he came back
        (or went elsewhere) since he was marked away with ``token``; whether he left."""
        return bool(await self._drop_away(args=[self.prefix, user_id, room, token]))

    async def requeue_front(self, user_id: int, name: str, room: str, table_id: str) -> str | None:
        """Put the player, seated at ``table_id`` (a dissolved pairing's), back at the front
        of ``room``'s queue, away until he asks again: the away token, or ``None`` when he
        does not sit there any more."""
        token = secrets.token_hex(8)
        ttl = self.grace_ms + MARGIN_MS
        args: list[str | int] = [self.prefix, user_id, name, room, table_id, token, ttl]
        return token if await self._requeue(args=args) else None

    async def unrequeue(self, user_id: int, room: str, table_id: str, token: str) -> bool:
        """Undo :meth:`requeue_front` (the pairing stands after all): seated at ``table_id``
        again, unless he has come back to the queue meanwhile."""
        args: list[str | int] = [self.prefix, user_id, room, table_id, token, self.seat_ms]
        return bool(await self._unrequeue(args=args))

    async def search_of(self, user_id: int) -> Search | None:
        """The account's search: its room and whether it is away (``None``: none)."""
        place = await self.place_of(user_id)
        if place is None or place.kind is not PlaceKind.WAITING:
            return None
        away = bool(await self.redis.exists(f"{self.prefix}away:{user_id}"))
        return Search(place.where, away)

    async def cancel(self, user_id: int) -> Joined:
        """Take the player out of the queue he waits in, wherever his wait runs: his node's
        :meth:`wait` answers :data:`CANCELLED`.  ``Joined("cancelled", room)``; or he waits
        nowhere: ``Joined("seated", table)`` (a pairing came first: it stands) or
        ``Joined("idle")``."""
        kind, where = await self._cancel(args=[self.prefix, user_id, INBOX_MS])
        return Joined(Outcome(kind), str(where))

    async def leave(self, user_id: int, room: str) -> bool:
        """Take the player out of the room's queue; ``False`` if he was not waiting there
        (paired already, or gone)."""
        return bool(await self._leave(args=[self.prefix, user_id, room]))

    async def take_seat(self, user_id: int, table_id: str) -> Place | None:
        """Seat the account at ``table_id`` (or renew its seat there) unless it sits at another
        table or waits for a quick match (an away wait yields): ``None``, or where it is."""
        keys = [self.seat_key(user_id), f"{self.prefix}away:{user_id}"]
        held = await self._take(keys=keys, args=[table_id, self.seat_ms, self.prefix, user_id])
        return Place.parse(str(held)) if held else None

    def seat_key(self, user_id: int) -> str:
        return f"{self.prefix}seat:{user_id}"

    async def place_of(self, user_id: int) -> Place | None:
        """Where the account is in the cluster (``None``: nowhere)."""
        value = await self.redis.get(self.seat_key(user_id))
        return None if value is None else Place.parse(str(value))

    async def seat_of(self, user_id: int) -> str | None:
        """The table the account sits at, cluster-wide (``None``: none, or it waits)."""
        place = await self.place_of(user_id)
        return place.where if place is not None and place.kind is PlaceKind.SEATED else None

    async def free_seats(self, table_id: str, user_ids: list[int]) -> int:
        """Free the accounts' seats at ``table_id`` (a seat at another table stays)."""
        if not user_ids:
            return 0
        keys = [self.seat_key(u) for u in user_ids]
        return int(await self._free(keys=keys, args=[table_id]))


def _lua(number: float) -> str:
    """A number as the scripts read it (``tonumber``; no infinity: a huge number)."""
    return "1e300" if math.isinf(number) else repr(float(number))


def _news(text: str) -> Found | Cancelled:
    """What an inbox holds: a pairing (``TABLE|USER|NAME``) or ``cancelled``."""
    return CANCELLED if text == "cancelled" else Found.parse(text)
