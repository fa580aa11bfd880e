"""何切る drills over HTTP (issue #31 point 5): the corpus's puzzles (:mod:`erren.review.drills`,
made offline and shipped with the package) to anyone, logged in or not.

* ``GET /drills/next?family=F[&after=ID]`` — a puzzle of family ``F`` without its answer
  (:func:`erren.review.drills.puzzle_view`): the one after ``after`` in the corpus's order
  (wrapping), else one at random.
* ``POST /drills/{id}/answer`` with ``{"tile": "5m"}`` — 大师's tile, the chosen tile's expected
  loss against it, every discard's expected points and loss, the reason of both tiles as the
  hint button gives it (``code``, ``params``) and the explanation worded in zh and en with the
  hint button's own words (``web/js/i18n.js``'s ``hn_r_*`` rows, read from the file).

A registered player's own puzzles (:mod:`erren.server.owndrills`: made from his costliest
discards once a hand of his is reviewed, kept in :mod:`erren.server.store.drills`):

* ``GET /drills/next?family=F&mine=1`` — one of his own: his newest not yet answered, else one
  at random among his kept ones (another than ``after`` when he has two or more); with
  ``source`` ``{game, seat, step}``, the hand it came from.  Its id is ``my.N``: never a
  corpus id (those are ``family.N``), and read or answered only by its owner (anyone else's
  answer is 404 ``no-drill``).  401 ``auth`` without a login, 403 ``account-needed`` for a
  guest, 404 ``no-drills`` while he has none of the family.
* ``GET /me/drills`` — how many he has per family, and how many he has not answered yet.

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

from fastapi import APIRouter, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from erren.engine import family_names, find_family
from erren.review.drills import Choice, Puzzle, load_corpus, puzzle_view
from erren.server.ratelimit import Throttle
from erren.server.routes.common import (
    ApiError,
    StoreDep,
    StrictJSONRoute,
    bearer,
    client_address,
)
from erren.server.store import Store, StoredDrill, User

__all__ = ["MINE", "PER_ADDRESS", "DrillDesk", "desk", "reason_words", "router"]

PER_ADDRESS: Final = 240
"""Requests a minute from one client address (a player answers a few a minute)."""

MINE: Final = "my."
"""The prefix of a player's own puzzle's id (``my.N``, ``N`` the store's): no corpus id has it."""
ACCOUNT_NEEDED = "your own drills are kept for registered accounts; register to keep yours"

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
    return find_family(family).point_unit.names


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


def own_puzzle(found: StoredDrill) -> Puzzle:
    """A player's kept puzzle, named ``my.N``."""
    return Puzzle.from_dict({**found.puzzle, "id": f"{MINE}{found.id}"})


def _source(found: StoredDrill) -> dict[str, int]:
    return {"game": found.game_id, "seat": found.seat, "step": found.step}


async def _player(store: Store, authorization: str | None) -> User:
    """The registered player of the request: 401 ``auth``, 403 ``account-needed``."""
    token = bearer(authorization)
    user = await store.accounts.user_for_token(token) if token else None
    if user is None:
        raise ApiError(401, "auth", "log in first (Authorization: Bearer TOKEN)")
    if user.is_guest:
        raise ApiError(403, "account-needed", ACCOUNT_NEEDED)
    return user


async def _own_next(store: Store, user: User, family: str, after: str | None) -> dict[str, Any]:
    if family not in family_names():
        raise ApiError(404, "no-family", f"no family {family!r}", params={"family": family})
    found = await store.drills.next(user.id, family)
    if found is None:
        kept = await store.drills.recent(user.id, family, limit=store.drills.keep)
        others = [d for d in kept if f"{MINE}{d.id}" != after] or kept
        if not others:
            raise ApiError(
                404, "no-drills", f"no drills of yours for {family}", params={"family": family}
            )
        found = desk.rng.choice(others)
    return {**puzzle_view(own_puzzle(found)), "source": _source(found)}


@router.get("/drills/next")
async def next_drill(
    request: Request,
    store: StoreDep,
    *,
    family: Annotated[str, Query(max_length=40)],
    after: Annotated[str | None, Query(max_length=60)] = None,
    mine: Annotated[bool, Query(description="one of your own puzzles")] = False,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """A 何切る puzzle of ``family`` without its answer (the one after ``after``, else one at
    random; with ``mine``: one of your own, newest unanswered first, with its ``source``);
    401 ``auth`` / 403 ``account-needed`` (``mine``), 404 ``no-family`` / ``no-drills``;
    429 ``too-many-drills``."""
    desk.check(client_address(request))
    if mine:
        return await _own_next(store, await _player(store, authorization), family, after)
    return puzzle_view(desk.next(family, after))


@router.get("/me/drills")
async def my_drills(
    request: Request,
    store: StoreDep,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """How many puzzles of your own you have per family (``kept``) and how many you have not
    answered yet (``unanswered``); 401 ``auth``, 403 ``account-needed``."""
    desk.check(client_address(request))
    user = await _player(store, authorization)
    counts = await store.drills.counts(user.id)
    return {
        "keep": store.drills.keep,
        "families": [
            {"family": family, "kept": kept, "unanswered": left}
            for family, (kept, left) in sorted(counts.items())
        ],
    }


async def _own_answer(
    store: Store, authorization: str | None, puzzle_id: str, tile: str
) -> dict[str, Any]:
    number = puzzle_id.removeprefix(MINE)
    token = bearer(authorization)
    user = await store.accounts.user_for_token(token) if token else None
    found = None
    if user is not None and number.isdigit() and len(number) <= 18:
        found = await store.drills.get(user.id, int(number))
    if user is None or found is None:
        raise ApiError(404, "no-drill", f"no drill {puzzle_id!r}", params={"id": puzzle_id})
    answer = answer_json(own_puzzle(found), tile)
    await store.drills.answered(user.id, found.id)
    return {**answer, "source": _source(found)}


@router.post("/drills/{puzzle_id}/answer")
async def answer_drill(
    request: Request,
    store: StoreDep,
    puzzle_id: str,
    body: AnswerIn,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """大师's answer to a puzzle and what the chosen ``tile`` costs (one of your own, ``my.N``,
    with its ``source``); 404 ``no-drill``, 422 ``not-a-choice``, 429 ``too-many-drills``."""
    desk.check(client_address(request))
    if puzzle_id.startswith(MINE):
        return await _own_answer(store, authorization, puzzle_id, body.tile)
    puzzle = desk.by_id.get(puzzle_id)
    if puzzle is None:
        raise ApiError(404, "no-drill", f"no drill {puzzle_id!r}", params={"id": puzzle_id})
    return answer_json(puzzle, body.tile)
