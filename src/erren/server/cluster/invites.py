"""Private tables joined by their invite code on any node.

A cluster node claims the invite code of each private table it makes as
``{prefix}invite:{CODE}`` = the table's id, only if no table of another node holds that code
(``SET NX``; otherwise it draws another), so a code names one table in the whole cluster; the
key is deleted when the table closes and expires after :data:`INVITE_TTL_MS` in any case.

A player who brings the code to another node is seated by
the table's owner (found through the lease): his node asks it through the relay
(:meth:`~erren.server.cluster.relay.Relay.ask`, a question in the owner's inbox answered in a
reply list) and answers with what the owner said.  The owner seats him as it seats a player of
its own: only in the free seat, and only if his account sits at no other table of the cluster
and waits in no quick-match queue (``seat:{user}``, :mod:`.matching`: taken atomically before
the seat is given, renewed with the table's lease).  Asking twice is harmless: a player already
in the seat gets it again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from erren.server.cluster.lobby import place_error
from erren.server.lobbybase import Ground
from erren.server.lobbyerrors import LobbyError
from erren.server.rooms import find_room_tier
from erren.server.table import Table, TableKind, TableSpec, TableView

if TYPE_CHECKING:
    from erren.server.cluster.node import ClusterNode
    from erren.server.cluster.relay import Relay
    from erren.server.store import User

__all__ = ["ASK_TIMEOUT_S", "INVITE_DRAWS", "INVITE_TTL_MS", "ClusterInvites", "InvitedTable"]

log = logging.getLogger("erren.server.cluster")

INVITE_TTL_MS = 24 * 3_600_000
"""A published code outlives a node that died with its table by at most this much (an unused
table closes when idle, and withdraws its code)."""
INVITE_DRAWS = 16
"""Codes drawn for a new private table before giving up (of 32⁶ ≈ 10⁹ codes, a second
draw is already needed about once in a billion)."""
ASK_TIMEOUT_S = 5.0
"""How long a node waits for the owner's answer to a player's invite code."""


@dataclass(frozen=True)
class InvitedTable:
    """The private table another node seated the player at: what his answer shows."""

    spec: TableSpec
    shown: dict[str, Any]

    def info(self) -> dict[str, Any]:
        return self.shown


def _spec(info: dict[str, Any]) -> TableSpec:
    room = info.get("room")
    return TableSpec(
        str(info["id"]),
        TableKind(str(info["kind"])),
        str(info["family"]),
        dict(info["options"]),
        room=find_room_tier(str(room)) if room else None,
        invite=info.get("invite"),
    )


class ClusterInvites:
    """The invite codes of a cluster node's private tables, joined on any node; ``node`` is
    the node they belong to (its leases and cluster-wide seats)."""

    def __init__(self, ground: Ground, node: ClusterNode) -> None:
        self.ground = ground
        self.node = node
        self.cluster = node.cluster
        self.relay: Relay | None = None

    def _key(self, code: str) -> str:
        return f"{self.cluster.prefix}invite:{code}"

    async def claim(self, table_id: str) -> str:
        """A code no open table of the cluster has: each drawn code is claimed in Redis
        (``SET NX``) for ``table_id``; a code another node's table holds is drawn again.  With
        Redis unreachable the table is still made, its code good on this node only (logged)."""
        for _ in range(INVITE_DRAWS):
            code = self.ground.draw_invite()
            try:
                claimed = await self.cluster.redis.set(
                    self._key(code), table_id, nx=True, px=INVITE_TTL_MS
                )
            except RedisError as err:
                log.warning("cannot publish the invite of table %s: %s", table_id, err)
                return code
            if claimed:
                return code
            log.info("invite code %s is another node's; drawing again", code)
        raise LobbyError(503, "no free invite code was found; try again", "cluster-unavailable")

    async def republish(self, table: Table) -> None:
        """The picked-up table's invite code, published again if a Redis restart forgot it
        (never over another table's)."""
        code = table.spec.invite
        if code is None:
            return
        try:
            await self.cluster.redis.set(self._key(code), table.spec.id, nx=True, px=INVITE_TTL_MS)
        except RedisError as err:
            log.warning("cannot publish the invite of table %s again: %s", table.spec.id, err)

    async def withdraw(self, code: str, table_id: str) -> None:
        """Free ``code`` if ``table_id`` still holds it (the table closed, or was refused)."""
        key = self._key(code)
        try:
            if await self.cluster.redis.get(key) == table_id:
                await self.cluster.redis.delete(key)
        except RedisError as err:
            log.warning("cannot withdraw the invite of table %s: %s", table_id, err)

    async def is_open(self, code: str) -> bool:
        """Whether the private table of ``code`` waits for its guest: this node's table by
        its seats, another node's while its code is claimed (unknown with Redis down:
        ``False``)."""
        here = self.ground.invite_waits(code)
        if here is not None:
            return here
        try:
            return await self.cluster.redis.get(self._key(code.strip().upper())) is not None
        except RedisError as err:
            log.warning("cannot look up an invite code: %s", err)
            return False

    # ------------------------------------------------------------------ the player's node
    async def join_invite(self, user: User, code: str) -> tuple[TableView, int]:
        ground = self.ground
        code = code.strip().upper()
        local = ground.tables.get(ground.invites.get(code, ""))
        if local is not None and not local.closed:
            seat = local.seat_of(user.id)
            if seat is not None:
                return local, seat
            with ground.reserve(user):
                return self._seated(await self.seat_invited(user.id, user.name, code))
        with ground.reserve(user):
            try:
                table_id = await self.cluster.redis.get(self._key(code))
                lease = None if table_id is None else await self.cluster.leases.owner(str(table_id))
            except RedisError as err:
                log.warning("cannot look an invite up: %s", err)
                raise LobbyError(
                    503,
                    "private tables of other servers cannot be reached right now (the "
                    "cluster's Redis does not answer); try again later",
                    "cluster-unavailable",
                ) from None
            if lease is None or lease.node_id == self.cluster.node_id or self.relay is None:
                raise LobbyError(404, f"no open table has the invite code {code!r}", "no-invite")
            question = {"invite": code, "user": user.id, "name": user.name}
            answer = await self.relay.ask(lease.node_id, question, ASK_TIMEOUT_S)
            if answer is None:
                raise LobbyError(
                    503,
                    "the server of that table did not answer; try again",
                    "relay-unavailable",
                )
            return self._seated(answer)

    @staticmethod
    def _seated(answer: dict[str, Any]) -> tuple[TableView, int]:
        if "error" in answer:
            raise LobbyError(
                int(answer["status"]),
                str(answer["message"]),
                str(answer["error"]),
                answer.get("table"),
                params=answer.get("params"),
            )
        return InvitedTable(_spec(answer["info"]), answer["info"]), int(answer["seat"])

    # ------------------------------------------------------------------ the owner
    async def answer(self, question: dict[str, Any]) -> dict[str, Any]:
        """Another node's question (:attr:`Relay.answering`): seat its player by invite."""
        return await self.seat_invited(
            int(question["user"]), str(question["name"]), str(question["invite"])
        )

    async def seat_invited(self, user_id: int, name: str, code: str) -> dict[str, Any]:
        """Seat the account at the private table of ``code`` held here: ``{"seat", "info"}``,
        or ``{"error", "status", "message"[, "table"]}``."""
        ground = self.ground
        table = ground.tables.get(ground.invites.get(code, ""))
        if table is None or table.closed:
            return _refusal(404, "no-invite", f"no open table has the invite code {code!r}")
        table_id = table.spec.id
        seat = table.seat_of(user_id)
        if seat is not None:
            return {"seat": seat, "info": table.info()}
        if table.seats[1].user_id is not None or table.full:
            return _refusal(409, "table-full", "that table is full")
        try:
            await ground.check_invited(table, user_id)
        except LobbyError as err:
            return {**_refusal(err.status, err.code, err.message), **_params(err)}
        matching = self.cluster.matching
        elsewhere = await matching.take_seat(user_id, table_id)
        if elsewhere is not None:  # seated at another table, or waiting for a quick match
            refused = place_error(elsewhere)
            answer = _refusal(refused.status, refused.code, refused.message)
            return answer if refused.table is None else {**answer, "table": refused.table}
        if table.closed or table.seats[1].user_id is not None:  # taken meanwhile
            await matching.free_seats(table_id, [user_id])
            return _refusal(409, "table-full", "that table is full")
        table.seats[1].user_id = user_id  # reserve now; the actor announces it
        table.submit_sit(1, user_id, name)
        ground.by_user[user_id] = table_id
        ground.moved([user_id])
        token = self.cluster.leases.held.get(table_id)
        if token is not None:  # his seat is renewed with the table's lease from now on
            users = [s.user_id for s in table.seats if s.user_id is not None]
            self.cluster.leases.keep(
                table_id, token, self.node.lease_lost, self.node.seats_of(users)
            )
        await self.node.now_idle(table)  # seated: whoever picks the table up seats him too
        return {"seat": 1, "info": table.info()}


def _refusal(status: int, code: str, message: str) -> dict[str, Any]:
    return {"error": code, "status": status, "message": message}


def _params(refused: LobbyError) -> dict[str, Any]:
    return {"params": refused.params} if refused.params else {}
