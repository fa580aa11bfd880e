"""Invites kept for a minute, so that a socket that was away hears them when it is back.

An invite (:func:`erren.server.routes.friends.invite`) is pushed to the sockets the friend has
open at that moment.  A phone that put the page in the background, or a socket that is
reconnecting, has none open just then, and nothing is pushed twice.  So each invite is also
held for :data:`INVITE_HOLD_S` (the minute the invite's toast stays on the friend's screen),
keyed by the friend and the inviter (a newer invite from the same player replaces the older),
and every socket of the friend that logs in meanwhile is sent the ones still held whose table
still waits for him (:meth:`HeldInvites.held`, checked by the socket's login against the
lobby).  Accepting (joining the table by its code) or declining lets it go.

On a single server they are held in memory; on a cluster node in Redis
(``{prefix}invites:{friend}``, one field per inviter, the key expiring with the last of them),
so that a socket welcomed by another node hears them too.  With Redis unreachable nothing is
held (logged): the invite itself needs Redis there (:meth:`Friends.reachable`).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from erren.server.cluster import Cluster

__all__ = ["INVITE_HOLD_S", "HeldInvites"]

log = logging.getLogger("erren.server.friends")

INVITE_HOLD_S: Final = 60.0
"""How long an invite is held for the friend's sockets that log in after it was sent."""

Wall = Callable[[], float]
"""Seconds since the epoch (``time.time``, or a test's clock)."""


class HeldInvites:
    """The invites held for each player (see the module); ``cluster``: on a cluster node, its
    handle on Redis; ``wall``: the clock of the holds."""

    def __init__(self, cluster: Cluster | None = None, *, wall: Wall = time.time) -> None:
        self.cluster = cluster
        self.wall = wall
        self._local: dict[int, dict[int, tuple[float, dict[str, Any]]]] = {}

    def _key(self, to: int) -> str:
        assert self.cluster is not None
        return f"{self.cluster.prefix}invites:{to}"

    async def hold(self, to: int, sender: int, message: dict[str, Any]) -> None:
        """Hold ``sender``'s invite ``message`` for ``to`` (replacing an older one of his)."""
        until = self.wall() + INVITE_HOLD_S
        if self.cluster is None:
            for held in list(self._local):  # few: invites are counted against each sender
                self._forget_expired(held)
            self._local.setdefault(to, {})[sender] = (until, message)
            return
        from redis.exceptions import RedisError  # noqa: PLC0415  (a cluster node)

        word = json.dumps({"until": until, "message": message})
        try:
            pipe = self.cluster.redis.pipeline(transaction=True)
            pipe.hset(self._key(to), str(sender), word)
            pipe.expire(self._key(to), round(INVITE_HOLD_S) + 1)
            await pipe.execute()
        except RedisError as err:
            log.warning("cannot hold an invite for a socket that is away: %s", err)

    async def held(self, to: int) -> list[dict[str, Any]]:
        """The invites held for ``to`` that have not expired, oldest first."""
        now = self.wall()
        if self.cluster is None:
            self._forget_expired(to)
            found = list(self._local.get(to, {}).values())
        else:
            found = await self._read(to, now)
        return [message for _, message in sorted(found, key=lambda item: item[0])]

    async def drop(self, to: int, code: str) -> None:
        """Let go of the invite to the table of ``code`` held for ``to`` (accepted or
        declined)."""
        code = code.strip().upper()
        if self.cluster is None:
            held = self._local.get(to, {})
            for sender, item in list(held.items()):
                if _code(item) == code:
                    del held[sender]
            if not held:
                self._local.pop(to, None)
            return
        from redis.exceptions import RedisError  # noqa: PLC0415  (a cluster node)

        try:
            fields = await self.cluster.redis.hgetall(self._key(to))
            gone = [f for f, word in fields.items() if _code(_parse(word)) == code]
            if gone:
                await self.cluster.redis.hdel(self._key(to), *gone)
        except RedisError as err:
            log.warning("cannot let go of a held invite: %s", err)

    async def _read(self, to: int, now: float) -> list[tuple[float, dict[str, Any]]]:
        assert self.cluster is not None
        from redis.exceptions import RedisError  # noqa: PLC0415  (a cluster node)

        try:
            fields = await self.cluster.redis.hgetall(self._key(to))
        except RedisError as err:
            log.warning("cannot read the invites held for a socket: %s", err)
            return []
        held = (_parse(word) for word in fields.values())
        return [item for item in held if item is not None and item[0] > now]

    def _forget_expired(self, to: int) -> None:
        held = self._local.get(to)
        if held is None:
            return
        now = self.wall()
        for sender, (until, _) in list(held.items()):
            if until <= now:
                del held[sender]
        if not held:
            del self._local[to]


def _parse(word: str | bytes) -> tuple[float, dict[str, Any]] | None:
    """``(until, message)`` of a word held in Redis (``None`` if it cannot be read)."""
    try:
        parsed = json.loads(word)
        return float(parsed["until"]), dict(parsed["message"])
    except (ValueError, KeyError, TypeError):
        return None


def _code(item: tuple[float, dict[str, Any]] | None) -> str | None:
    """The invite code of a held ``(until, message)``."""
    code = None if item is None else item[1].get("invite")
    return code if isinstance(code, str) else None
