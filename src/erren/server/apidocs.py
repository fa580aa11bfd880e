"""``/docs``: Swagger UI for the HTTP API, from files the server holds (the ``fastapi-offline``
package ships Swagger UI's bundle), so the page loads nothing from a CDN and runs under the
same Content-Security-Policy as the game (its start-up script is a file, not inline)."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Final

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

__all__ = ["mount_docs"]

SWAGGER_FILES: Final = Path(str(files("fastapi_offline") / "static"))

PAGE: Final = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title} — HTTP API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" href="/docs/assets/favicon.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
"""

START: Final = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
"""


def mount_docs(app: FastAPI) -> None:
    """``GET /docs`` (the page), ``/docs/start.js`` and ``/docs/assets/...`` (Swagger UI)."""
    page = PAGE.format(title=app.title)

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(page, headers={"Cache-Control": "no-cache"})

    @app.get("/docs/start.js", include_in_schema=False)
    async def docs_start() -> Response:
        return Response(START, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    app.mount("/docs/assets", StaticFiles(directory=SWAGGER_FILES), name="docs-assets")
