"""The WebSocket edge against a real server: the token in the first message (never in a log),
logout closing that session's sockets, the bound on sockets per account, and a clear error
with a code for every malformed message while the connection stays open."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from erren.server.client import ClientError, PlayerClient, guest_token, ws_url
from erren.testing.waits import eventually

from ._support.harness import Server, database, run
from ._support.helpers import private_pair, wait_for

AUTH_TIMEOUT_S = 5.0  # docs/protocol.md: the auth message must come within 5 s
PER_ACCOUNT = 8  # docs/protocol.md: at most 8 open sockets per account


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that logs every request (uvicorn's ``info`` level prints the URL of each
    WebSocket with its query), so the test can read the log for tokens."""
    tmp = tmp_path_factory.mktemp(f"socket-{backend}")
    with database(backend, tmp) as url:
        srv = Server(url, tmp / "server.log", "--log-level", "info")
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


async def _open(url: str, query: str = "") -> ClientConnection:
    return await connect(f"{ws_url(url)}/ws{query}", open_timeout=10)


async def _recv(ws: ClientConnection, timeout: float = 5.0) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
    return message


async def _authed(url: str, token: str) -> ClientConnection:
    ws = await _open(url)
    await ws.send(json.dumps({"type": "auth", "token": token}))
    welcome = await _recv(ws)
    assert welcome["type"] == "welcome", welcome
    return ws


async def _closed_with(ws: ClientConnection, timeout: float = 5.0) -> int | None:
    """Wait until the server closes ``ws``; its close code."""
    with pytest.raises(ConnectionClosed):
        while True:
            await asyncio.wait_for(ws.recv(), timeout)
    return ws.close_code


def test_auth_with_the_first_message(server: Server) -> None:
    async def main() -> None:
        token = await guest_token(server.url)
        ws = await _authed(server.url, token)
        await ws.send(json.dumps({"type": "auth", "token": token}))
        again = await _recv(ws)
        assert again["type"] == "error" and again["code"] == "already-authenticated"
        await ws.send(json.dumps({"type": "ping"}))
        assert (await _recv(ws))["type"] == "pong"
        await ws.close()

        for first in (
            json.dumps({"type": "auth", "token": "not-a-session"}),
            json.dumps({"type": "auth", "token": "\ud800"}),  # a lone surrogate
            json.dumps({"type": "auth", "token": "x" * 300}),
            json.dumps({"type": "join", "table": "t1"}),  # not auth
            json.dumps({"type": "auth"}),
            "not json",
        ):
            bad = await _open(server.url)
            await bad.send(first)
            refused = await _recv(bad)
            assert refused["type"] == "error" and refused["code"] == "auth", (first, refused)
            assert await _closed_with(bad) == 4401

        # stamped before the handshake: the server's timer starts after it, so the wait is
        # at least AUTH_TIMEOUT_S; the upper bound allows for a slow test process
        began = time.monotonic()
        silent = await _open(server.url)
        refused = await _recv(silent, AUTH_TIMEOUT_S + 10)
        waited = time.monotonic() - began
        assert refused["code"] == "auth" and "auth" in refused["message"]
        assert AUTH_TIMEOUT_S <= waited <= AUTH_TIMEOUT_S + 5, waited
        assert await _closed_with(silent) == 4401

    run(main())


def test_log_in_returns_the_welcome_and_names_a_refusal(server: Server) -> None:
    """``PlayerClient.log_in`` returns only once the server counts the socket (its welcome),
    so a test that then acts through another account cannot outrun the login."""

    async def main() -> None:
        token = await guest_token(server.url)
        client = PlayerClient(server.url, token)
        try:
            welcome = await client.log_in()
            assert welcome["type"] == "welcome" and welcome["user"]["guest"] is True
        finally:
            await client.close()
        refused = PlayerClient(server.url, "not-a-session")
        try:
            with pytest.raises(ClientError, match=r"the login was refused.*'auth'"):
                await refused.log_in()
        finally:
            await refused.close()

    run(main())


def test_url_token_still_works_and_never_reaches_the_log(server: Server) -> None:
    async def main() -> list[str]:
        tokens = [await guest_token(server.url) for _ in range(2)]
        old = await _open(server.url, f"?token={tokens[0]}")  # deprecated, for one release
        assert (await _recv(old))["type"] == "welcome"
        await old.close()
        bearer = await connect(
            f"{ws_url(server.url)}/ws", additional_headers={"Authorization": f"Bearer {tokens[1]}"}
        )
        assert (await _recv(bearer))["type"] == "welcome"
        await bearer.close()
        wrong = await _open(server.url, "?token=wrong-token-value&x=1")
        assert (await _recv(wrong))["code"] == "auth"
        assert await _closed_with(wrong) == 4401
        new = await guest_token(server.url)
        ws = await _authed(server.url, new)
        await ws.close()
        return [*tokens, new, "wrong-token-value"]

    tokens: list[str] = []

    async def wrap() -> None:
        tokens.extend(await main())

    run(wrap())
    text = server.flushed_log()
    assert '"WebSocket /ws?token=[redacted]" [accepted]' in text, text[-2000:]
    assert "/ws?token=[redacted]&x=1" in text
    for token in tokens:
        assert token not in text


