"""What every HTTP route shares: the store and lobby of the app, the current user, errors with a
stable ``code``, and strict JSON bodies.

Errors: a refused request answers ``{"detail": "<English sentence>", "code": "<stable code>",
"params": {...}}`` (``params`` a flat dict, ``{}`` when the code says it all: the client renders
``code`` and ``params`` in the player's language), with the HTTP status that fits.
Bodies: JSON only as RFC 8259 has it — ``NaN``, ``Infinity`` and integers outside 64 bits
are refused with 422 naming the problem, as is a body nested too deep to read.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Annotated, Any, Final

from fastapi import Depends, Header, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute

from erren.server.appstate import app_state
from erren.server.lobby import Lobby
from erren.server.protocol import lone_surrogate, surrogate_message
from erren.server.ratelimit import AccountGate
from erren.server.store import Store, User

__all__ = [
    "MAX_ID",
    "ApiError",
    "CurrentUser",
    "Gate",
    "LobbyDep",
    "StoreDep",
    "StrictJSONRoute",
    "Viewer",
    "api_error_response",
    "bearer",
    "client_address",
    "parse_json",
]

MAX_ID: Final = 2**31 - 1
"""No stored id is larger: ids are the database's ``INTEGER`` (32 bits on PostgreSQL), and a
larger number must not reach a query (PostgreSQL refuses it with an error)."""
_SMALLEST, _LARGEST = -(2**63), 2**63 - 1


class ApiError(HTTPException):
    """A refused request: ``status``, a stable ``code``, an English ``message``, ``params`` (a
    flat dict of strings and numbers the client words the code with; ``{}`` by default) and
    optional response headers (e.g. ``Retry-After``)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(status, message, headers)
        self.code = code
        self.message = message
        self.params: dict[str, Any] = params or {}


def api_error_response(err: ApiError) -> JSONResponse:
    body: dict[str, Any] = {"detail": err.message, "code": err.code, "params": err.params}
    return JSONResponse(body, status_code=err.status_code, headers=err.headers)


# ---------------------------------------------------------------------------- strict JSON
def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number in JSON (NaN and Infinity are not allowed)")


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > 20:
        raise ValueError(f"the number {text[:24]}… does not fit in 64 bits")
    value = int(text)
    if not _SMALLEST <= value <= _LARGEST:
        raise ValueError(f"the number {text} does not fit in 64 bits")
    return value


def _finite_number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:24]} is too large for a JSON number")
    return value


def parse_json(body: bytes) -> Any:
    """A request body as JSON, or :class:`ApiError` 422 (``bad-json``; ``bad-unicode``: a
    string holds a lone surrogate) saying what is wrong."""
    try:
        data = json.loads(
            body,
            parse_constant=_refuse_constant,
            parse_int=_whole_number,
            parse_float=_finite_number,
        )
    except json.JSONDecodeError as err:
        message = f"the body is not valid JSON: {err.msg} (line {err.lineno}, column {err.colno})"
    except RecursionError:
        message = "the body is not valid JSON: it is nested too deep"
    except UnicodeDecodeError:
        message = "the body is not valid JSON: it is not UTF-8 text"
    except ValueError as err:
        message = f"the body is not valid JSON: {err}"
    else:
        point = lone_surrogate(data)
        if point is None:
            return data
        raise ApiError(422, "bad-unicode", surrogate_message(point), params={"codepoint": point})
    raise ApiError(422, "bad-json", message)


class _StrictJSONRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = parse_json(await self.body())
        return self._json


class StrictJSONRoute(APIRoute):
    """A route whose JSON body is read by :func:`parse_json`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(_StrictJSONRequest(request.scope, request.receive))

        return strict


# ---------------------------------------------------------------------------- dependencies
def _store(request: Request) -> Store:
    return app_state(request.app).store


def _lobby(request: Request) -> Lobby:
    return app_state(request.app).lobby


def _gate(request: Request) -> AccountGate:
    return app_state(request.app).gate


StoreDep = Annotated[Store, Depends(_store)]
LobbyDep = Annotated[Lobby, Depends(_lobby)]
Gate = Annotated[AccountGate, Depends(_gate)]


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def client_address(request: Request) -> str:
    """The client's address (uvicorn takes it from ``X-Forwarded-For`` only when the proxy is
    trusted: ``--forwarded-allow-ips``, by default 127.0.0.1)."""
    return request.client.host if request.client is not None else "unknown"


async def current_user(
    store: StoreDep, authorization: Annotated[str | None, Header()] = None
) -> User:
    """The user of the request's ``Authorization: Bearer TOKEN``, or 401."""
    token = bearer(authorization)
    user = await store.accounts.user_for_token(token) if token else None
    if user is None:
        raise ApiError(401, "auth", "log in first (Authorization: Bearer TOKEN)")
    return user


CurrentUser = Annotated[User, Depends(current_user)]


async def viewer(
    store: StoreDep, authorization: Annotated[str | None, Header()] = None
) -> User | None:
    """The user of the request's bearer token when it has a valid one, else ``None``: for the
    public pages that show a player more of his own games than a stranger sees."""
    token = bearer(authorization)
    return await store.accounts.user_for_token(token) if token else None


Viewer = Annotated[User | None, Depends(viewer)]
