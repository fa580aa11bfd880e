"""A registered player's own 何切る puzzles (issue #31 point 5): made from his costliest discard
decisions of a hand once its review is kept, stored per player and family
(:mod:`erren.server.store.drills`), served by ``GET /drills/next?family=F&mine=1``
(:mod:`erren.server.routes.drills`).

* **When**: the review desk (:meth:`erren.server.reviewing.ReviewDesk.review`) has worked out
  and kept a review of a seat held by a user — a background review
  (:mod:`erren.server.reviewlater`) or one he asked for.  Never a guest's seat, never a
  computer's (checked here against the store, as the background reviews are).
* **What**: :func:`erren.review.drills.record_sources` (his three costliest decisions of the
  hand that were discards with a choice) whose review loss is at least :data:`MATERIAL` × the
  family's bad-move threshold, each made a puzzle by :func:`erren.review.drills.make_puzzle`
  (大师's tile from the review, every tile valued over 24 worlds: a few tenths of a CPU
  second each) and kept only if :func:`erren.review.drills.material` at that same share of
  the threshold — the corpus's rule (``python -m erren.review.drills_corpus --material 0.5``).
* **How**: one job per reviewed seat in the review process (:data:`erren.server.work.Work.
  REVIEW`, nice 10), JSON in and out; the desk goes on at once (a task of its own).
* **Low priority, bounded**: the job starts only while fewer than
  :data:`ROOM` review jobs are queued or running (the background reviews' room), and fewer
  than :data:`MAKING_MAX` such jobs waiting; otherwise it is **dropped**
  (:attr:`OwnDrills.dropped`), never queued: his hand is still reviewed, it only yields no
  puzzle.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Final

from erren.engine import Record
from erren.errors import ErrenError
from erren.review.drills import make_puzzle, material, record_sources
from erren.review.model import HandReview
from erren.server import work
from erren.server.perstore import PerStore
from erren.server.store import Store, StoreError
from erren.server.work import Work

__all__ = [
    "MAKING_MAX",
    "MATERIAL",
    "ROOM",
    "TOP",
    "OwnDrills",
    "costly",
    "drills_for",
    "own_puzzles",
]

log = logging.getLogger("erren.server.drills")

MATERIAL: Final = 0.5
"""A decision becomes a puzzle when its loss is at least this share of the family's bad-move
threshold (the corpus's ``--material``)."""
TOP: Final = 3
"""The costliest decisions of a hand looked at (``record_sources(top=...)``)."""
MAKING_MAX: Final = 8
"""Reviewed seats at most waiting for their puzzles to be made (past it: dropped)."""
ROOM: Final = 2
"""A puzzle job starts only while fewer review jobs than this are queued or running (the
background reviews' room, :data:`erren.server.reviewlater.LATER_ROOM`)."""


def own_puzzles(record_json: str, review_json: str) -> str:
    """In the review process: the puzzles of the reviewed seat's material costliest discards,
    ``{"puzzles": [{"step", "puzzle"}]}`` (``puzzle`` a :meth:`Puzzle.to_dict` whose ``id`` is
    ``""``: the store names it), or ``{"refusal": why}``."""
    try:
        record = Record.from_json(record_json)
        review = HandReview.from_dict(json.loads(review_json))
        threshold = MATERIAL * review.threshold
        losses = {d.step: d.loss for d in review.decisions}
        out = []
        for source in record_sources(record, review, top=TOP):
            step = source.step
            if step is None or losses.get(step, 0.0) < threshold:
                continue
            puzzle = make_puzzle(source, None, ident="")
            if material(puzzle, threshold):
                out.append({"step": step, "puzzle": puzzle.to_dict()})
    except (ErrenError, ValueError, KeyError, TypeError, AttributeError) as err:
        return json.dumps({"refusal": f"no puzzles: {err}"})
    return json.dumps({"puzzles": out}, ensure_ascii=False)


def costly(review: dict[str, Any]) -> bool:
    """Whether a review (a ``HandReview`` dict) has a decision losing at least
    :data:`MATERIAL` × its bad-move threshold (read here, before any job is started)."""
    try:
        threshold = MATERIAL * float(review["threshold"])
        return any(float(d["loss"]) >= threshold for d in review["decisions"])
    except (KeyError, TypeError, ValueError):
        return False


class OwnDrills:
    """The puzzle jobs of one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.pending: set[asyncio.Task[None]] = set()
        self.made = 0
        """Puzzles kept since the start (tests, logs)."""
        self.dropped = 0
        """Reviewed seats whose puzzles were not made (the review process busy, a failure)."""

    @staticmethod
    def _busy() -> bool:
        return work.in_flight(Work.REVIEW) >= ROOM

    def keep(
        self, game: int, seat: int, record: dict[str, Any], review: dict[str, Any], user_id: int
    ) -> None:
        """Make and keep the puzzles of ``seat``'s kept ``review`` of game ``game`` for user
        ``user_id`` if he is registered, in the background; returns at once.  Nothing to do
        for a hand without a decision of his losing :data:`MATERIAL` × the threshold."""
        if not costly(review):
            return
        if len(self.pending) >= MAKING_MAX or self._busy():
            self.dropped += 1
            log.info("puzzles of game %s seat %s dropped: the review process is busy", game, seat)
            return
        task = asyncio.create_task(
            self._make(game, seat, record, review, user_id), name=f"drills {game}:{seat}"
        )
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def settled(self) -> None:
        """Wait for every puzzle job under way (tests)."""
        while self.pending:
            await asyncio.gather(*self.pending, return_exceptions=True)

    async def _make(
        self, game: int, seat: int, record: dict[str, Any], review: dict[str, Any], user_id: int
    ) -> None:
        try:
            user = await self.store.accounts.user(user_id)
            if user is None or user.is_guest:
                return
            if self._busy():
                self.dropped += 1
                return
            body = {k: v for k, v in review.items() if k != "hindsight"}
            text = json.dumps(record, ensure_ascii=False)
            answer = json.loads(await work.run(Work.REVIEW, own_puzzles, text, json.dumps(body)))
            if "puzzles" not in answer:
                log.warning("puzzles of game %s seat %s: %s", game, seat, answer.get("refusal"))
                self.dropped += 1
                return
            family = str(record.get("ruleset", ""))
            for found in answer["puzzles"]:
                await self.store.drills.put(
                    user_id, family, game, int(found["step"]), found["puzzle"], seat=seat
                )
                self.made += 1
        except (work.BusyError, StoreError) as err:
            log.info("puzzles of game %s seat %s not made: %s", game, seat, err)
            self.dropped += 1
        except Exception:  # a background task: never let it die unheard
            log.exception("puzzles of game %s seat %s failed", game, seat)
            self.dropped += 1


drills_for: PerStore[OwnDrills] = PerStore(OwnDrills)
"""The one :class:`OwnDrills` of a store."""
