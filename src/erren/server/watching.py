"""Who may watch a table, and the socket's ``watch``/``unwatch`` (issue #29, point 3).

Each player chooses who may watch his tables (the settings panel's ``watch``:
:class:`WatchPolicy`, ``friends`` when never chosen).  A table admits a spectator only when
**each** of its players admits him by his own choice — ``everyone``, or ``friends`` and the
spectator is that player's friend; ``nobody`` admits no one — so a player at a ``friends``
table is never watched by a stranger because his opponent's friend watches.  A computer seat
admits everyone.  Never admitted: a player who blocked, or was blocked by, either player; a
player of the table itself (he joins it); a guest, unless both players chose ``everyone`` (a
guest has no friends).  A refusal is the error ``watch-refused`` with ``params.reason``
(:class:`Refusal`).

On a cluster node, a ``watch`` of a table another node plays is relayed to that node (as a
player's ``join`` is: :mod:`erren.server.cluster.relay`), which admits or refuses him by the
same rules and sends him the stream through the relay; ``watch-elsewhere`` is left for a node
that relays no spectators (none in this version).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Final, Protocol

from erren.server import protocol
from erren.server.protocol import error_json
from erren.server.table import Conn, Table
from erren.server.table import Unwatch as TUnwatch
from erren.server.table import Watch as TWatch

if TYPE_CHECKING:
    from erren.server.socket import Relaying
    from erren.server.store import Store, User

__all__ = [
    "DEFAULT_POLICY",
    "Friendships",
    "Refusal",
    "StoreWatchRules",
    "WatchPolicy",
    "WatchRules",
    "admits",
    "relayed_watch",
    "unwatch",
    "watch",
]


class WatchPolicy(StrEnum):
    """Who a player lets watch his tables (the settings' ``watch``)."""

    NOBODY = "nobody"
    FRIENDS = "friends"
    EVERYONE = "everyone"


DEFAULT_POLICY: Final = WatchPolicy.FRIENDS
"""A player's choice until he makes one (and a guest's: he keeps none on the server)."""


class Refusal(StrEnum):
    """Why a spectator is refused (``watch-refused``'s ``params.reason``)."""

    NO_TABLE = "no-table"
    """No table of that id is played here."""
    SEATED = "seated"
    """He plays at that table (he joins it instead)."""
    NOBODY = "nobody"
    """A player of the table lets nobody watch."""
    FRIENDS = "friends"
    """A player of the table lets only his friends watch, and he is not one."""
    GUEST = "guest"
    """A guest watches only tables whose players both let everyone watch."""
    BLOCKED = "blocked"
    """A block stands between him and a player of the table."""


_REASONS: Final = {
    Refusal.NO_TABLE: "no table of that id is being played here",
    Refusal.SEATED: "you play at this table: join it instead",
    Refusal.NOBODY: "a player of this table lets nobody watch",
    Refusal.FRIENDS: "a player of this table lets only his friends watch",
    Refusal.GUEST: "guests may watch only tables whose players let everyone watch",
    Refusal.BLOCKED: "you may not watch this table",
}


class Friendships(Protocol):
    """The seam to the friends store (:class:`~erren.server.store.social.Social` behind
    :class:`StoreWatchRules`; a fake in the tests)."""

    async def are_friends(self, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` are friends."""
        ...

    async def blocked(self, a: int, b: int) -> bool:
        """Whether either of ``a`` and ``b`` blocks the other."""
        ...


class WatchRules(Friendships, Protocol):
    """What :func:`admits` asks: friendships, blocks and each player's choice."""

    async def policy(self, user_id: int) -> WatchPolicy:
        """Who ``user_id`` lets watch his tables."""
        ...


class StoreWatchRules:
    """:class:`WatchRules` from the store: ``social`` (friends, blocks) and the settings
    document's ``watch`` key."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def are_friends(self, a: int, b: int) -> bool:
        return b in await self.store.social.friend_ids(a)

    async def blocked(self, a: int, b: int) -> bool:
        return await self.store.social.is_blocked(a, b)

    async def policy(self, user_id: int) -> WatchPolicy:
        saved = await self.store.settings.get(user_id)
        chosen = None if saved is None else saved.document.get("watch")
        try:
            return WatchPolicy(chosen) if isinstance(chosen, str) else DEFAULT_POLICY
        except ValueError:
            return DEFAULT_POLICY


async def admits(
    rules: WatchRules, viewer: int, guest: bool, players: list[int | None]
) -> Refusal | None:
    """Why the table of ``players`` (``None``: a computer seat) refuses the spectator
    ``viewer`` (``guest``: a guest account), or ``None`` when it admits him."""
    humans = [p for p in players if p is not None]
    if viewer in humans:
        return Refusal.SEATED
    for player in humans:
        if await rules.blocked(player, viewer):
            return Refusal.BLOCKED
    for player in humans:
        policy = await rules.policy(player)
        if policy is WatchPolicy.NOBODY:
            return Refusal.NOBODY
        if policy is WatchPolicy.EVERYONE:
            continue
        if guest:
            return Refusal.GUEST
        if not await rules.are_friends(player, viewer):
            return Refusal.FRIENDS
    return None


def refused_json(reason: Refusal, table: str) -> dict[str, object]:
    """The ``watch-refused`` error for ``reason``."""
    return error_json(
        "watch-refused", _REASONS[reason], {"reason": reason.value, "table": table[:40]}
    )


def elsewhere_json(table: str) -> dict[str, object]:
    """The ``watch-elsewhere`` error: the table is played on another cluster node."""
    return error_json(
        "watch-elsewhere",
        "this table is played on another server node; spectators connect to that node",
        {"table": table[:40]},
    )


def unwatch(conn: Conn) -> None:
    """``conn`` stops watching the table it watches, if any."""
    table = conn.watching
    if table is not None:
        conn.watching = None
        table.submit(TUnwatch(conn))


async def watch(
    msg: protocol.Watch | protocol.Unwatch,
    conn: Conn,
    viewer: tuple[int, bool],
    tables: Mapping[str, Table],
    rules: WatchRules,
) -> None:
    """Answer a spectator's ``watch`` (admitted: the table sends ``watching`` and what he may
    see; else ``watch-refused``) or ``unwatch``; ``viewer``: his account's id and whether it
    is a guest's.  On a cluster node the socket relays a ``watch`` of a table another node
    plays to that node, which answers it here (:class:`~erren.server.cluster.relay.Relay`)."""
    if isinstance(msg, protocol.Unwatch):
        unwatch(conn)
        return
    table = tables.get(msg.table)
    if table is None or table.closed:
        conn.send(refused_json(Refusal.NO_TABLE, msg.table))
        return
    players = [seat.user_id for seat in table.seats]
    refusal = await admits(rules, viewer[0], viewer[1], players)
    if refusal is not None:
        conn.send(refused_json(refusal, msg.table))
        return
    if conn.watching is not None and conn.watching is not table:
        unwatch(conn)
    conn.watching = table
    table.submit(TWatch(conn, msg.game, msg.since))


async def relayed_watch(
    msg: protocol.Watch | protocol.Unwatch,
    conn: Conn,
    user: User,
    tables: Mapping[str, Table],
    relay: Relaying,
) -> bool:
    """Whether a cluster node sent a spectator's message on to the node that plays the table
    (a ``watch`` of a table another node holds; an ``unwatch`` of a linked connection)."""
    if isinstance(msg, protocol.Unwatch):
        unwatch(conn)  # a table of this node, if any
        if relay.linked(conn):
            relay.forward(conn, msg)
        return True
    table = tables.get(msg.table)
    if table is not None and not table.closed:  # watched here
        return False
    if not await relay.join(conn, msg, guest=user.is_guest):
        return False
    unwatch(conn)  # it stops watching a table of this node
    return True
