"""Game records: a player's games, and one game's record (revealed once finished)."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response

from erren.engine import Record
from erren.errors import ErrenError
from erren.mjai.export import export_mjai
from erren.server.privacy import is_bean_room, record_for
from erren.server.routes.common import (
    MAX_ID,
    ApiError,
    CurrentUser,
    StoreDep,
    StrictJSONRoute,
    Viewer,
)
from erren.server.routes.models import GameOut
from erren.server.store import User

__all__ = ["router"]

router = APIRouter(route_class=StrictJSONRoute, tags=["games"])


@router.get("/games", response_model=list[GameOut])
async def games(  # noqa: PLR0917  (the history's filters)
    user: CurrentUser,
    store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    family: Annotated[str | None, Query(max_length=64, description="a family's name")] = None,
    room: Annotated[
        str | None, Query(max_length=64, description="a room id, or private / computer")
    ] = None,
    opponent: Annotated[
        str | None,
        Query(max_length=100, description="the opponent's name (any case); empty: the computer"),
    ] = None,
    result: Annotated[
        Literal["win", "loss", "draw"] | None,
        Query(description="your result (settled hands only; an opponent's escape is a win)"),
    ] = None,
) -> list[GameOut]:
    """Your games, newest first, each with your result and beans once settled; filtered by
    ``family``, ``room``, ``opponent`` and ``result`` when given."""
    found = await store.profiles.history(
        user.id, family=family, room=room, opponent=opponent, result=result, limit=limit
    )
    return [
        GameOut(
            id=g.id,
            ruleset=g.ruleset,
            room=g.room,
            players=list(g.players),
            finished=g.finished,
            summary=g.summary,
            created_at=g.created_at.isoformat(),
            finished_at=None if g.finished_at is None else g.finished_at.isoformat(),
            seat=g.seats.index(user.id) if user.id in g.seats else None,
            outcome=g.outcome,
            result=g.result,
            beans=g.beans,
        )
        for g in found
    ]


@router.get("/games/{game_id}")
async def game(game_id: int, store: StoreDep, viewer: Viewer) -> dict[str, Any]:
    """A finished game's record (seed and salt revealed); a running game shows only its
    header and commitment — its actions hold the wall.  A bean-room game's record shows the
    players' names and beans to its two players only (log in to see yours); anyone else gets
    it anonymous (``bean_room`` says the beans moved, whoever may see them; ``seat`` is the
    caller's seat in the game, ``None`` for anyone else).  404 for an id no game has (any id
    beyond 32 bits included)."""
    found = await store.games.get(game_id) if 1 <= game_id <= MAX_ID else None
    if found is None:
        raise ApiError(404, "no-game", f"no game {game_id}")
    if not found.finished or found.record is None:
        return {
            "id": found.id,
            "ruleset": found.ruleset,
            "room": found.room,
            "finished": False,
            "commitment": found.commitment,
            "actions": len(found.actions),
        }
    me = _id(viewer)
    record = record_for(found.record, found.room, found.seats, me)
    seat = found.seats.index(me) if me is not None and me in found.seats else None
    return {
        "id": found.id,
        "finished": True,
        "bean_room": is_bean_room(found.room),
        "seat": seat,
        "record": record,
    }


@router.get(
    "/games/{game_id}/log",
    response_class=Response,
    responses={200: {"content": {"application/x-ndjson": {}, "application/json": {}}}},
)
async def game_log(
    game_id: int,
    store: StoreDep,
    viewer: Viewer,
    format: Literal["mjai", "erren"] = "mjai",
    seat: Annotated[int | None, Query(ge=0, le=1)] = None,
) -> Response:
    """A finished game's log to download: ``format=mjai`` the mjai log of the two-seat profile
    (``docs/mjai-2p.md``; the full log, which ``erren import`` reads back, or with ``seat`` what
    that seat saw), ``format=erren`` the record as stored; a bean-room game's as
    ``GET /games/{id}`` shows it to the caller (named for its players only).  404 for no such
    game, 409 while it runs (its actions hold the wall), 422 for ``seat`` with
    ``format=erren``."""
    found = await store.games.get(game_id) if 1 <= game_id <= MAX_ID else None
    if found is None:
        raise ApiError(404, "no-game", f"no game {game_id}")
    if not found.finished or found.record is None:
        raise ApiError(409, "game-running", f"game {game_id} is not finished: no log yet")
    record = dict(record_for(found.record, found.room, found.seats, _id(viewer)))
    if format == "erren":
        if seat is not None:
            raise ApiError(422, "bad-seat", "seat is for format=mjai: an erren record is whole")
        body = json.dumps(record, ensure_ascii=False) + "\n"
        return _download(body, "application/json", f"erren-game-{game_id}.json")
    try:
        messages = export_mjai([Record.from_dict(record)], seat, names=_names(record))
        body = "".join(json.dumps(m, ensure_ascii=False) + "\n" for m in messages)
    except (ErrenError, ValueError) as err:  # a stored record always replays; say so if not
        raise ApiError(409, "not-replayable", f"game {game_id} does not replay: {err}") from None
    who = "" if seat is None else f"-seat{seat}"
    return _download(body, "application/x-ndjson", f"erren-game-{game_id}{who}.mjai.jsonl")


def _names(record: dict[str, Any]) -> tuple[str, str]:
    """The seats' names for an mjai log: the record's, ``seat N`` where it has none."""
    seats = record.get("seats")
    known = seats if isinstance(seats, list) and len(seats) == 2 else [None, None]
    first, second = (n if isinstance(n, str) else f"seat {i}" for i, n in enumerate(known))
    return first, second


def _id(user: User | None) -> int | None:
    return None if user is None else user.id


def _download(body: str, media: str, filename: str) -> Response:
    return Response(
        body.encode("utf-8"),
        media_type=f"{media}; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
