"""Database writes that a passing fault must not lose: retried until they go through.

A table's writes (its actions, the new game, the settlement, the finished record) are each
idempotent — an action is stored once by its ``seq``, a settlement once by its key, a game
finished once with its record — so a write that failed, or whose answer was lost, may simply be
tried again.  :func:`durably` does that for the failures that may pass (a full disk, a dropped
connection, a read-only or vanished database file: :func:`transient`) with a growing pause, and
reports the first failure and the recovery so that the players can be told; any other error (a
refused action, a bug) is raised at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

__all__ = ["durably", "transient"]

log = logging.getLogger("erren.server.durable")

T = TypeVar("T")

TRANSIENT: tuple[type[BaseException], ...] = (OSError, ConnectionError)
"""Failures worth another try besides SQLAlchemy's driver errors."""


def transient(err: BaseException) -> bool:
    """Whether a failed database call may succeed when tried again (integrity errors and the
    store's refusals never do)."""
    from sqlalchemy.exc import DBAPIError, IntegrityError  # noqa: PLC0415

    from erren.server.store import StoreUnavailable  # noqa: PLC0415

    if isinstance(err, IntegrityError):
        return False
    return isinstance(err, (*TRANSIENT, DBAPIError, StoreUnavailable))


async def durably(
    write: Callable[[], Awaitable[T]],
    *,
    failing: Callable[[BaseException], None] | None = None,
    recovered: Callable[[int], None] | None = None,
    first_pause: float = 0.05,
    max_pause: float = 5.0,
) -> T:
    """``await write()`` until it succeeds; a :func:`transient` failure waits ``first_pause``
    real seconds, doubling up to ``max_pause``, and tries again.  ``failing(err)`` hears of the
    first failure of a streak, ``recovered(failures)`` of the success after it.  ``write`` must
    be idempotent."""
    pause = first_pause
    failures = 0
    while True:
        try:
            result = await write()
        except Exception as err:
            if not transient(err):
                raise
            failures += 1
            if failures == 1:
                log.warning("database write failed, retrying: %s", err)
                if failing is not None:
                    failing(err)
            await asyncio.sleep(pause)
            pause = min(pause * 2, max_pause)
            continue
        if failures:
            log.warning("database write went through after %d failure(s)", failures)
            if recovered is not None:
                recovered(failures)
        return result
