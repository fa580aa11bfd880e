"""The help a player may ask for at his table: the expert's advice on his decision now, and
the review of the hand that just ended (大师 at each of his own decisions,
:mod:`erren.server.reviewing`).  Both are worked out in their own pools
(:mod:`erren.server.work`): the advice in a thread, the review in the review process."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Any

from erren.bots import Bot, find_bot
from erren.bots.hints import reason
from erren.server import work
from erren.server.protocol import action_text, error_json
from erren.server.reviewing import ReviewDesk, UnreviewableError, message
from erren.server.table.seats import Conn
from erren.server.table.series import Series
from erren.server.work import Work

__all__ = ["Adviser"]

log = logging.getLogger("erren.server.table")


class Adviser:
    """Advice and reviews at one table."""

    def __init__(
        self,
        table_id: str,
        series: Series,
        rng: random.Random | None,
        desk: Callable[[], ReviewDesk],
    ) -> None:
        self.table_id = table_id
        self.desk = desk
        """The store's review desk, found when a review is first asked for."""
        self.series = series
        self.rng = rng
        self._expert: Bot | None = None
        self._advice: dict[tuple[int, int, int], tuple[str, dict[str, Any]]] = {}
        """The last advice given: ``(game, seat, actions applied) -> (action, reason)``."""
        self.reviewing: set[asyncio.Task[None]] = set()
        """Reviews being worked out (the actor does not wait for them: the table plays on)."""

    def expert(self) -> Bot:
        """The ``expert`` that answers the players' ``advice`` requests, bound to the rules."""
        if self._expert is None:
            self._expert = find_bot("expert", seed=self.rng.getrandbits(32) if self.rng else None)
        self._expert.bind(self.series.ruleset)
        return self._expert

    def stop(self) -> None:
        """Cancel the reviews being worked out (the table stops)."""
        for task in list(self.reviewing):
            task.cancel()

    async def advise(self, conn: Conn) -> None:
        """``{"type": "advice", "n", "action", "reason"}`` to ``conn`` alone: the ``expert``'s
        move for his seat at event ``n``, chosen from his observation and nothing else
        (``action`` is ``null`` when he has no decision to make), and why in a short phrase,
        ``{"code", "params"}`` (:func:`erren.bots.hints.reason`, from the same observation).
        One expert decision per event and seat: a second request at the same event is answered
        from the first."""
        series = self.series
        state, seat = series.state, conn.seat
        if state is None or not series.running or seat < 0 or state.actor != seat:
            n = None if state is None else state.event_count
            conn.send({"type": "advice", "n": n, "action": None, "reason": None})
            return
        n = state.event_count
        key = (series.game_id or 0, seat, len(state.history))  # this hand's decision
        given = self._advice.get(key)
        if given is None:
            obs = state.observe(seat)
            if not obs.legal_actions:
                conn.send({"type": "advice", "n": n, "action": None, "reason": None})
                return
            adviser = self.expert()
            try:
                action = await work.run(Work.ADVICE, adviser.choose, obs, obs.legal_actions)
            except work.BusyError as err:
                conn.send(error_json("busy", str(err), params=err.params))
                return
            if series.state is not state or key[2] != len(state.history):
                # the hand moved on
                conn.send({"type": "advice", "n": n, "action": None, "reason": None})
                return
            why = reason(obs, action)
            given = (action_text(action), {"code": why.code, "params": why.params})
            self._advice = {key: given}
        conn.send({"type": "advice", "n": n, "action": given[0], "reason": given[1]})

    def review(self, conn: Conn) -> None:
        """``{"type": "review", "game", "seat", "review", "hindsight"}`` to ``conn`` alone, once
        the hand is over: ``erren.review``'s ``HandReview`` of his seat by 大师 (each decision
        asked from his own observation at that moment; :mod:`erren.server.reviewing`) and his
        hindsight (the best line with every tile known, :mod:`erren.review.hindsight`), worked
        out in the review process on request and kept in the store; refused while a hand runs
        or before the first one."""
        series = self.series
        state, seat, game = series.state, conn.seat, series.game_id
        if state is None or series.running or seat < 0 or game is None:
            conn.send(error_json("no-review", "the review is ready once a hand is over"))
            return
        # worked out beside the actor: a review takes a second or more on a busy machine, and
        # the table's other messages (the opponent's, the next hand's) must not wait for it
        worker = self._work_out(conn, game, seat, state.record().to_dict())
        task = asyncio.create_task(worker, name=f"review {self.table_id} {game}:{seat}")
        self.reviewing.add(task)
        task.add_done_callback(self.reviewing.discard)

    async def _work_out(self, conn: Conn, game: int, seat: int, record: dict[str, Any]) -> None:
        """Review ``record`` for ``seat`` (kept, or worked out and kept), send it to ``conn``."""
        try:
            body = await self.desk().review(game, seat, record, user_id=conn.user_id)
        except work.BusyError as err:
            conn.send(error_json("busy", str(err), params=err.params))
            return
        except UnreviewableError as err:  # the kernel or the bot could not read a position
            log.warning("table %s: no review of game %s: %s", self.table_id, game, err)
            conn.send(error_json("no-review", "this hand cannot be reviewed"))
            return
        conn.send(message(game, seat, body))
