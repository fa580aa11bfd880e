"""The browser client: static files (plain ES modules, SVG tiles drawn by our own code) served
by ``erren serve`` at ``/``, and one stateless helper route for replays.

``mount_web(app)`` adds to a FastAPI app:

* ``GET /`` — ``index.html`` (the single page: lobby, table, settlement, replays), never cached
  (``Cache-Control: no-cache``), its stylesheet and script under the release's URL;
* ``/web/<release>/...`` — the client's files (``js/*.js``, ``style.css``), cached for a year
  (``immutable``): ``<release>`` (:data:`RELEASE`) is a hash of every file of the client, so a
  new release has new URLs and is never served stale;
* ``/web/...`` — the same files under their plain URL (an old tab, a bookmark), revalidated
  on every use (``no-cache``);
* ``GET /web/names.json`` — the English names of every fan, pattern and 水 item;
* ``POST /web/replay`` — a finished hand's record (as ``GET /games/{id}`` returns it) →
  one frame per move with **both** hands open.  It replays the record with the engine, so the
  browser needs no copy of the rules; it reads nothing but the record it is given.  An illegal
  move in the record answers 422 with the engine's reason.

Only the client's files are served: the Python modules of this package are not.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from erren.web.names import names
from erren.web.replay import frames

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["ASSETS", "RELEASE", "WEB_DIR", "frames", "index_html", "mount_web", "names"]

WEB_DIR = Path(__file__).resolve().parent
CLIENT_SUFFIXES: Final = frozenset({".js", ".css", ".svg", ".png", ".webp", ".ico", ".woff2"})
IMMUTABLE: Final = "public, max-age=31536000, immutable"
REVALIDATE: Final = "no-cache"


def _assets() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(WEB_DIR.rglob("*")):
        rel = path.relative_to(WEB_DIR)
        if path.is_file() and path.suffix in CLIENT_SUFFIXES and "__pycache__" not in rel.parts:
            found[rel.as_posix()] = path
    return found


ASSETS: Final = _assets()
"""The client's files by their path under ``/web/`` (nothing else is served from here)."""


def _release() -> str:
    digest = hashlib.sha256()
    for rel, path in [*ASSETS.items(), ("index.html", WEB_DIR / "index.html")]:
        digest.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


RELEASE: Final = _release()
"""The client's release: the first 12 hex digits of the SHA-256 of all its files."""
_RELEASE_SHAPE = re.compile(r"[0-9a-f]{12}")


def index_html() -> str:
    """``index.html`` with the client's files under ``/web/<release>/``."""
    text = (WEB_DIR / "index.html").read_text(encoding="utf-8")
    return re.sub(r'((?:href|src)=")/web/', rf"\1/web/{RELEASE}/", text)


def mount_web(app: FastAPI) -> None:
    """Serve the client at ``/`` and its files under ``/web``."""
    from fastapi import Body  # noqa: PLC0415 - the server extra
    from fastapi.responses import FileResponse, HTMLResponse  # noqa: PLC0415

    from erren.errors import ErrenError, IllegalActionError  # noqa: PLC0415
    from erren.server.routes.common import ApiError  # noqa: PLC0415

    page = index_html()

    @app.get("/", include_in_schema=False)
    async def index() -> HTMLResponse:
        return HTMLResponse(page, headers={"Cache-Control": REVALIDATE})

    @app.post("/web/replay", tags=["web"])  # the app's routes read JSON strictly (StrictJSONRoute)
    async def replay_frames(record: dict[str, Any] = Body(...)) -> dict[str, Any]:  # noqa: B008
        """A finished hand's record → its frames, both hands open (the replay viewer).
        422 when the record cannot be replayed (the engine's reason: a malformed or illegal
        move, an unknown ruleset, ...)."""
        try:
            return frames(record)
        except IllegalActionError as err:
            raise ApiError(
                422, "not-replayable", f"not a replayable record: {err}", params={"rule": err.rule}
            ) from None
        except (ErrenError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise ApiError(422, "not-replayable", f"not a replayable record: {err}") from None

    @app.get("/web/names.json", tags=["web"])
    async def scoring_names() -> dict[str, Any]:
        """Chinese → English names of every fan, pattern and 水 item."""
        return names()

    @app.get("/web/{path:path}", include_in_schema=False)
    async def client_file(path: str) -> FileResponse:
        release, _, rest = path.partition("/")
        if _RELEASE_SHAPE.fullmatch(release) and rest in ASSETS:
            cache = IMMUTABLE if release == RELEASE else REVALIDATE  # an older release's URL
            return FileResponse(ASSETS[rest], headers={"Cache-Control": cache})
        if path in ASSETS:
            return FileResponse(ASSETS[path], headers={"Cache-Control": REVALIDATE})
        raise ApiError(404, "not-found", f"no client file {path[:80]!r}")
