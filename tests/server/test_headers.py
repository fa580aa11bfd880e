"""Headers and transport, against a real ``erren serve``: the security headers on every response
(pages, API, errors, files), the client's files gzip-compressed under a release URL cached for
a year, ``index.html`` never cached, only the client's files served, and ``/docs`` from local
files with no inline script."""

from __future__ import annotations

import gzip
import re
from html.parser import HTMLParser

import httpx

from erren.engine.registry import families, find_family
from erren.web import ASSETS, RELEASE, WEB_DIR, family_modules

from ._support.harness import Server

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
}
YEAR = "public, max-age=31536000, immutable"


def _assert_secure(reply: httpx.Response) -> None:
    for name, value in SECURITY.items():
        assert reply.headers.get(name) == value, (reply.request.url, name, reply.headers)
    assert "server" not in reply.headers  # no software version


def test_every_kind_of_response_carries_the_security_headers(server: Server) -> None:
    with httpx.Client(base_url=server.url) as http:
        replies = [
            http.get("/"),
            http.get("/rooms"),
            http.get("/no-such-page"),  # 404
            http.get("/games/77777"),  # the API's 404
            http.get(f"/web/{RELEASE}/style.css"),
            http.get("/web/js/app.js"),
            http.get("/me"),  # 401
            http.post("/auth/login", content="{", headers={"Content-Type": "application/json"}),
            http.post("/auth/login", content=b"x" * 70_000),  # 413
            http.get("/docs"),
            http.get("/openapi.json"),
        ]
    statuses = [r.status_code for r in replies]
    assert statuses == [200, 200, 404, 404, 200, 200, 401, 422, 413, 200, 200]
    for reply in replies:
        _assert_secure(reply)


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.styles: list[str | None] = []
        self.inline: list[str] = []
        self.handlers: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.handlers += [k for k in found if k.startswith("on")]
        if "style" in found:
            self.inline.append(f"style attribute on <{tag}>")
        if tag == "script":
            self.scripts.append(found)
            self._in_script = True
        if tag == "style":
            self.inline.append("<style>")
        if tag == "link" and found.get("rel") == "stylesheet":
            self.styles.append(found.get("href"))

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(f"inline script {data.strip()[:40]!r}")


def test_index_has_no_inline_script_and_names_the_release(server: Server) -> None:
    with httpx.Client(base_url=server.url) as http:
        reply = http.get("/")
    assert reply.headers["cache-control"] == "no-cache"
    page = _Page()
    page.feed(reply.text)
    assert page.inline == [] and page.handlers == []
    assert [s.get("src") for s in page.scripts] == [f"/web/{RELEASE}/js/app.js"]
    assert page.styles == [f"/web/{RELEASE}/style.css"]
    assert "unsafe-inline" not in CSP and "unsafe-eval" not in CSP
    assert re.fullmatch(r"[0-9a-f]{12}", RELEASE)


def test_the_client_files_are_gzipped_and_cached_for_a_year(server: Server) -> None:
    with httpx.Client(base_url=server.url) as http:
        for rel in ("js/app.js", "js/table.js", "style.css"):
            reply = http.get(f"/web/{RELEASE}/{rel}", headers={"Accept-Encoding": "gzip"})
            assert reply.status_code == 200
            assert reply.headers["content-encoding"] == "gzip"
            assert reply.headers["cache-control"] == YEAR
            assert "accept-encoding" in reply.headers["vary"].lower()
            assert reply.content == (WEB_DIR / rel).read_bytes()  # httpx decoded the gzip
            raw = http.get(f"/web/{RELEASE}/{rel}", headers={"Accept-Encoding": "gzip"})
            assert raw.headers["content-encoding"] == "gzip"
        plain = http.get(f"/web/{RELEASE}/style.css", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers
        assert plain.content == (WEB_DIR / "style.css").read_bytes()


def test_the_gzip_on_the_wire_is_smaller(server: Server) -> None:
    with (
        httpx.Client(base_url=server.url) as http,
        http.stream(
            "GET", f"/web/{RELEASE}/js/table.js", headers={"Accept-Encoding": "gzip"}
        ) as reply,
    ):
        wire = b"".join(reply.iter_raw())
    original = (WEB_DIR / "js" / "table.js").read_bytes()
    assert gzip.decompress(wire) == original
    assert len(wire) < len(original) / 2


def test_the_old_plain_urls_still_work_and_are_revalidated(server: Server) -> None:
    with httpx.Client(base_url=server.url) as http:
        for rel in ("js/app.js", "style.css"):
            reply = http.get(f"/web/{rel}")
            assert reply.status_code == 200
            assert reply.headers["cache-control"] == "no-cache"
            assert reply.content == (WEB_DIR / rel).read_bytes()
        older = http.get("/web/0123456789ab/js/app.js")  # a previous release's URL
        assert older.status_code == 200 and older.headers["cache-control"] == "no-cache"


def test_a_revalidated_file_that_did_not_change_is_304(server: Server) -> None:
    with httpx.Client(base_url=server.url) as http:
        first = http.get("/web/js/app.js")
        again = http.get("/web/js/app.js", headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["cache-control"] == "no-cache"
        _assert_secure(again)
        head = http.head(f"/web/{RELEASE}/style.css")
        assert head.status_code == 200 and head.headers["cache-control"] == YEAR


def test_only_the_client_files_are_served(server: Server) -> None:
    assert set(ASSETS) == (
        {"style.css"}
        | {f"js/{p.name}" for p in (WEB_DIR / "js").glob("*.js")}
        | {f"js/families/{f.name}.js" for f in families() if f.web_module is not None}
    )
    with httpx.Client(base_url=server.url) as http:
        for path in (
            "/web/__init__.py",
            "/web/names.py",
            "/web/replay.py",
            f"/web/{RELEASE}/__init__.py",
            "/web/index.html",
            "/web/js/../__init__.py",
            "/web/%2e%2e/server/app.py",
            "/web/__pycache__/",
        ):
            reply = http.get(path)
            assert reply.status_code == 404, path
            assert "import" not in reply.text


def test_each_family_serves_its_own_client_module(server: Server) -> None:
    """``GET /families`` lists each family's client module (in the order people read the
    families) under the release's URL, served like the client's own files."""
    with httpx.Client(base_url=server.url) as http:
        modules = http.get("/families").json()["modules"]
        assert list(modules) == ["guobiao-2p", "xiamen", "arcade"]
        assert modules == family_modules()
        for name, url in modules.items():
            assert url == f"/web/{RELEASE}/js/families/{name}.js"
            reply = http.get(url)
            _assert_secure(reply)
            assert reply.headers["cache-control"] == YEAR
            assert "javascript" in reply.headers["content-type"]
            module = find_family(name).web_module
            assert module is not None and reply.text == module.read_text(encoding="utf-8")
            assert "export default function" in reply.text


def test_docs_load_nothing_from_elsewhere(server: Server) -> None:
    with httpx.Client(base_url=server.url) as http:
        reply = http.get("/docs")
        assert reply.status_code == 200
        page = _Page()
        page.feed(reply.text)
        assert page.inline == [] and page.handlers == []
        urls = [s["src"] for s in page.scripts] + page.styles
        assert urls and all(u is not None and u.startswith("/docs/") for u in urls)
        for url in urls:
            assert url is not None
            asset = http.get(url)
            assert asset.status_code == 200, url
            assert len(asset.content) > 50
        assert "SwaggerUIBundle" in http.get("/docs/assets/swagger-ui-bundle.js").text
        assert http.get("/redoc").status_code == 404  # no CDN-backed ReDoc page
