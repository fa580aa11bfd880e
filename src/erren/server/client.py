"""A remote player: the HTTP calls of the lobby and a WebSocket loop that plays with a bot.

The same code drives ``erren bot``, the server tests and the benchmark::

    async with PlayerClient("http://127.0.0.1:8000", token) as client:
        seat = await client.quick_match("guobiao-2p/novice")
        await client.play(seat["table"], find_bot("efficiency"), hands=3)

The bot sees what any player sees: it rebuilds its :class:`~erren.engine.Observation` from the
``state`` the server sends (:func:`~erren.server.protocol.observation_from_json`).  A bot that
``listens`` (an external mjai program) is bound to the table's ruleset and hears the engine
events of each ``events`` message (:func:`~erren.server.protocol.event_from_json`); when it
cannot give a move (:class:`~erren.bots.BotError`) the client sends none and the table's clock
plays the spec's default move for the seat (a ``timeout``), as for any player who runs out of
time.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from erren.bots import Bot, BotError
from erren.engine import Event, find_family
from erren.engine.events import event_kinds
from erren.server.protocol import action_text, event_from_json, observation_from_json

__all__ = [
    "KEEPALIVE_EXPIRY_S",
    "ClientError",
    "PlayerClient",
    "guest_token",
    "table_passes",
    "ws_url",
]

KEEPALIVE_EXPIRY_S = 5.0
"""Seconds the client keeps an idle connection for reuse: well below the server's
(``erren.server.edge.KEEP_ALIVE_S``), so it never reuses one the server is closing."""


class ClientError(Exception):
    pass


def ws_url(server: str) -> str:
    base = server.rstrip("/")
    if base.startswith("https://"):
        return "wss://" + base[len("https://") :]
    if base.startswith("http://"):
        return "ws://" + base[len("http://") :]
    return base


async def guest_token(server: str, http: httpx.AsyncClient | None = None) -> str:
    """A new guest's session token (``http``: a client to reuse, for many players)."""
    if http is not None:
        reply = await http.post(server.rstrip("/") + "/auth/guest")
        reply.raise_for_status()
        return str(reply.json()["token"])
    async with httpx.AsyncClient(base_url=server, timeout=30) as own:
        reply = await own.post("/auth/guest")
        reply.raise_for_status()
        return str(reply.json()["token"])


def table_passes(state: dict[str, Any]) -> bool:
    """Whether the table passes for the player in this state: a decision whose only move is
    pass (a claim, rob, 三游 last-draw or 海底 window, or xiamen's opening window without 三金倒
    or 抢金) is passed by the server at the 鸣牌保护 pause (guobiao-2p §2.4)."""
    return state.get("legal") == ["pass"]


