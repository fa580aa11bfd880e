"""何切る drills over HTTP (issue #31 point 5): the corpus's puzzles (:mod:`erren.review.drills`,
made offline and shipped with the package) to anyone, logged in or not.

* ``GET /drills/next?family=F[&after=ID]`` — a puzzle of family ``F`` without its answer
  (:func:`erren.review.drills.puzzle_view`): the one after ``after`` in the corpus's order
  (wrapping), else one at random.
* ``POST /drills/{id}/answer`` with ``{"tile": "5m"}`` — 大师's tile, the chosen tile's expected
  loss against it, every discard's expected points and loss, the reason of both tiles as the
  hint button gives it (``code``, ``params``) and the explanation worded in zh and en with the
  hint button's own words (``web/js/i18n.js``'s ``hn_r_*`` rows, read from the file).

Bounded: every answer is precomputed (a lookup, no rollout per request) and each client
address makes at most :data:`PER_ADDRESS` requests a minute (429 ``too-many-drills`` with
``Retry-After`` past it).
"""

from __future__ import annotations

import random
import re
from functools import cache
from importlib import resources
from typing import Annotated, Any, Final

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from erren.engine import family_names, find_family
from erren.review.drills import Choice, Puzzle, load_corpus, puzzle_view
from erren.server.ratelimit import Throttle
from erren.server.routes.common import ApiError, StrictJSONRoute, client_address

__all__ = ["PER_ADDRESS", "DrillDesk", "desk", "reason_words", "router"]

PER_ADDRESS: Final = 240
"""Requests a minute from one client address (a player answers a few a minute)."""

router = APIRouter(route_class=StrictJSONRoute, tags=["drills"])


class AnswerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tile: str = Field(min_length=2, max_length=2, description="the tile discarded, e.g. 5m")


class DrillDesk:
    """The corpus by family and by id, the picker's ``rng`` and the throttle."""

    def __init__(
        self,
        puzzles: tuple[Puzzle, ...] | None = None,
        rng: random.Random | None = None,
        per_address: int = PER_ADDRESS,
    ) -> None:
        self.puzzles = load_corpus() if puzzles is None else puzzles
        self.by_id = {p.id: p for p in self.puzzles}
        self.by_family: dict[str, list[Puzzle]] = {}
        for puzzle in self.puzzles:
            self.by_family.setdefault(puzzle.family, []).append(puzzle)
        self.rng = rng or random.Random()
        self.throttle = Throttle("drills", per_address, 60)

    def check(self, address: str) -> None:
        """Count one request of ``address``; 429 past the limit."""
        wait = self.throttle.retry_after(address)
        if wait is not None:
            raise ApiError(
                429,
                "too-many-drills",
                f"more than {self.throttle.limit} drill requests a minute from your address; "
                f"try again in {wait} s",
                params={"retry_after": wait},
                headers={"Retry-After": str(wait)},
            )
        self.throttle.count(address)

    def next(self, family: str, after: str | None) -> Puzzle:
        found = self.by_family.get(family)
        if not found:
            if family not in family_names():
                raise ApiError(404, "no-family", f"no family {family!r}", params={"family": family})
            raise ApiError(404, "no-drills", f"no drills for {family}", params={"family": family})
        if after is not None and after in self.by_id and self.by_id[after].family == family:
            return found[(found.index(self.by_id[after]) + 1) % len(found)]
        return self.rng.choice(found)


desk = DrillDesk()
"""The app's drills (the corpus is read once, on first import)."""


# ---------------------------------------------------------------------------- the words
_ROW = re.compile(r'^\s*(hn_r_\w+): \["((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"\],?\s*$')


@cache
def _hint_rows() -> dict[str, tuple[str, str]]:
    """The hint button's reason rows of ``web/js/i18n.js``: key → (zh, en)."""
    text = resources.files("erren.web").joinpath("js/i18n.js").read_text(encoding="utf-8")
    rows: dict[str, tuple[str, str]] = {}
    for line in text.splitlines():
        m = _ROW.match(line)
        if m:
            rows[m.group(1)] = (m.group(2), m.group(3))
    return rows


