"""The browser client: static files (plain ES modules, SVG tiles drawn by our own code) served
by ``erren serve`` at ``/`` (the routes are in :mod:`erren.server.routes.web`).

This package holds the client's files (``index.html``, ``style.css``, ``js/*.js``) and pure
helpers without server dependencies: which files make up the client (:data:`ASSETS`), the
release hash in their URLs (:data:`RELEASE`), ``index.html`` pointing at them
(:func:`index_html`) and the scoring names the settlement screen shows (:func:`names`).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Final

from erren.web.names import names

__all__ = [
    "ASSETS",
    "IMMUTABLE",
    "RELEASE",
    "RELEASE_SHAPE",
    "REVALIDATE",
    "WEB_DIR",
    "index_html",
    "names",
]

WEB_DIR = Path(__file__).resolve().parent
CLIENT_SUFFIXES: Final = frozenset({".js", ".css", ".svg", ".png", ".webp", ".ico", ".woff2"})
IMMUTABLE: Final = "public, max-age=31536000, immutable"
"""``Cache-Control`` of a file under the current release's URL."""
REVALIDATE: Final = "no-cache"
"""``Cache-Control`` of the page and of a file under its plain or an older release's URL."""


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
RELEASE_SHAPE: Final = re.compile(r"[0-9a-f]{12}")
"""What a release looks like in a URL (``/web/<release>/...``)."""


def index_html() -> str:
    """``index.html`` with the client's files under ``/web/<release>/``."""
    text = (WEB_DIR / "index.html").read_text(encoding="utf-8")
    return re.sub(r'((?:href|src)=")/web/', rf"\1/web/{RELEASE}/", text)
