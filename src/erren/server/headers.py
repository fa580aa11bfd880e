"""The security headers of every HTTP response, set by the ``secure`` library's ASGI middleware.

* ``Content-Security-Policy``: scripts, styles, fonts and connections (the WebSocket included)
  only from the server itself, images also as ``data:`` URLs (the favicon); no inline script or
  style, no plugins, no ``<base>``; ``frame-ancestors 'none'`` — no page may frame the game;
* ``X-Frame-Options: DENY`` (the same for old browsers), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: same-origin``, ``Cross-Origin-Opener-Policy: same-origin`` and a
  ``Permissions-Policy`` that turns off the camera, microphone and location.

The headers are added around the whole application (:func:`with_security_headers`), so error
responses — 404, 413, 422, 429 and a 500 — carry them too.
"""

from __future__ import annotations

from secure import (
    ContentSecurityPolicy,
    CrossOriginOpenerPolicy,
    PermissionsPolicy,
    ReferrerPolicy,
    Secure,
    XContentTypeOptions,
    XFrameOptions,
)
from secure.middleware import SecureASGIMiddleware
from starlette.types import ASGIApp

__all__ = ["CSP", "security_headers", "with_security_headers"]

SELF = "'self'"
NONE = "'none'"

CSP = (
    ContentSecurityPolicy()
    .default_src(SELF)
    .script_src(SELF)
    .style_src(SELF)
    .img_src(SELF, "data:")
    .font_src(SELF)
    .connect_src(SELF)
    .object_src(NONE)
    .base_uri(NONE)
    .form_action(SELF)
    .frame_ancestors(NONE)
)


def security_headers() -> Secure:
    """The headers every response carries."""
    return Secure(
        csp=CSP,
        xfo=XFrameOptions().deny(),
        xcto=XContentTypeOptions().nosniff(),
        referrer=ReferrerPolicy().same_origin(),
        coop=CrossOriginOpenerPolicy().same_origin(),
        permissions=PermissionsPolicy().camera().microphone().geolocation(),
    )


def with_security_headers(app: ASGIApp) -> ASGIApp:
    """``app`` with :func:`security_headers` on every HTTP response."""
    return SecureASGIMiddleware(app, secure=security_headers())  # type: ignore[return-value]
