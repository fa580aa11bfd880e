"""The browser client: static files (plain ES modules, SVG tiles drawn by our own code) served
by ``erren serve`` at ``/`` (the routes are in :mod:`erren.server.routes.web`).

This package holds the client's files (``index.html``, ``style.css``, ``js/*.js``) and pure
helpers without server dependencies: which files make up the client (:data:`ASSETS`, each
family's client module among them: :func:`family_modules`), the
release hash in their URLs (:data:`RELEASE`), ``index.html`` pointing at them
(:func:`index_html`) and the scoring names the settlement screen shows (:func:`names`).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Final

from erren.engine.registry import families
from erren.web.names import names

__all__ = [
    "ASSETS",
    "IMMUTABLE",
    "RELEASE",
    "RELEASE_SHAPE",
    "REVALIDATE",
    "WEB_DIR",
    "family_module_path",
    "family_modules",
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
    for family in families():  # each family's own part of the client, from its package
        if family.web_module is not None:
            found[family_module_path(family.name)] = family.web_module
    return found


def family_module_path(name: str) -> str:
    """Where family ``name``'s client module is under ``/web/`` (``js/families/<name>.js``)."""
    return f"js/families/{name}.js"


ASSETS: Final = _assets()
"""The client's files by their path under ``/web/`` (nothing else is served from here): the
files of this package and each family's client module
(:attr:`~erren.engine.family.Family.web_module`) at :func:`family_module_path`."""


def _release() -> str:
    digest = hashlib.sha256()
    for rel, path in [*ASSETS.items(), ("index.html", WEB_DIR / "index.html")]:
        digest.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


RELEASE: Final = _release()
"""The client's release: the first 12 hex digits of the SHA-256 of all its files."""
RELEASE_SHAPE: Final = re.compile(r"[0-9a-f]{12}")
"""What a release looks like in a URL (``/web/<release>/...``)."""


def family_modules() -> dict[str, str]:
    """The URL of each registered family's client module under the current release, by the
    family's name (a family without one is left out: the client uses the shared defaults)."""
    return {
        family.name: f"/web/{RELEASE}/{family_module_path(family.name)}"
        for family in families()
        if family_module_path(family.name) in ASSETS
    }


def index_html() -> str:
    """``index.html`` with the client's files under ``/web/<release>/``."""
    text = (WEB_DIR / "index.html").read_text(encoding="utf-8")
    return re.sub(r'((?:href|src)=")/web/', rf"\1/web/{RELEASE}/", text)
