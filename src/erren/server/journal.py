"""Group commit: the actions of every table written in shared transactions.

A table may send an action's events only once the action is durable.  Committing each action on
its own costs one transaction (and on PostgreSQL one WAL flush) per move; under load the commits,
not the games, fill the server's core.  The journal batches instead::

    journal = Journal(store)
    await journal.append([(game_id, seq, "0:discard:5m")])   # returns once committed

Every ``append`` waits for the commit of a batch that includes its rows.  One writer task takes
everything waiting after a short ``window`` (default 2 ms) and hands it to
:meth:`.Games.append_actions` in one transaction; whatever arrives while that
commit runs goes into the next batch.  So durability is unchanged (nothing is acknowledged before
its commit) while the commits per action fall with the load: at 1,000 actions a second a commit
carries about ten of them.  A table's rows stay in ``seq`` order: a table waits for its append
before it handles its next command.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from erren.server.store import Store

__all__ = ["Journal"]

log = logging.getLogger("erren.server.journal")

Row = tuple[int, int, str]
"""``(game_id, seq, action)``."""


class Journal:
    """The group-commit writer for ``store``; :meth:`close` it at shutdown."""

    def __init__(self, store: Store, *, window: float = 0.002, max_rows: int = 2000) -> None:
        self.store = store
        self.window = window
        self.max_rows = max_rows
        self._waiting: list[tuple[list[Row], asyncio.Future[None], int | None]] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self.commits = 0
        """Transactions written (with :attr:`rows`: the batching achieved)."""
        self.rows = 0

    async def append(self, rows: list[Row], fence: int | None = None) -> None:
        """Make ``rows`` durable: returns once a transaction holding them has committed; raises
        the :class:`~erren.server.store.StoreError` of the first refused row.  ``fence``: the
        writer's lease token for the rows' game (a cluster node; ``None`` on a single server)."""
        if not rows:
            return
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._waiting.append((rows, done, fence))
        if self._wake is None:
            self._wake = asyncio.Event()
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run(), name="journal")
        self._wake.set()
        await done

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            if not self._waiting:
                self._wake.clear()
                await self._wake.wait()
                continue
            if self.window > 0:
                await asyncio.sleep(self.window)
            take = size = 0
            while take < len(self._waiting) and (take == 0 or size < self.max_rows):
                size += len(self._waiting[take][0])
                take += 1
            batch = self._waiting[:take]
            del self._waiting[:take]
            await self._commit(batch)

    async def _commit(
        self, batch: list[tuple[list[Row], asyncio.Future[None], int | None]]
    ) -> None:
        rows = [row for part, _, _ in batch for row in part]
        fences = {part[0][0]: fence for part, _, fence in batch if fence is not None}
        try:
            results = await self.store.games.append_actions(rows, fences or None)
        except Exception as err:  # the database is down: every waiter hears of it
            log.warning("group commit of %d action(s) failed: %s", len(rows), err)
            for _, done, _ in batch:
                if not done.done():
                    done.set_exception(err)
            return
        self.commits += 1
        self.rows += len(rows)
        at = 0
        for part, done, _ in batch:
            refused = [e for e in results[at : at + len(part)] if e is not None]
            at += len(part)
            if done.done():
                continue
            if refused:
                done.set_exception(refused[0])
            else:
                done.set_result(None)

    async def close(self) -> None:
        """Stop the writer; appends still waiting are cancelled (their tables are stopping)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for _, done, _ in self._waiting:
            done.cancel()
        self._waiting.clear()