def _fill(row: tuple[str, str], lang: int, *args: int) -> str:
    text = row[lang]
    for i, value in enumerate(args):
        text = text.replace(f"{{{i}}}", str(value))
    return text


def reason_words(code: str, params: dict[str, int], lang: str) -> str:
    """A reason in ``lang`` (``zh`` or ``en``) as the hint button words it (``reasonText`` in
    ``web/js/hints.js``)."""
    rows = _hint_rows()
    i = 0 if lang == "zh" else 1
    p = params
    if code == "win":
        return _fill(rows["hn_r_win"], i)
    if code in ("ready", "ting"):
        return _fill(rows[f"hn_r_{code}"], i, p.get("kinds", 0), p.get("left", 0))
    if code == "keeps":
        args = (p.get("left", 0), p.get("kinds", 0), p.get("shanten", 0))
        return _fill(rows["hn_r_keeps"], i, *args)
    if code == "claim":
        if p.get("shanten", 0) == 0:
            return _fill(rows["hn_r_claim_ready"], i)
        return _fill(rows["hn_r_claim"], i, p.get("shanten", 0))
    if code in ("pass", "kong"):
        return _fill(rows[f"hn_r_{code}"], i)
    return _fill(rows["hn_r_other"], i)


def _reason(choice: Choice) -> dict[str, Any]:
    return {
        "code": choice.code,
        "params": choice.params,
        "zh": reason_words(choice.code, choice.params, "zh"),
        "en": reason_words(choice.code, choice.params, "en"),
    }


@cache
def _unit(family: str) -> dict[str, str]:
    """What the family's points count, in both languages (分 / point)."""
    unit = find_family(family).point_unit
    return {"zh": unit.zh, "en": unit.en}


def answer_json(puzzle: Puzzle, tile: str) -> dict[str, Any]:
    """The answer to ``tile`` (a choice of ``puzzle``): see the module."""
    mine, best = puzzle.choice(tile), puzzle.choice(puzzle.answer)
    if mine is None or best is None:
        raise ApiError(
            422, "not-a-choice", f"{tile} cannot be discarded here", params={"tile": tile}
        )
    return {
        "id": puzzle.id,
        "family": puzzle.family,
        "unit": _unit(puzzle.family),
        "tile": tile,
        "answer": puzzle.answer,
        "correct": tile == puzzle.answer,
        "loss": puzzle.loss(tile),
        "choices": [
            {"tile": c.tile, "ev": c.ev, "loss": puzzle.loss(c.tile)} for c in puzzle.choices
        ],
        "reasons": {"answer": _reason(best), "tile": _reason(mine)},
        "foil": {"tile": puzzle.foil, "by": puzzle.by},
        "worlds": puzzle.worlds,
    }


@router.get("/drills/next")
async def next_drill(
    request: Request,
    family: Annotated[str, Query(max_length=40)],
    after: Annotated[str | None, Query(max_length=60)] = None,
) -> dict[str, Any]:
    """A 何切る puzzle of ``family`` without its answer (the one after ``after``, else one at
    random); 404 ``no-family`` / ``no-drills``; 429 ``too-many-drills``."""
    desk.check(client_address(request))
    return puzzle_view(desk.next(family, after))


@router.post("/drills/{puzzle_id}/answer")
async def answer_drill(request: Request, puzzle_id: str, body: AnswerIn) -> dict[str, Any]:
    """大师's answer to a puzzle and what the chosen ``tile`` costs; 404 ``no-drill``, 422
    ``not-a-choice``, 429 ``too-many-drills``."""
    desk.check(client_address(request))
    puzzle = desk.by_id.get(puzzle_id)
    if puzzle is None:
        raise ApiError(404, "no-drill", f"no drill {puzzle_id!r}", params={"id": puzzle_id})
    return answer_json(puzzle, body.tile)
