"""A cluster node's away players: those of its quick-match waits whose clients went away, and
those of its dissolved pairings it put back at the front of the queue (:mod:`.matching`, "Away
players"; the rule: :mod:`erren.server.quickmatch`).  Each keeps his place for the grace, on the
node's wall clock; then the node ends his wait, unless he came back (to any node) meanwhile."""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

from redis.exceptions import RedisError

from erren.server.clock import Clock, Timer
from erren.server.cluster.matching import Matching
from erren.server.table import Seat

__all__ = ["AwayPlayers"]

log = logging.getLogger("erren.server.cluster")


class AwayPlayers:
    """The graces this node runs; ``chore`` runs a coroutine in the background."""

    def __init__(
        self,
        matching: Matching,
        wall: Clock,
        grace_s: float,
        *,
        chore: Callable[[Coroutine[Any, Any, Any]], None],
    ) -> None:
        self.matching = matching
        self.wall = wall
        self.grace_s = grace_s
        self.chore = chore
        self._timers: set[Timer] = set()

    def grace(self, user_id: int, room_id: str, token: str) -> None:
        """End the away player's wait when the grace is over, unless he came back meanwhile
        (he is no longer away with ``token``)."""

        def over() -> None:
            self._timers.discard(timer)
            self.chore(self._drop(user_id, room_id, token))

        timer = self.wall.call_later(self.grace_s, over)
        self._timers.add(timer)

    async def _drop(self, user_id: int, room_id: str, token: str) -> None:
        try:
            await self.matching.drop_away(user_id, room_id, token)
        except RedisError as err:  # his keys expire a moment later anyway
            log.warning("cannot end the away wait of player %s: %s", user_id, err)

    async def requeue(self, room_id: str, table_id: str, players: list[Seat]) -> dict[int, str]:
        """Put the players of ``table_id``'s dissolved pairing back at the front of the room's
        queue, away for the grace; those put back, with their tokens (a Redis error leaves a
        player out: the table closes all the same)."""
        requeued: dict[int, str] = {}
        for seat in reversed(players):
            assert seat.user_id is not None
            try:
                token = await self.matching.requeue_front(
                    seat.user_id, seat.name, room_id, table_id
                )
            except RedisError as err:
                log.warning("cannot queue player %s again: %s", seat.user_id, err)
                continue
            if token is not None:
                requeued[seat.user_id] = token
                self.grace(seat.user_id, room_id, token)
        return requeued

    async def unrequeue(self, room_id: str, table_id: str, requeued: dict[int, str]) -> None:
        """Seat them at ``table_id`` again: the pairing stands after all."""
        for user_id, token in requeued.items():
            try:
                await self.matching.unrequeue(user_id, room_id, table_id, token)
            except RedisError as err:
                log.warning("cannot seat player %s again: %s", user_id, err)

    def close(self) -> None:
        """The node stops: the graces it runs end (the away keys expire by themselves)."""
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
