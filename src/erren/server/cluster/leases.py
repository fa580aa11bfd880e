"""Table leases with fencing tokens: one owner node per table.

A node owns a table while it holds the key ``{prefix}lease:{table}`` (value ``NODE|TOKEN``,
expiring after ``lease_ms`` unless renewed).  :meth:`Leases.acquire` takes a free lease and
draws its token from the counter ``{prefix}fence:{table}``, which only grows (and is raised
above the database's fence when asked: a restarted Redis starts its counters at 0, the database
remembers).  The owner renews its leases in the background (compare-and-extend: only while the
value is still its own).  The token is what makes a lost lease harmless: the owner claims the
game with it (``games.fence``) and every write carries it, so a node that was paused past its
lease is refused by the database the moment a newer owner has claimed the game.

While Redis cannot be reached the owner cannot renew, and it must not go on writing once the
lease could have expired (another node may take the table the moment Redis answers again).
Each lease is known valid until its last successful take or renewal *began* plus ``lease_ms``
(Redis counts the expiry from when it ran the script, later); the owner gives a table up —
``on_lost``, which stops the table without writing — at that time less a safety margin of a
fifth of the lease (:attr:`Leases.margin_s`), whether or not Redis answers meanwhile: a
renewal that hangs is cut short at that deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import redis.asyncio as aioredis
from redis.exceptions import RedisError

__all__ = ["Lease", "Leases"]

log = logging.getLogger("erren.server.cluster")

_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local token = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if token <= floor then
  token = floor + 1
  redis.call('SET', KEYS[2], token)
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. token, 'PX', ARGV[2])
return token
"""

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(frozen=True)
class Lease:
    """Who owns a table: the node's id and its fencing token."""

    node_id: str
    token: int


