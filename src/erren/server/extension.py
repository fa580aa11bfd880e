"""A family's part of the server (its ``server_extension`` hook,
:meth:`erren.engine.family.Family.server_extension`): HTTP routes of its own, mounted beside the
shared ones, and a desk in the lobby — the family's own kind of table, made, dealt and restored
by it (arcade's campaign).  The server names no family: it mounts every registered family's
:meth:`ServerExtension.router`, the :class:`~erren.server.lobby.Lobby` opens each one's
:meth:`ServerExtension.desk` on its ground, a route finds its desk with
:meth:`Lobby.desk <erren.server.lobby.Lobby.desk>`, and a restored table of a kind the shared
lobby does not make is given the rules one of the desks answers
(:meth:`LobbyDesk.restored_rules`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from erren.engine.registry import families

if TYPE_CHECKING:
    from fastapi import APIRouter

    from erren.server.lobbybase import Ground
    from erren.server.table import TableRules, TableSpec

__all__ = ["LobbyDesk", "ServerExtension", "server_extensions"]


class LobbyDesk(Protocol):
    """A family's desk in the lobby: whatever its routes ask of it, and the rules of the tables
    it made when they are restored after a restart."""

    def restored_rules(self, spec: TableSpec, users: Sequence[int | None]) -> TableRules | None:
        """The rules of the restored table ``spec`` whose seats hold ``users``, if the desk
        made it; ``None``: not one of its tables."""
        ...


class ServerExtension(Protocol):
    """What a family adds to the server."""

    def router(self) -> APIRouter:
        """The family's HTTP routes (their paths as the clients call them)."""
        ...

    def desk(self, ground: Ground) -> LobbyDesk:
        """The family's desk in a new lobby, on the lobby's ground."""
        ...


def server_extensions() -> tuple[ServerExtension, ...]:
    """The server parts of the registered families, in their listing order."""
    return tuple(ext for f in families() if (ext := f.server_extension()) is not None)
