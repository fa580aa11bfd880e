"""Nothing leaked (issue #11 point 5): random hands of every family over real WebSockets, with
illegal and out-of-turn actions sent while the other seat has choices; every message each seat
received is checked against the replayed hand (:mod:`tests.server.leaks`)."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from erren.bots import find_bot

from .harness import Server, run
from .helpers import private_pair
from .leaks import Audit, audit_seat, play_adversarially, records_of

PLAY_S = 25.0
"""Seconds of play per backend (the hands in progress then are finished)."""
TABLES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("guobiao-2p", {}),
    ("guobiao-2p", {}),
    ("xiamen", {}),
    ("xiamen", {}),
    ("arcade", {"pung_offer_prob": 0.3, "pick_any_prob": 0.3}),
    ("arcade", {"pung_offer_prob": 0.3, "pick_any_prob": 0.3}),
)


def test_no_message_leaks_hidden_information(server: Server) -> None:
    audit = Audit()
    checks: list[tuple[Any, ...]] = []

    async def one_table(index: int, family: str, options: dict[str, Any], until: float) -> None:
        a, b, table = await private_pair(server.url, family, **options)
        sent: dict[int, list[tuple[int, str]]] = {0: [], 1: []}
        rng = random.Random(index)
        await asyncio.gather(
            play_adversarially(
                a, table, find_bot("random", seed=index), rng, sent[0], leader=True, until=until
            ),
            play_adversarially(
                b,
                table,
                find_bot("random", seed=index + 100),
                rng,
                sent[1],
                leader=False,
                until=until,
            ),
        )
        for client, mine in ((a, sent[0]), (b, sent[1])):
            records = records_of(client.messages)
            assert records, f"no hand finished at {family} table {table}"
            checks.append((client.messages, client.seat, records, audit, mine))
            await client.close()

    async def main() -> None:
        until = asyncio.get_running_loop().time() + PLAY_S
        await asyncio.gather(
            *(one_table(i, family, options, until) for i, (family, options) in enumerate(TABLES))
        )

    began = time.monotonic()
    run(main())
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
    assert audit.checked >= 5000, audit.summary()
