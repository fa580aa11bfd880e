"""The quick-match queues every node shares, and the seats every node respects.

Per room a Redis list ``{prefix}q:{room}`` holds the waiting players (``USER|NAME``, oldest
first); ``{prefix}qu:{user}`` (expiring with the wait) says which room a player waits in, so an
account waits in at most one queue; ``{prefix}seat:{user}`` names the table an account sits at,
so an account is seated at most once in the whole cluster.  :meth:`Matching.join` is one Lua
script, run atomically by Redis: it refuses a seated or waiting account, else pairs the player
with the oldest player still waiting in the room (stale entries are dropped), seats both at the
table id the caller proposes and leaves the news in the waiting player's inbox
``{prefix}inbox:{user}``; or it queues the player (emptying his inbox of a past wait's news).
Two players are paired exactly once, by whichever node's script runs second; that node creates
the table.  :meth:`Matching.cancel`, from any node, is one script too: it takes a waiting
player out of his queue and leaves ``cancelled`` in his inbox, which wakes his node's wait; run
by Redis one after the other, a cancel and a pairing never both succeed.

The script builds key names from the prefix (one Redis, not Redis Cluster's hash slots).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import redis.asyncio as aioredis

from erren.server.cluster.waits import bounded

__all__ = ["CANCELLED", "MARGIN_MS", "Cancelled", "Found", "Joined", "Matching", "Paired"]

MARGIN_MS = 2_000
"""A queue entry outlives its wait by this much: the waiting node takes it out itself; the
expiry is for a node that died while its player waited."""

_JOIN = """
local prefix, user, name, room = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local wait_ms, table, seat_ms = ARGV[5], ARGV[6], ARGV[7]
local seated = redis.call('GET', prefix .. 'seat:' .. user)
if seated then return {'seated', seated} end
local waiting = redis.call('GET', prefix .. 'qu:' .. user)
if waiting then return {'waiting', waiting} end
local queue = prefix .. 'q:' .. room
while true do
  local entry = redis.call('LPOP', queue)
  if not entry then break end
  local other = string.match(entry, '^([^|]+)|')
  if other ~= user and redis.call('GET', prefix .. 'qu:' .. other) == room then
    redis.call('DEL', prefix .. 'qu:' .. other)
    redis.call('SET', prefix .. 'seat:' .. other, table, 'PX', seat_ms)
    redis.call('SET', prefix .. 'seat:' .. user, table, 'PX', seat_ms)
    local inbox = prefix .. 'inbox:' .. other
    redis.call('RPUSH', inbox, table .. '|' .. user .. '|' .. name)
    redis.call('PEXPIRE', inbox, 60000)
    return {'paired', entry}
  end
end
redis.call('DEL', prefix .. 'inbox:' .. user)
redis.call('RPUSH', queue, user .. '|' .. name)
redis.call('SET', prefix .. 'qu:' .. user, room, 'PX', wait_ms)
return {'queued', room}
"""

_CANCEL = """
local prefix, user = ARGV[1], ARGV[2]
local room = redis.call('GET', prefix .. 'qu:' .. user)
if not room then
  local seated = redis.call('GET', prefix .. 'seat:' .. user)
  if seated then return {'seated', seated} end
  return {'idle', ''}
end
local queue = prefix .. 'q:' .. room
for _, entry in ipairs(redis.call('LRANGE', queue, 0, -1)) do
  if string.match(entry, '^([^|]+)|') == user then redis.call('LREM', queue, 0, entry) end
end
redis.call('DEL', prefix .. 'qu:' .. user)
local inbox = prefix .. 'inbox:' .. user
redis.call('RPUSH', inbox, 'cancelled')
redis.call('PEXPIRE', inbox, 60000)
return {'cancelled', room}
"""

_LEAVE = """
local prefix, user, room = ARGV[1], ARGV[2], ARGV[3]
local queue = prefix .. 'q:' .. room
for _, entry in ipairs(redis.call('LRANGE', queue, 0, -1)) do
  if string.match(entry, '^([^|]+)|') == user then redis.call('LREM', queue, 0, entry) end
