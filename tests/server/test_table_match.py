"""A server table deals its hands through an ``engine.Match``: dealer, 连庄 and the round wind.

guobiao-2p §1.2: with option ``round_wind = rotating`` the round wind starts at East and
advances (东 → 南 → 西 → 北 → 东) each time the deal passes back to the player who dealt hand 1.
§1.3: the dealer deals again when he wins; a non-dealer win or 荒庄 passes the deal.

The table here is the real :class:`~erren.server.table.Table` actor on a real SQLite store, with
a guest in 托管 (the engine plays for him) against a computer player; the expected dealer and
round wind of every hand are computed from those two rules and the hands' results.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from erren.server.clock import Clock
from erren.server.store import Passwords, Store
from erren.server.table import (
    Conn,
    Join,
    Ready,
    Seat,
    SetTrustee,
    Table,
    TableConfig,
    TableSpec,
    make_bot_seat,
)

HANDS = 8
WINDS = ("1z", "2z", "3z", "4z")  # 东 南 西 北
CONFIG = TableConfig(
    grace_s=600.0,
    ready_timeout_s=600.0,
    bot_delay_s=0.001,
    turn_timeout_s=600.0,
    claim_timeout_s=600.0,
    claim_min_pause_s=0.0,
    idle_timeout_s=600.0,
)


async def _settlement(conn: Conn) -> dict[str, Any]:
    """The next ``settlement`` event sent to ``conn``."""
    while True:
        text = await asyncio.wait_for(conn.queue.get(), 60)
        assert text is not None, "the table closed"
        message = json.loads(text)
        events = message.get("events", [])
        if message.get("type") == "snapshot" and message.get("end") is not None:
            events = [message["end"]]
        for event in events:
            if event["kind"] == "settlement":
                return dict(event)


Hand = tuple[dict[str, Any], dict[str, Any]]
"""A finished hand's record and result, as the settlement event carries them."""


async def _play(tmp: Path, options: dict[str, Any]) -> list[Hand]:
    """Play ``HANDS`` hands at a table of ``guobiao-2p`` with ``options``."""
    store = await Store.open(f"sqlite:///{tmp / 'erren.sqlite3'}", passwords=Passwords.fast())
    try:
        guest = (await store.guest()).user
        spec = TableSpec("t-rotating", "computer", "guobiao-2p", options, bot="random")
        seats = [Seat(guest.id, guest.name), make_bot_seat("bot", "random", 3)]
        table = Table(spec, seats, store, clock=Clock(1.0), config=CONFIG, rng=random.Random(5))
        table.start()
        conn = Conn(guest.id, guest.name)
        hands: list[Hand] = []
        try:
            # Join deals hand 1; 托管 is switched on before the computer's first move
            table.submit(Join(conn, 0, None, None))
            table.submit(SetTrustee(conn, on=True))
            for hand in range(1, HANDS + 1):
                settlement = await _settlement(conn)
                hands.append((settlement["record"], settlement["result"]))
                if hand < HANDS:
                    table.submit(Ready(conn))
                    table.submit(SetTrustee(conn, on=True))
        finally:
            await table.stop()
        return hands
    finally:
        await store.close()


def _expected(hands: list[Hand]) -> tuple[list[int], list[str]]:
    """Dealer and round wind of every hand by §1.3 and §1.2, from hand 1's dealer and the
    results."""
    dealers = [int(hands[0][0]["dealer"])]
    winds = ["1z"]
    for _record, result in hands[:-1]:
        dealer = dealers[-1]
        won = result["kind"] == "win" and result["winner"] == dealer
        nxt = dealer if won else 1 - dealer
        wind = winds[-1]
        if nxt != dealer and nxt == dealers[0]:  # the deal came back to hand 1's dealer
            wind = WINDS[(WINDS.index(wind) + 1) % 4]
        dealers.append(nxt)
        winds.append(wind)
    return dealers, winds


def test_a_rotating_round_wind_advances_when_the_deal_returns_to_the_first_dealer(
    tmp_path: Path,
) -> None:
    hands = asyncio.run(_play(tmp_path, {"fan_table": "gb", "round_wind": "rotating"}))
    dealers, winds = _expected(hands)
    assert [record["dealer"] for record, _ in hands] == dealers
    assert [record["round_wind"] for record, _ in hands] == winds
    assert len(set(winds)) > 1, "the deal never came back to hand 1's dealer"


def test_a_fixed_round_wind_stays_east(tmp_path: Path) -> None:
    hands = asyncio.run(_play(tmp_path, {"fan_table": "gb", "round_wind": "fixed_east"}))
    dealers, _winds = _expected(hands)
    assert [record["dealer"] for record, _ in hands] == dealers
    assert [record["round_wind"] for record, _ in hands] == ["1z"] * HANDS
