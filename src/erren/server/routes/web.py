"""The browser client's routes: the page, its files and one stateless helper for replays.

``mount_web(app)`` adds to a FastAPI app (the client's files and their release hash are in
:mod:`erren.web`):

* ``GET /`` — ``index.html`` (the single page: lobby, table, settlement, replays), never cached
  (``Cache-Control: no-cache``), its stylesheet and script under the release's URL;
* ``/web/<release>/...`` — the client's files (``js/*.js``, ``style.css``, and each family's
  client module at ``js/families/<family>.js``: :attr:`erren.engine.family.Family.web_module`,
  listed by ``GET /families``), cached for a year
  (``immutable``): ``<release>`` (:data:`erren.web.RELEASE`) is a hash of every file of the
  client, so a new release has new URLs and is never served stale;
* ``/web/<release>/js/families/<file>.js`` — a family module's other files, from the family's
  own web folder (beside its module: the module imports ``./<file>.js``; arcade's campaign
  screen), the one family folder holding that name; not in the release's hash, so revalidated
  on every use (``no-cache``);
* ``/web/...`` — the same files under their plain URL (an old tab, a bookmark), revalidated
  on every use (``no-cache``);
* ``GET /web/names.json`` — the English names of every fan, pattern and 水 item;
* ``GET /rules/{family}`` (``?table=gb`` for guobiao-2p's other fan table) — the rules page
  (:func:`erren.rules.rules_json`): prose in both languages and every row of the scorer's
  table with its value and an example hand; ``GET /tutorial`` — the guided first hand
  (:func:`erren.rules.tutorial.tutorial_json`);
* ``POST /web/replay`` — a finished hand's record (as ``GET /games/{id}`` returns it) →
  one frame per move with **both** hands open (:func:`erren.server.routes.replay.frames`).
  It replays the record with the engine, so the browser needs no copy of the rules; it reads
  nothing but the record it is given.  An illegal move in the record answers 422 with the
  engine's reason.  Anyone may post, so the work is bounded (:mod:`.replays`): in a separate
  process, at most a real hand's actions, cached, throttled per address.

Only the client's files are served: the Python modules of :mod:`erren.web` are not.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import Body, FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.requests import Request

from erren.engine.registry import families
from erren.rules import rules_json
from erren.rules.tutorial import tutorial_json
from erren.server.routes.common import ApiError, client_address
from erren.server.routes.replays import ReplayDesk
from erren.web import ASSETS, IMMUTABLE, RELEASE, RELEASE_SHAPE, REVALIDATE, index_html, names

__all__ = ["family_file", "mount_web"]

FAMILY_FILE = re.compile(r"js/families/([a-z][a-z0-9_-]*\.js)")
"""A family module's other file, as the module imports it (``./<file>.js`` beside itself)."""


def family_file(path: str) -> Path | None:
    """The file of a family's web folder that ``path`` (under ``/web/``) names: a ``.js`` file
    beside a family's client module other than the module itself, held by exactly one family
    (a name two families use is served for neither), or None."""
    shape = FAMILY_FILE.fullmatch(path)
    if shape is None or shape[1] == "family.js":
        return None
    found = {
        module.parent / shape[1]
        for module in (family.web_module for family in families())
        if module is not None and (module.parent / shape[1]).is_file()
    }
    return found.pop() if len(found) == 1 else None


def mount_web(app: FastAPI) -> None:
    """Serve the client at ``/`` and its files under ``/web``."""
    page = index_html()

    @app.get("/", include_in_schema=False)
    async def index() -> HTMLResponse:
        return HTMLResponse(page, headers={"Cache-Control": REVALIDATE})

    replays = ReplayDesk()

    @app.post("/web/replay", tags=["web"])  # the app's routes read JSON strictly (StrictJSONRoute)
    async def replay_frames(request: Request, record: dict[str, Any] = Body(...)) -> Response:  # noqa: B008
        """A finished hand's record → its frames, both hands open (the replay viewer).
        422 when the record cannot be replayed (the engine's reason: a malformed or illegal
        move, an unknown ruleset, more actions than a real hand holds, ...); 429 with
        ``Retry-After`` past 30 new replays a minute from one address; 503 ``busy`` while
        4 are already being worked out."""
        return await replays.answer(record, client_address(request), request.headers)

    @app.get("/web/names.json", tags=["web"])
    async def scoring_names() -> dict[str, Any]:
        """Chinese → English names of every fan, pattern and 水 item."""
        return names()

    @app.get("/rules/{family}", tags=["web"])
    async def rules_page(family: str, table: str | None = None) -> dict[str, Any]:
        """A family's rules: sections in Chinese and English and the fan / pattern / 水 rows
        of its scorer, each with its value and an example hand.  404 for an unknown family
        or fan table."""
        try:
            return rules_json(family, table)
        except ValueError as err:
            raise ApiError(404, "not-found", str(err)) from None

    @app.get("/tutorial", tags=["web"])
    async def tutorial() -> dict[str, Any]:
        """The guided first hand: a scripted guobiao-2p deal through the engine, seat 0's
        observation before each taught move, and the end."""
        return tutorial_json()

    def client_file_response(path: Path, cache: str, request: Request) -> Response:
        reply = FileResponse(path, headers={"Cache-Control": cache}, stat_result=path.stat())
        if request.headers.get("if-none-match") == reply.headers.get("etag"):  # revalidation
            return Response(
                status_code=304, headers={"ETag": reply.headers["etag"]} | {"Cache-Control": cache}
            )
        return reply

    async def client_file(request: Request) -> Response:
        path = str(request.path_params["path"])
        release, _, rest = path.partition("/")
        if RELEASE_SHAPE.fullmatch(release) and rest in ASSETS:
            cache = IMMUTABLE if release == RELEASE else REVALIDATE  # an older release's URL
            return client_file_response(ASSETS[rest], cache, request)
        if path in ASSETS:
            return client_file_response(ASSETS[path], REVALIDATE, request)
        extra = family_file(rest if RELEASE_SHAPE.fullmatch(release) else path)
        if extra is not None:
            return client_file_response(extra, REVALIDATE, request)
        raise ApiError(404, "not-found", f"no client file {path[:80]!r}")

    # a plain Starlette route (GET and HEAD), after /web/replay and /web/names.json
    app.router.add_route(
        "/web/{path:path}", client_file, methods=["GET", "HEAD"], include_in_schema=False
    )