end
if redis.call('GET', prefix .. 'qu:' .. user) ~= room then return 0 end
redis.call('DEL', prefix .. 'qu:' .. user)
return 1
"""

_FREE = """
local n = 0
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then n = n + redis.call('DEL', key) end
end
return n
"""


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
    """What :meth:`Matching.join` did: ``kind`` is ``paired`` (``opponent`` set), ``queued``,
    ``waiting`` (already waiting in room ``where``) or ``seated`` (at table ``where``); what
    :meth:`Matching.cancel` did: ``cancelled`` (he waited in room ``where``), ``seated`` or
    ``idle``."""

    kind: str
    where: str = ""
    opponent: Paired | None = None


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
        self._join = client.register_script(_JOIN)
        self._leave = client.register_script(_LEAVE)
        self._free = client.register_script(_FREE)
        self._cancel = client.register_script(_CANCEL)

    async def join(
        self, user_id: int, name: str, room: str, table_id: str, wait_s: float
    ) -> Joined:
        """Pair the player with the oldest one waiting in ``room`` (both are then seated at
        ``table_id``), or queue him for ``wait_s`` seconds."""
        wait_ms = max(1, round(wait_s * 1000)) + MARGIN_MS  # the waiter leaves by himself
        kind, value = await self._join(
            args=[self.prefix, user_id, name, room, wait_ms, table_id, self.seat_ms]
        )
        if kind == "paired":
            other, _, other_name = str(value).partition("|")
            return Joined("paired", table_id, Paired(int(other), other_name))
        return Joined(str(kind), str(value))

    async def wait(self, user_id: int, room: str, wait_s: float) -> Found | Cancelled | None:
        """Wait (queued by :meth:`join`) until paired or cancelled (:meth:`cancel`, from any
        node); ``None`` when ``wait_s`` passed (the player has left the queue, as he has when
        this coroutine is cancelled)."""
        inbox = f"{self.prefix}inbox:{user_id}"
        try:
            wait = max(wait_s, 0.01)
            found = await bounded(self.blocking.blpop([inbox], timeout=wait), wait, self.timeout_s)
        except asyncio.CancelledError:
            await asyncio.shield(self.leave(user_id, room))
            raise
        if found is not None:
            return _news(str(found[1]))
        if await self.leave(user_id, room):
            return None
        # paired or cancelled meanwhile (the script left its news in the inbox), or expired
        late = await self.redis.lpop(inbox)
        return None if late is None else _news(str(late))

    async def cancel(self, user_id: int) -> Joined:
        """Take the player out of the queue he waits in, wherever his wait runs: his node's
        :meth:`wait` answers :data:`CANCELLED`.  ``Joined("cancelled", room)``; or he waits
        nowhere: ``Joined("seated", table)`` (a pairing came first: it stands) or
        ``Joined("idle")``."""
        kind, where = await self._cancel(args=[self.prefix, user_id])
        return Joined(str(kind), str(where))

    async def leave(self, user_id: int, room: str) -> bool:
        """Take the player out of the room's queue; ``False`` if he was not waiting there
        (paired already, or gone)."""
        return bool(await self._leave(args=[self.prefix, user_id, room]))

    async def take_seat(self, user_id: int, table_id: str) -> str | None:
        """Seat the account at ``table_id`` unless it sits elsewhere: ``None``, or the table
        it sits at."""
        key = self.seat_key(user_id)
        if await self.redis.set(key, table_id, nx=True, px=self.seat_ms):
            return None
        current = await self.redis.get(key)
        if current == table_id:
            await self.redis.pexpire(key, self.seat_ms)
            return None
        return None if current is None else str(current)

    def seat_key(self, user_id: int) -> str:
        return f"{self.prefix}seat:{user_id}"

    async def seat_of(self, user_id: int) -> str | None:
        """The table the account sits at, cluster-wide (``None``: none)."""
        value = await self.redis.get(f"{self.prefix}seat:{user_id}")
        return None if value is None else str(value)

    async def free_seats(self, table_id: str, user_ids: list[int]) -> int:
        """Free the accounts' seats at ``table_id`` (a seat at another table stays)."""
        if not user_ids:
            return 0
        keys = [f"{self.prefix}seat:{u}" for u in user_ids]
        return int(await self._free(keys=keys, args=[table_id]))


def _news(text: str) -> Found | Cancelled:
    """What an inbox holds: a pairing (``TABLE|USER|NAME``) or ``cancelled``."""
    return CANCELLED if text == "cancelled" else Found.parse(text)
