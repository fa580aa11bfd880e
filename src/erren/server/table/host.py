"""What a table's collaborators may ask of the table they serve (the actor,
:class:`~erren.server.table.Table`): whether it is closed, to close it, its public description,
to let the lobby know it waits for a deal, and that its guest sat down."""

from __future__ import annotations

from typing import Any, Protocol

from erren.server.table.spec import CloseCode

__all__ = ["Host"]


class Host(Protocol):
    @property
    def closed(self) -> bool: ...

    def close(
        self,
        code: CloseCode,
        reason: str,
        *,
        params: dict[str, Any] | None = None,
        personal: dict[int, dict[str, Any]] | None = None,
        after: bool = False,
    ) -> None:
        """Close the table and tell both seats why (:meth:`Table.close`)."""
        ...

    def info(self) -> dict[str, Any]:
        """The table as a seat's answer and the ``table`` message show it."""
        ...

    def guest_settled(self) -> None:
        """Someone sat in the second seat: the table no longer waits for a guest."""
        ...

    async def now_idle(self) -> None:
        """A hand was settled and the table waits for the next (the lobby may record it)."""
        ...
