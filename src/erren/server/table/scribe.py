"""A table's writes to the store, each until it succeeds: the players are told while the
database refuses (``store-retrying``, then ``store-ok``), and the table's state waits.  An
action is durable before anyone hears of it: the table waits for the commit of a batch that
includes it (group commit through the :class:`~erren.server.journal.Journal`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from erren.server.durable import durably
from erren.server.protocol import error_json
from erren.server.table.series import Series

if TYPE_CHECKING:
    from erren.server.journal import Journal
    from erren.server.metrics import FamilyMetrics
    from erren.server.store import Store

__all__ = ["Scribe"]

log = logging.getLogger("erren.server.table")

T = TypeVar("T")


class Scribe:
    """Writes one table's games; ``tell`` sends a message to every seat."""

    def __init__(
        self,
        store: Store,
        journal: Journal | None,
        *,
        table_id: str,
        retry_max_s: float,
        tell: Callable[[dict[str, Any]], None],
    ) -> None:
        self.store = store
        self.journal = journal
        self.table_id = table_id
        self.retry_max_s = retry_max_s
        self.tell = tell
        self.fence: int | None = None
        """The lease token this node holds for the table (a cluster node; ``None`` on a single
        server): every write of its games carries it (:mod:`erren.server.cluster.leases`)."""
        self.failures = 0
        """Failed database writes in a row (0: the store is fine)."""
        self.meter: FamilyMetrics | None = None
        """Where the stored actions are counted."""

    async def durably(self, write: Callable[[], Awaitable[T]]) -> T:
        """Run a database write until it succeeds (:func:`~erren.server.durable.durably`)."""
        return await durably(
            write, failing=self._failing, recovered=self._recovered, max_pause=self.retry_max_s
        )

    def _failing(self, err: BaseException) -> None:
        self.failures += 1
        log.warning("table %s: database write failed, retrying: %s", self.table_id, err)
        self.tell(
            error_json(
                "store-retrying",
                "the game's record cannot be written right now; the server retries and "
                "nothing is lost (the hand waits meanwhile)",
            )
        )

    def _recovered(self, failures: int) -> None:
        self.failures = 0
        self.tell({"type": "store-ok", "code": "store-ok"})

    async def persist(self, series: Series) -> None:
        """Write the current hand's actions not yet in the store, in order, and wait for their
        commit (before any event goes out).  Through the journal the commit is shared with
        other tables."""
        state = series.state
        assert state is not None and series.game_id is not None
        history = state.history
        if series.persisted >= len(history):
            return
        game_id, first = series.game_id, series.persisted
        rows = [(game_id, seq, str(history[seq])) for seq in range(first, len(history))]
        journal, fence = self.journal, self.fence

        async def write() -> None:
            if journal is not None:
                await journal.append(rows, fence)
                return
            fences = None if fence is None else {game_id: fence}
            refused = [
                e for e in await self.store.games.append_actions(rows, fences) if e is not None
            ]
            if refused:
                raise refused[0]

        await self.durably(write)  # an action is stored once (by seq), however often tried
        series.persisted = len(history)
        if self.meter is not None:
            self.meter.actions.inc(len(rows))
