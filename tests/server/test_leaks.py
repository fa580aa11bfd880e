"""Nothing leaked (issue #11 point 5): random hands of every family over real WebSockets, with
illegal and out-of-turn actions sent while the other seat has choices; every message each seat
received is checked against the replayed hand (:mod:`tests.server.leaks`)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from erren.bots import find_bot
from erren.engine import find_family

from ._support.harness import Server, run
from ._support.helpers import player
from ._support.leaks import (
    Audit,
    Sent,
    audit_seat,
    play_adversarially,
    records_of,
    review_over_http,
)


async def wait_until(pred: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not pred():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


HANDS = 15
"""Hands played at each table (a fixed amount of play, whatever the machine's load: 90 hands,
about 25,000 messages checked)."""
TABLES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("guobiao-2p", {}),
    ("guobiao-2p", {}),
    ("xiamen", {}),
    ("xiamen", {}),
    ("arcade", {"pung_offer_prob": 0.3, "pick_any_prob": 0.3}),
    ("arcade", {"pung_offer_prob": 0.3, "pick_any_prob": 0.3}),
)

REVIEWERS = (0, 2, 4)
"""The tables (one of each family) whose host asks for reviews until he has one; nobody else
asks between hands (one review process at low priority serves them all)."""


@pytest.mark.slow
def test_no_message_leaks_hidden_information(server: Server) -> None:
    """Slow (about 30 s; up to two minutes on a loaded machine, where the reviews, worked out
    at low priority, come late): six tables play 15 hands each with junk moves among the real
    ones, then every message of both seats (about 25,000) is replayed against the engine."""
    audit = Audit()
    checks: list[tuple[Any, ...]] = []

    async def one_table(index: int, family: str, options: dict[str, Any]) -> None:
        a, b = await player(server.url), await player(server.url)
        try:
            if "claim_privacy" in find_family(family, {}).options_dict():
                options = {**options, "claim_privacy": True}  # 鸣牌保护, as at every human table
            made = await a.private_table(family, **options)
            table = made["table"]
            sent: dict[int, list[Sent]] = {0: [], 1: []}
            rng = random.Random(index)
            first = asyncio.create_task(
                play_adversarially(
                    a,
                    table,
                    find_bot("random", seed=index),
                    rng,
                    sent[0],
                    leader=True,
                    hands_wanted=HANDS,
                    reviewer=index in REVIEWERS,
                )
            )
            # the host waits at the table: he is told when the guest sits down (a `table` message)
            await wait_until(lambda: a.seat == 0)
            assert (await b.join_invite(made["invite"]))["seat"] == 1
            guest = find_bot("random", seed=index + 100)
            second = play_adversarially(
                b, table, guest, rng, sent[1], leader=False, hands_wanted=HANDS
            )
            await asyncio.gather(first, second)
            # the records of the table's hands, as either seat saw them end (a seat that was away
            # when the last hand ended never sees its settlement, but still saw the hand)
            records = records_of(a.messages + b.messages)
            assert records, f"no hand finished at {family} table {table}"
            if index in REVIEWERS and not any(m.get("type") == "review" for m in a.messages):
                # a loaded machine: the review asked over the socket was still queued
                game = min(int(r["game"]) for r in records_of(a.messages))
                a.messages.append(await review_over_http(a, game))
            for client, mine in ((a, sent[0]), (b, sent[1])):
                checks.append((client.messages, client.seat, records, audit, mine))
        finally:  # closed even when a table fails: no socket is left to the collector
            await a.close()
            await b.close()

    async def main() -> None:
        await asyncio.gather(
            *(one_table(i, family, options) for i, (family, options) in enumerate(TABLES))
        )

    began = time.monotonic()
    run(main(), timeout=300)  # a bound for a stuck table, not a wait: about 30 s unloaded
    played = time.monotonic() - began
    for args in checks:
        audit_seat(*args)
    audit.close_windows()
    print(
        audit.summary(),
        f"\n  played {played:.1f} s, checked {time.monotonic() - began - played:.1f} s",
    )
    assert not audit.leaks, audit.summary()
    assert set(audit.hands) == {"guobiao-2p", "xiamen", "arcade"}
    assert audit.by_type["error"] >= 100
    kinds = ("events", "snapshot", "presence", "ready", "table", "joined", "closed", "pong")
    for kind in (*kinds, "advice", "review"):
        assert audit.by_type[kind] > 0, kind
    assert audit.checked >= 5000, audit.summary()