def test_erren_bot_plays_with_a_token_from_the_environment(server: Server) -> None:
    token = httpx.post(server.url + "/auth/guest").json()["token"]
    done = subprocess.run(
        [sys.executable, "-m", "erren.cli.main", "bot", "--server", server.url, "--vs-computer"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "ERREN_TOKEN": token},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 hand(s) played" in done.stdout
    me = httpx.get(server.url + "/me", headers={"Authorization": f"Bearer {token}"}).json()
    games = httpx.get(server.url + "/games", headers={"Authorization": f"Bearer {token}"}).json()
    assert me["guest"] and len(games) == 1 and games[0]["finished"]
    assert token not in server.flushed_log()


def test_logout_closes_the_sessions_sockets(server: Server) -> None:
    async def main() -> None:
        a, b, table = await private_pair(server.url)
        other = await guest_token(server.url)  # a second account's socket stays open
        bystander = await _authed(server.url, other)
        for client in (a, b):
            await client.connect()
            await client.join(table)
        await wait_for(a, lambda m: m.get("type") in ("events", "snapshot") and m.get("state"))
        await wait_for(b, lambda m: m.get("type") in ("events", "snapshot") and m.get("state"))
        # at once, not at some later sweep: told and closed right after the logout (the
        # bound allows for a slow test process)
        began = time.monotonic()
        reply = await a.http.post("/auth/logout")
        assert reply.status_code == 204
        told = await wait_for(a, lambda m: m.get("type") == "error", timeout=10)
        assert told["code"] == "logged-out"
        assert a.ws is not None
        assert await _closed_with(a.ws, 10) == 4401
        assert time.monotonic() - began < 5.0
        gone = await wait_for(b, lambda m: m.get("type") == "presence", timeout=10)
        assert gone == {"type": "presence", "seat": a.seat, "online": False}
        assert (await a.http.get("/me")).status_code == 401
        again = await _open(server.url)
        await again.send(json.dumps({"type": "auth", "token": a.token}))
        assert (await _recv(again))["code"] == "auth"
        assert await _closed_with(again) == 4401
        await bystander.send(json.dumps({"type": "ping"}))
        assert (await _recv(bystander))["type"] == "pong"
        await bystander.close()
        a.ws = None
        await a.close()
        await b.close()

    run(main())


def test_sockets_per_account_are_bounded(server: Server) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.url) as http:
            token = await guest_token(server.url, http)
            # a second session of a registered account counts towards the same account
            name = f"cap{time.monotonic_ns() % 10**9}"
            made = await http.post("/auth/register", json={"name": name, "password": "pw-123456"})
            assert made.status_code == 201, made.text
            first = made.json()["token"]
            login = await http.post("/auth/login", json={"name": name, "password": "pw-123456"})
            second = login.json()["token"]
        open_ = [await _authed(server.url, first if i % 2 else second) for i in range(PER_ACCOUNT)]
        extra = await _open(server.url)
        await extra.send(json.dumps({"type": "auth", "token": first}))
        refused = await _recv(extra)
        assert refused["code"] == "too-many-connections" and str(PER_ACCOUNT) in refused["message"]
        assert await _closed_with(extra) == 4429
        other = await _authed(server.url, token)  # another account is not affected
        await open_.pop().close()

        async def freed() -> bool:
            """The server frees the place once it has seen the close (after the client's
            close handshake): until then a new socket is refused, and closed."""
            ws = await _open(server.url)
            await ws.send(json.dumps({"type": "auth", "token": first}))
            answer = await _recv(ws, 10)
            if answer["type"] == "welcome":
                open_.append(ws)
                return True
            assert answer["code"] == "too-many-connections", answer
            assert await _closed_with(ws, 10) == 4429
            return False

        await eventually(freed, "a freed place can be taken again", timeout=20)
        for ws in (*open_, other):
            await ws.close()

    run(main())


