"""Tables with no hand under way, kept in Redis so that another node can pick them up.

A table's hands are in the database (an unfinished game is restored from its record by the
node that takes the table over), but a table waiting for its first deal — a quick match whose
players have not joined yet, a private table waiting for its guest — or between two hands has
no unfinished game: when its node died, nobody could rebuild it, and its players waited for
their seats to expire.  Its owner therefore keeps ``{prefix}idle-tables`` (a hash: table id →
JSON of :meth:`~erren.server.table.Table.idle_meta`, the table's description, its seats and
the match as it stands) up to date: written when the table opens and after each settled hand,
deleted (before the lease is released) when the table closes.  The takeover scan
(:meth:`~erren.server.cluster.node.ClusterNode.adopt`) rebuilds an entry whose lease nobody
holds and whose table has no unfinished game (that one is restored from the record instead).

Redis restarting empties the hash and the leases: the owner, losing the lease of a table that
waits, puts its entry back (:meth:`IdleTables.put_back`: only if no node holds the lease and
no entry is there), so the table is picked up again like the others, and its invite code is
published again.  What Redis forgets between its restart and that moment (a table opened
meanwhile) may be lost; never a hand, which the database keeps.  Campaign tables are not
kept: their player goes back to the campaign screen after every hand.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import redis.asyncio as aioredis

__all__ = ["IdleTables"]

_PUT_BACK = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
return redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
"""


class IdleTables:
    """This node's handle on ``{prefix}idle-tables``.  Writes are applied in the order they
    are asked for (one lock, FIFO), so a table's last word (its closing) is never overtaken by
    an earlier one."""

    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        self.redis = client
        self.key = f"{prefix}idle-tables"
        self.prefix = prefix
        self._order = asyncio.Lock()
        self._put_back = client.register_script(_PUT_BACK)

    async def put(self, table_id: str, meta: dict[str, Any]) -> None:
        async with self._order:
            await self.redis.hset(self.key, table_id, json.dumps(meta))

    async def put_back(self, table_id: str, meta: dict[str, Any]) -> bool:
        """After a lost lease: record the table again, unless a node holds its lease or it is
        recorded already (a Redis restart emptied both: the table is picked up again; another
        node that took it over keeps its own, newer entry).  Whether it was recorded."""
        async with self._order:
            done = await self._put_back(
                keys=[self.key, f"{self.prefix}lease:{table_id}"],
                args=[table_id, json.dumps(meta)],
            )
        return bool(done)

    async def drop(self, table_id: str) -> None:
        async with self._order:
            await self.redis.hdel(self.key, table_id)

    async def entries(self) -> dict[str, dict[str, Any]]:
        """Every table waiting, by id (an entry that cannot be read is dropped, logged by the
        caller as nothing to adopt)."""
        raw = await self.redis.hgetall(self.key)
        out: dict[str, dict[str, Any]] = {}
        for table_id, text in raw.items():
            try:
                meta = json.loads(text)
            except ValueError:
                continue
            if isinstance(meta, dict) and isinstance(meta.get("table"), dict):
                out[str(table_id)] = meta
        return out
