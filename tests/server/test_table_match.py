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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from erren.server.clock import Clock
from erren.server.store import Passwords, Store, User
from erren.server.table import (
    Conn,
    Join,
    Ready,
    Seat,
    SetTrustee,
    Table,
    TableKind,
    TableSpec,
    make_bot_seat,
)
from erren.testing.tables import SLOW_CLOCK

HANDS = 8
WINDS = ("1z", "2z", "3z", "4z")  # 东 南 西 北
CONFIG = SLOW_CLOCK


async def _message(conn: Conn, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The next message sent to ``conn`` that is ``wanted``."""
    while True:
        text = await asyncio.wait_for(conn.queue.get(), 60)
        assert text is not None, "the table closed"
        message = json.loads(text)
        if wanted(message):
            return dict(message)


def _settlement_in(message: dict[str, Any]) -> dict[str, Any] | None:
    for event in message.get("events", []):
        if event["kind"] == "settlement":
            return dict(event)
    return None


Hand = tuple[dict[str, Any], dict[str, Any]]
"""A finished hand's record and result, as the settlement event carries them."""


async def _hands(table: Table, conn: Conn, count: int) -> list[Hand]:
    """Play ``count`` hands: the first is running (its 托管 command sent), each next one begins
    when the guest is ready; 托管 is switched on before the computer's first move."""
    hands: list[Hand] = []
    for hand in range(count):
        if hand:
            table.submit(Ready(conn))
            table.submit(SetTrustee(conn, on=True))
        message = await _message(conn, lambda m: _settlement_in(m) is not None)
        settlement = _settlement_in(message)
        assert settlement is not None
        hands.append((settlement["record"], settlement["result"]))
    return hands


def _table(store: Store, guest: User, options: dict[str, Any]) -> Table:
    spec = TableSpec("t-match", TableKind.COMPUTER, "guobiao-2p", options, bot="random")
    seats = [Seat(guest.id, guest.name), make_bot_seat("bot", "random", 3)]
    return Table(spec, seats, store, clock=Clock(1.0), config=CONFIG, rng=random.Random(5))


async def _play(tmp: Path, options: dict[str, Any], *, restart_before: int = 0) -> list[Hand]:
    """Play ``HANDS`` hands at a table of ``guobiao-2p`` with ``options``; with
    ``restart_before``, that hand is dealt, the table stopped (a server restart) and the
    table restored from the store as the lobby does at start-up, and play goes on."""
    store = await Store.open(f"sqlite:///{tmp / 'erren.sqlite3'}", passwords=Passwords.fast())
    try:
        guest = (await store.accounts.guest()).user
        table = _table(store, guest, options)
        table.start()
        conn = Conn(guest.id, guest.name)
        table.submit(Join(conn, 0, None, None))  # deals hand 1
        table.submit(SetTrustee(conn, on=True))
        if not restart_before:
            try:
                return await _hands(table, conn, HANDS)
            finally:
                await table.stop()
        try:
            before = await _hands(table, conn, restart_before - 1)
            table.submit(Ready(conn))
            await _message(conn, lambda m: m.get("type") == "events" and m["events"][0]["n"] == 0)
        finally:
            await table.stop()
        (game,) = await store.games.unfinished()
        table = _table(store, guest, options)
        assert game.seed is not None and game.salt is not None  # revealed to the server
        table.restore(game.id, dict(game.options), game.seed, game.salt, list(game.actions))
        await table.resume()
        table.start()
        conn = Conn(guest.id, guest.name)
        table.submit(Join(conn, 0, game.id, None))
        table.submit(SetTrustee(conn, on=True))
        try:
            return before + await _hands(table, conn, HANDS - len(before))
        finally:
            await table.stop()
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


def test_a_restored_table_goes_on_rotating_the_round_wind(tmp_path: Path) -> None:
    """Hand 6 is dealt, the server restarts, the table is restored from the store: its dealer,
    streak and round wind come back with it, and so does hand 1's dealer, whom the deal must
    reach again for the wind to advance."""
    options = {"fan_table": "gb", "round_wind": "rotating"}
    hands = asyncio.run(_play(tmp_path, options, restart_before=6))
    dealers, winds = _expected(hands)
    assert [record["dealer"] for record, _ in hands] == dealers
    assert [record["round_wind"] for record, _ in hands] == winds
    assert dealers[5] != dealers[0], "the restored hand is dealt by hand 1's dealer"
    assert len(set(winds[5:])) > 1, "the wind never advanced after the restart"