CODE_RE = re.compile(r"[a-z]+(-[a-z]+)*")
BIG = 2**64
DEEP = "[" * 2000 + "]" * 2000
EDGES: list[tuple[str | bytes, str]] = [
    (DEEP, "too-deep"),
    ('{"type": "ping", "x": ' + DEEP[:3900] + "}", "too-deep"),
    ('{"type": "join", "table": "t", "since": NaN}', "bad-json"),
    ('{"type": "join", "table": "t", "since": Infinity}', "bad-json"),
    ('{"type": "act", "action": "pass", "n": -Infinity}', "bad-json"),
    (json.dumps({"type": "join", "table": "t", "since": BIG}), "out-of-range"),
    (json.dumps({"type": "join", "table": "t", "game": BIG}), "out-of-range"),
    (json.dumps({"type": "join", "table": "t", "game": -BIG}), "out-of-range"),
    (json.dumps({"type": "join", "table": "t", "game": 0}), "out-of-range"),
    (json.dumps({"type": "act", "action": "pass", "n": BIG}), "out-of-range"),
    (json.dumps({"type": "act", "action": "pass", "n": 10**4000}), "out-of-range"),
    (json.dumps({"type": "join", "table": 5}), "bad-message"),
    (json.dumps({"type": "join", "table": "t", "since": 1.5}), "bad-message"),
    (json.dumps({"type": "join", "table": "t", "since": "3"}), "bad-message"),
    (json.dumps({"type": "act", "action": ["pass"]}), "bad-message"),
    (json.dumps({"type": "act", "action": "pass", "n": True}), "bad-message"),
    (json.dumps({"type": "trustee", "on": 1}), "bad-message"),
    (json.dumps({"type": "ping", "extra": 1}), "bad-message"),
    (json.dumps({"type": "act", "action": "pass", "tile": "5m"}), "bad-message"),
    (json.dumps({"type": "join"}), "bad-message"),
    (json.dumps({"type": 3}), "bad-message"),
    (json.dumps(["ping"]), "bad-message"),
    (json.dumps({"type": "fly"}), "unknown-type"),
    (json.dumps({"type": "ping", "pad": "x" * 5000}), "too-large"),
    (b"\xff\xfe{", "bad-json"),
    ("{", "bad-json"),
    (json.dumps({"type": "act", "action": "pass"}), "no-table"),
    (json.dumps({"type": "join", "table": "nope"}), "not-seated"),
    ('{"type":"join","table":"\\ud800"}', "bad-unicode"),  # once silenced the socket
    ('{"type":"act","action":"discard:\\udfff"}', "bad-unicode"),
    ('{"type":"ping","\\udc00":1}', "bad-unicode"),
    ('{"type":"\\ud800"}', "bad-unicode"),
    ('{"type":"join","table":"\\ud83c\\udc04"}', "not-seated"),  # a pair is text: 🀄
]


FUZZ_KINDS = ["join", "act", "trustee", "ready", "leave", "resync", "ping", "advice", "review"]
FUZZ_MESSAGES = 80
"""Random messages per run: a message and a ping each, under the connection's burst (200)."""


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.randrange(9 if depth < 2 else 7)
    if roll == 0:
        return rng.choice([None, True, False, 0, -1, 2**63, -(2**70), 1.5])
    if roll <= 3:
        return rng.randrange(-(2**64), 2**64)
    if roll <= 6:
        alphabet = ["a", "5m", "discard:", "\ud800", "\udfff", "\U0001f004", "\u0000", "\u202e"]
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(6)))
    if roll == 7:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {str(_random_value(rng, 2)): _random_value(rng, depth + 1) for _ in range(2)}


def _random_message(rng: random.Random) -> str | bytes:
    """Random bytes, or JSON shaped like a message kind with random fields and values."""
    if rng.random() < 0.15:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    message: dict[str, Any] = {"type": rng.choice([*FUZZ_KINDS, _random_value(rng, 2)])}
    for name in rng.sample(["table", "game", "since", "action", "n", "on", "x"], 2):
        message[name] = _random_value(rng)
    return json.dumps(message)  # a lone surrogate travels as a \\ud800 escape


def test_random_messages_are_answered_and_the_socket_stays(server: Server) -> None:
    """Seeded random messages of every kind: each is answered (a coded error, or what the
    message asks for) and a ping after it is still answered on the same socket."""
    rng = random.Random(20261206)

    async def main() -> None:
        ws = await _authed(server.url, await guest_token(server.url))
        for _ in range(FUZZ_MESSAGES):
            text = _random_message(rng)
            await ws.send(text)
            await ws.send(json.dumps({"type": "ping"}))
            answers = []
            while (answer := await _recv(ws)) != {"type": "pong"}:
                answers.append(answer)
            for answer in answers:
                if answer["type"] == "error":
                    assert CODE_RE.fullmatch(answer["code"]), (text, answer)
                    assert len(answer["message"]) > 10, (text, answer)
        await ws.close()

    run(main())


def test_malformed_messages_get_a_coded_error_and_the_socket_stays(server: Server) -> None:
    async def main() -> None:
        ws = await _authed(server.url, await guest_token(server.url))
        for text, code in EDGES:
            await ws.send(text)
            answer = await _recv(ws)
            assert answer["type"] == "error", (text[:80], answer)
            assert answer["code"] == code, (text[:80], answer)
            assert isinstance(answer["message"], str) and len(answer["message"]) > 10
            if code == "out-of-range":
                assert answer["params"]["max"] == 2**63 - 1
            await ws.send(json.dumps({"type": "ping"}))
            assert (await _recv(ws)) == {"type": "pong"}, text[:80]
        await ws.close()

    run(main())
