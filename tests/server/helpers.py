"""Shared steps of the server tests: players, tables, and the hidden-information check."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx

from erren.bots import find_bot
from erren.engine import Action, Record, State, find_ruleset
from erren.server.client import PlayerClient, guest_token
from erren.server.protocol import event_json, observation_json


async def player(url: str, *, keep: bool = False) -> PlayerClient:
    client = PlayerClient(url, await guest_token(url))
    client.keep = keep
    return client


async def registered(url: str, name: str, password: str = "password-123") -> PlayerClient:
    async with httpx.AsyncClient(base_url=url) as http:
        reply = await http.post("/auth/register", json={"name": name, "password": password})
        assert reply.status_code == 201, reply.text
        return PlayerClient(url, reply.json()["token"])


def _fresh_name() -> str:
    return "p" + uuid.uuid4().hex[:12]


async def private_pair(
    url: str, family: str = "guobiao-2p", *, keep: bool = False, **options: Any
) -> tuple[PlayerClient, PlayerClient, str]:
    a, b = await player(url, keep=keep), await player(url, keep=keep)
    made = await a.private_table(family, **options)
    joined = await b.join_invite(made["invite"])
    assert joined["table"] == made["table"] and joined["seat"] == 1
    return a, b, made["table"]


async def quick_pair(url: str, room: str) -> tuple[PlayerClient, PlayerClient, str]:
    """Two registered players (bean rooms need accounts) seated together by quick match."""
    a, b = await registered(url, _fresh_name()), await registered(url, _fresh_name())
    first, second = await asyncio.gather(a.quick_match(room, 20), b.quick_match(room, 20))
    assert first["table"] == second["table"]
    assert {first["seat"], second["seat"]} == {0, 1}
    if first["seat"] == 1:
        a, b = b, a
    return a, b, first["table"]


async def play_both(
    a: PlayerClient, b: PlayerClient, table: str, hands: int, *, bot: str = "random", seed: int = 1
) -> None:
    await asyncio.gather(
        a.play(table, find_bot(bot, seed=seed), hands=hands, leave_after=False, timeout=30),
        b.play(table, find_bot(bot, seed=seed + 1), hands=hands, leave_after=False, timeout=30),
    )


async def wait_for(client: PlayerClient, pred: Any, timeout: float = 20) -> dict[str, Any]:
    """Read messages until ``pred(message)`` holds; returns that message."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        message = await client.recv(max(left, 0.01))
        if pred(message):
            return message


def settlements(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        e
        for m in messages
        if m.get("type") == "events"
        for e in m["events"]
        if e["kind"] == "settlement"
    ]


def _strip_timer(state: dict[str, Any]) -> dict[str, Any]:
    out = dict(state)
    timer = out.get("timer")
    if timer is not None:
        out["timer"] = {"player": timer["player"], "kind": timer["kind"]}
    out.pop("result", None)
    return out


def check_no_leak(messages: list[dict[str, Any]], seat: int, record: dict[str, Any]) -> int:
    """Every numbered event and every state ``seat`` received for the hand of ``record`` is
    exactly what the engine lets that seat see (``Event.seen_by``, ``observe``), replaying the
    hand step by step; returns how many messages were checked."""
    game = record["game"]
    rec = Record.from_dict(record)
    ruleset = find_ruleset(rec.ruleset, rec.options)
    state = State(ruleset, dealer=rec.dealer, round_wind=rec.round_wind, streak=rec.streak)
    views: dict[int, dict[str, Any]] = {}
    for text in rec.actions:
        state.apply(Action.parse(text))
        if state.actor >= 0 or state.is_terminal:
            views[state.event_count] = _strip_timer(observation_json(state.observe(seat)))
    expected_events = {e.seq + 1: event_json(e.seen_by(seat), e.seq + 1) for e in state.events}
    checked = 0
    for message in messages:
        if message.get("type") != "events" or message.get("game") != game:
            continue
        for event in message["events"]:
            n = event["n"]
            if event["kind"] in ("start", "settlement"):
                if event["kind"] == "start":
                    assert set(event) <= {
                        "n",
                        "kind",
                        "game",
                        "hand",
                        "dealer",
                        "round_wind",
                        "streak",
                        "commitment",
                        "seats",
                    }
                continue
            assert event == expected_events[n], (event, expected_events[n])
        got = message.get("state")
        if got is not None and got.get("result") is None:
            view = views.get(got["last_n"])
            assert view is not None, f"no step of the hand has {got['last_n']} events"
            assert _strip_timer(got) == view
        checked += 1
    return checked