class Leases:
    """This node's leases: take, renew (in the background, :meth:`keep`), give up."""

    def __init__(
        self, client: aioredis.Redis, prefix: str, node_id: str, *, lease_ms: int = 5_000
    ) -> None:
        if "|" in node_id or not node_id:
            raise ValueError(f"bad node id {node_id!r}: non-empty, without '|'")
        if lease_ms < 100:
            raise ValueError(f"a lease of {lease_ms} ms is too short (100 ms at least)")
        self.redis = client
        self.prefix = prefix
        self.node_id = node_id
        self.lease_ms = lease_ms
        self._acquire = client.register_script(_ACQUIRE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)
        self.held: dict[str, int] = {}
        """The tables whose leases this node keeps renewing, with their tokens."""
        self._lost: dict[str, Callable[[str], None]] = {}
        self._along: dict[str, tuple[list[str], int]] = {}
        self._valid: dict[str, float] = {}
        """Per table: the monotonic time its lease is sure to last until."""
        self._task: asyncio.Task[None] | None = None
        self.renewals = 0
        """Leases renewed so far (a metric)."""
        self.errors = 0
        """Redis errors met while renewing (a metric)."""
        self.on_renewed: Callable[[int], None] | None = None
        """Told how many leases each renewal round renewed (``/metrics``)."""
        self.on_error: Callable[[], None] | None = None
        """Told of each Redis error met while renewing (``/metrics``)."""

    @property
    def margin_s(self) -> float:
        """A table is given up this long before its lease could expire (a fifth of it)."""
        return self.lease_ms / 5000

    def valid_for(self, table_id: str) -> float:
        """Seconds the table's lease is sure to last (``-inf`` if not held)."""
        return self._valid.get(table_id, float("-inf")) - time.monotonic()

    def _key(self, table_id: str) -> str:
        return f"{self.prefix}lease:{table_id}"

    def _value(self, token: int) -> str:
        return f"{self.node_id}|{token}"

    async def acquire(self, table_id: str, *, floor: int = 0) -> int | None:
        """Take the table's lease if nobody holds it: its fencing token (above ``floor``, the
        game's fence in the database), or ``None`` if another node (or this one) holds it."""
        began = time.monotonic()
        token = await self._acquire(
            keys=[self._key(table_id), f"{self.prefix}fence:{table_id}"],
            args=[self.node_id, self.lease_ms, floor],
        )
        if token is None:
            return None
        self._valid[table_id] = began + self.lease_ms / 1000
        return int(token)

    async def renew(self, table_id: str, token: int) -> bool:
        """Extend the lease by ``lease_ms`` if it is still this node's with this token."""
        done = await self._renew(
            keys=[self._key(table_id)], args=[self._value(token), self.lease_ms]
        )
        return bool(done)

    async def release(self, table_id: str, token: int) -> bool:
        """Give the lease up (only if it is still this node's with this token)."""
        self.held.pop(table_id, None)
        self._lost.pop(table_id, None)
        self._along.pop(table_id, None)
        self._valid.pop(table_id, None)
        done = await self._release(keys=[self._key(table_id)], args=[self._value(token)])
        return bool(done)

    async def owner(self, table_id: str) -> Lease | None:
        """Who holds the table's lease now (``None``: nobody)."""
        value = await self.redis.get(self._key(table_id))
        if value is None:
            return None
        node, _, token = str(value).rpartition("|")
        return Lease(node, int(token))

    async def free(self, table_ids: list[str]) -> set[str]:
        """Of these tables, those whose lease nobody holds."""
        if not table_ids:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.exists(self._key(table_id))
            held = await pipe.execute()
        return {t for t, h in zip(table_ids, held, strict=True) if not h}

    def keep(
        self,
        table_id: str,
        token: int,
        on_lost: Callable[[str], None],
        along: tuple[list[str], int] = ([], 0),
    ) -> None:
        """Renew the lease in the background until :meth:`release`; ``on_lost(table_id)`` is
        called if it is lost (another node holds it, or it could not be renewed in time).
        ``along``: keys whose expiry is pushed back to that many ms at each renewal (the table's
        seats: they outlive a dead owner by a while, then free its players)."""
        self.held[table_id] = token
        self._lost[table_id] = on_lost
        self._along[table_id] = along
        self._valid.setdefault(table_id, time.monotonic() + self.lease_ms / 1000)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="leases")

    async def renew_all(self) -> list[str]:
        """Renew every kept lease once; returns the tables given up: those another node
        holds now, and, when Redis fails or does not answer in time, those whose lease could
        expire within :attr:`margin_s`."""
        held = list(self.held.items())
        if not held:
            return []
        began = time.monotonic()
        try:
            results = await asyncio.wait_for(self._renew_round(held), self._patience(began))
        except (RedisError, TimeoutError) as err:
            self.errors += 1
            if self.on_error is not None:
                self.on_error()
            log.warning("cannot renew %d lease(s): %r", len(held), err)
            return self._give_up(self.overdue())
        renewed = sum(1 for r in results if r)
        self.renewals += renewed
        if self.on_renewed is not None and renewed:
            self.on_renewed(renewed)
        until = began + self.lease_ms / 1000
        lost: list[str] = []
        for (table_id, _), result in zip(held, results, strict=True):
            if not result:
                lost.append(table_id)
            elif table_id in self._valid:
                self._valid[table_id] = until
        return self._give_up(lost)

    async def _renew_round(self, held: list[tuple[str, int]]) -> list[object]:
        async with self.redis.pipeline(transaction=False) as pipe:
            at: list[int] = []
            for table_id, token in held:
                at.append(len(pipe))
                await self._renew(
                    keys=[self._key(table_id)],
                    args=[self._value(token), self.lease_ms],
                    client=pipe,
                )
                keys, ttl_ms = self._along.get(table_id, ([], 0))
                for key in keys:
                    pipe.pexpire(key, ttl_ms)
            answers = await pipe.execute()
        return [answers[i] for i in at]

    def _patience(self, now: float) -> float:
        """How long a renewal round may take: until the first kept lease must be given up,
        and no longer than a round's interval."""
        first = min((self._valid.get(t, now) for t in self.held), default=now)
        return max(0.01, min(first - self.margin_s - now, self.lease_ms / 3000))

    def overdue(self) -> list[str]:
        """The kept tables whose lease could expire within :attr:`margin_s`."""
        now = time.monotonic()
        return [t for t in self.held if self._valid.get(t, now) - self.margin_s <= now]

    def _give_up(self, lost: list[str]) -> list[str]:
        for table_id in lost:
            self.held.pop(table_id, None)
            self._along.pop(table_id, None)
            self._valid.pop(table_id, None)
            callback = self._lost.pop(table_id, None)
            log.warning("lost the lease of table %s", table_id)
            if callback is not None:
                callback(table_id)
        return lost

    async def _run(self) -> None:
        """A renewal round every third of a lease; sooner when a kept lease must be given up
        before then (Redis failing)."""
        every = self.lease_ms / 3000
        while self.held:
            now = time.monotonic()
            first = min((self._valid.get(t, now) for t in self.held), default=now)
            await asyncio.sleep(max(0.0, min(every, first - self.margin_s - now)))
            await self.renew_all()

    async def close(self) -> None:
        """Stop renewing and give up every kept lease."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for table_id, token in list(self.held.items()):
            with contextlib.suppress(RedisError):
                await self.release(table_id, token)