class PlayerClient:
    def __init__(
        self,
        server: str,
        token: str,
        *,
        timeout: float = 60.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.http = httpx.AsyncClient(
            base_url=self.server,
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
            limits=httpx.Limits(keepalive_expiry=KEEPALIVE_EXPIRY_S),
            transport=transport,
        )
        self.ws: ClientConnection | None = None
        self.messages: list[dict[str, Any]] = []
        """Every message received (kept when ``keep`` is on)."""
        self.keep = False
        self.seat = -1
        self.table: str | None = None
        self.game: int | None = None
        self.last_n = -1
        self.state: dict[str, Any] | None = None
        self.hands_done = 0
        self.latencies: list[float] = []
        """Seconds from sending an action to the first message after it (benchmark)."""
        self._sent_at: float | None = None

    async def __aenter__(self) -> PlayerClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the WebSocket and the HTTP client."""
        await self.disconnect()
        await self.http.aclose()

    async def disconnect(self, timeout: float | None = None) -> None:
        """Close the WebSocket (the HTTP client stays): the closing handshake, or, when the
        server has not answered it within ``timeout`` s (a paused server), the connection is
        dropped at once; either way nothing is left open."""
        ws, self.ws = self.ws, None
        if ws is None:
            return
        try:
            await asyncio.wait_for(ws.close(), timeout)
        except TimeoutError:
            ws.transport.abort()

    # ------------------------------------------------------------------ HTTP
    async def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        reply = await self.http.post(path, json=body)
        if reply.status_code >= 400:
            raise ClientError(f"{path}: {reply.status_code} {reply.text}")
        return reply.json()  # type: ignore[no-any-return]

    async def quick_match(self, room: str, wait_s: float = 30.0) -> dict[str, Any]:
        return await self._post("/match/quick", {"room": room, "wait_s": wait_s})

    async def private_table(self, family: str = "guobiao-2p", **options: Any) -> dict[str, Any]:
        return await self._post("/tables/private", {"family": family, "options": options})

    async def join_invite(self, code: str) -> dict[str, Any]:
        return await self._post("/tables/join", {"invite": code})

    async def vs_computer(
        self,
        family: str = "guobiao-2p",
        bot: str | None = None,
        *,
        level: str | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """A table against the computer at ``level`` (the server's default: normal), or
        against the bot named ``bot``."""
        body: dict[str, Any] = {"family": family, "options": options}
        if bot is not None:
            body["bot"] = bot
        if level is not None:
            body["level"] = level
        return await self._post("/tables/vs-computer", body)

    async def balance(self) -> int:
        reply = await self.http.get("/me/balance")
        reply.raise_for_status()
        return int(reply.json()["balance"])

    # ------------------------------------------------------------------ WebSocket
    async def connect(self) -> None:
        """Open ``/ws`` and authenticate with the first message (the token is never in the
        URL); the server's ``welcome`` (or ``auth`` error) is the first message received."""
        # max_queue=None: the messages not read yet are kept however many there are (a seat
        # that idles, a bot that thinks), so the connection never stops reading and the
        # server's answer to a close gets through at once (with the library's bound of 16, a
        # client that had stopped reading waited out the whole 10 s close timeout).
        self.ws = await connect(
            f"{ws_url(self.server)}/ws", max_size=2**22, max_queue=None, open_timeout=30
        )
        await self.send({"type": "auth", "token": self.token})

    async def log_in(self, timeout: float = 10) -> dict[str, Any]:
        """:meth:`connect`, then wait for the server's ``welcome`` and return it: from then on
        the server counts this socket (its friends' presence, invites and nudges reach it).
        Raises :class:`ClientError` when the server answers the login with an error."""
        await self.connect()
        answer = await self.recv(timeout)
        if answer.get("type") != "welcome":
            raise ClientError(f"the login was refused: {answer}")
        return answer

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float | None = None) -> dict[str, Any]:
        assert self.ws is not None
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        message: dict[str, Any] = json.loads(text)
        if self._sent_at is not None:
            self.latencies.append(time.perf_counter() - self._sent_at)
            self._sent_at = None
        if self.keep:
            self.messages.append(message)
        self._track(message)
        return message

    def _track(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "joined":
            self.seat = int(message["seat"])
            self.table = message["table"]["id"]
        elif kind == "events":
            if message.get("game") != self.game:
                self.game = message.get("game")
                self.last_n = -1
            for event in message["events"]:
                self.last_n = max(self.last_n, int(event["n"]))
            if message.get("state") is not None:
                self.state = message["state"]
        elif kind == "snapshot" and "game" in message:
            self.game = message["game"]
            self.last_n = int(message["last_n"])
            self.state = message.get("state")

    async def join(self, table: str, *, resume: bool = False) -> None:
        message: dict[str, Any] = {"type": "join", "table": table}
        if resume and self.game is not None:
            message.update(game=self.game, since=self.last_n)
        await self.send(message)

    async def act(self, action: str, *, stamp: bool = True) -> None:
        self._sent_at = time.perf_counter()
        await self.send({"type": "act", "action": action, "n": self.last_n if stamp else None})

    def my_turn(self) -> bool:
        state = self.state
        return bool(
            state is not None
            and state.get("result") is None
            and state.get("to_act") == self.seat
            and state.get("legal")
        )

    def hand_over(self, message: dict[str, Any]) -> bool:
        if message.get("type") == "events":
            return any(e["kind"] == "settlement" for e in message["events"])
        return message.get("type") == "snapshot" and message.get("end") is not None

    async def play(
        self,
        table: str,
        bot: Bot,
        *,
        hands: int = 1,
        think: Callable[[], float] | None = None,
        leave_after: bool = True,
        timeout: float = 120.0,
    ) -> int:
        """Join ``table`` and play ``hands`` hands with ``bot``; returns the hands finished.
        ``think`` gives a delay before each move (the benchmark's human pace)."""
        if self.ws is None:
            await self.connect()
        await self.join(table)
        while True:
            message = await self.recv(timeout)
            kind = message.get("type")
            if bot.listens:
                self._tell(bot, message)
            if kind == "closed":
                return self.hands_done
            if kind == "error" and message.get("code") in (
                "not-seated",
                "auth",
                "logged-out",
                "too-many-connections",
            ):
                raise ClientError(message["message"])
            if self.hand_over(message):
                self.hands_done += 1
                if self.hands_done >= hands:
                    if leave_after:
                        await self.send({"type": "leave"})
                    return self.hands_done
                await self.send({"type": "ready"})
                continue
            if kind == "snapshot" and message.get("game") is None:
                continue
            if kind in ("events", "snapshot") and self.my_turn():
                await self._move(bot, think)

    def _tell(self, bot: Bot, message: dict[str, Any]) -> None:
        """A listening bot learns the table's rules on ``joined`` and hears the engine events
        of each ``events`` message (with the seat's observation after them)."""
        kind = message.get("type")
        if kind == "joined":
            info = message["table"]
            bot.bind(find_family(info["family"], info.get("options") or {}))
            return
        if kind != "events" or self.state is None:
            return
        # the engine's events, every family's kinds (the table adds its own: start, settlement)
        engine = {kind.value for kind in event_kinds()}
        events: list[Event] = [
            event_from_json(e) for e in message["events"] if e.get("kind") in engine
        ]
        if events:
            bot.hear(observation_from_json(self.state), events)

    async def _move(self, bot: Bot, think: Callable[[], float] | None) -> None:
        assert self.state is not None
        if table_passes(self.state):
            return
        if think is not None:
            delay = think()
            if delay > 0:
                await asyncio.sleep(delay)
        obs = observation_from_json(self.state)
        legal = obs.legal_actions
        try:
            if bot.blind:
                action = bot.pick(legal)
            elif bot.deliberate:  # a search or an external program: off the event loop
                action = await asyncio.to_thread(bot.choose, obs, legal)
            else:
                action = bot.choose(obs, legal)
        except BotError:
            return  # the table's clock plays the default move (a timeout)
        await self.act(action_text(action))
