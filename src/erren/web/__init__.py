"""The browser client: static files (plain ES modules, SVG tiles drawn by our own code) served
by ``erren serve`` at ``/``, and one stateless helper route for replays.

``mount_web(app)`` adds to a FastAPI app:

* ``GET /`` — ``index.html`` (the single page: lobby, table, settlement, replays);
* ``/web/...`` — the static files of this folder (``js/``, ``style.css``);
* ``GET /web/names.json`` — the English names of every fan, pattern and 水 item;
* ``POST /web/replay`` — a finished hand's record (as ``GET /games/{id}`` returns it) →
  one frame per move with **both** hands open.  It replays the record with the engine, so the
  browser needs no copy of the rules; it reads nothing but the record it is given.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from erren.web.names import names
from erren.web.replay import frames

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["WEB_DIR", "frames", "mount_web", "names"]

WEB_DIR = Path(__file__).resolve().parent


def mount_web(app: FastAPI) -> None:
    """Serve the client at ``/`` and its files under ``/web``."""
    from fastapi import Body, HTTPException  # noqa: PLC0415 - the server extra
    from fastapi.responses import FileResponse  # noqa: PLC0415
    from fastapi.staticfiles import StaticFiles  # noqa: PLC0415

    from erren.errors import NotationError  # noqa: PLC0415

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @app.post("/web/replay", tags=["web"])
    async def replay_frames(record: dict[str, Any] = Body(...)) -> dict[str, Any]:  # noqa: B008
        """A finished hand's record → its frames, both hands open (the replay viewer)."""
        try:
            return frames(record)
        except (NotationError, ValueError, KeyError, TypeError) as err:
            raise HTTPException(422, f"not a replayable record: {err}") from None

    @app.get("/web/names.json", tags=["web"])
    async def scoring_names() -> dict[str, Any]:
        """Chinese → English names of every family's fans, patterns and 水 items."""
        return names()

    app.mount("/web", StaticFiles(directory=WEB_DIR, check_dir=True), name="web")
