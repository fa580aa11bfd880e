"""The lobby's errors: a request it cannot serve, with its HTTP status, its stable code and
the params a client words it with (docs/protocol.md, "Codes"), and the ones several of its
parts raise (one seat per account, a quick match's search)."""

from __future__ import annotations

__all__ = ["LobbyError", "no_opponent", "search_lost", "seated_error", "waiting_error"]


class LobbyError(Exception):
    """A lobby request that cannot be served: ``status`` is the HTTP status to answer with,
    ``code`` a stable name of the problem, ``table`` the table concerned (if any), ``params``
    what the client needs to say it in the player's language (docs/protocol.md, "Codes")."""

    def __init__(
        self,
        status: int,
        message: str,
        code: str,
        table: str | None = None,
        *,
        params: dict[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.table = table
        self.params: dict[str, str | int] = params or {}


def seated_error(table: str) -> LobbyError:
    """409 ``seated``: the account already sits at ``table`` (one seat per account)."""
    return LobbyError(409, f"you are already seated at table {table}", "seated", table)


def no_opponent(wait_s: float) -> LobbyError:
    """408 ``no-opponent``: nobody was paired with the player within ``wait_s`` seconds."""
    return LobbyError(
        408,
        f"no opponent came within {wait_s:g} s; try again",
        "no-opponent",
        params={"seconds": round(wait_s)},
    )


def waiting_error(room: str) -> LobbyError:
    """409 ``waiting``: the account already waits for a quick match in ``room``."""
    return LobbyError(409, f"you are already waiting for a quick match in {room}", "waiting")


def search_lost(room: str) -> LobbyError:
    """404 ``search-lost``: a request to resume the search in ``room`` found none kept."""
    return LobbyError(
        404,
        f"no search of yours is kept in {room} (its grace ended, or it was paired or "
        "cancelled); ask for a new quick match",
        "search-lost",
        params={"room": room[:40]},
    )
