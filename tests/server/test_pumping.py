"""Puppets cannot pump beans or rating (issue 26, point 4), tested with the probe's scenario.

Six fresh accounts quick-match one account in a bean room (二人国标 新手场, stake 50) and leave
each running hand at once — an escape, 13 points (guobiao-2p §6.5) × 50 = 650 beans each.  With
every account counted as seasoned (``new_player_hands=0``, what erren did before) that feeds
the account 6 × 650 = 3,900 beans; with the default rule (an account is new until it has
played 10 bean-room hands to the end, and a new account's escape moves no bean) it feeds
nothing.  Neither run lifts anybody's rating (an escape is the escaper's rated loss only), the
ledger audit stays clean, and ``erren audit-collusion`` flags the account fed by the puppets —
as fed by new accounts' escapes, and as fed by accounts registered from one address (the
puppets come from 198.51.100.7, the farmer from elsewhere).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from erren.server import collusion
from erren.server.audit import audit_store
from erren.server.client import PlayerClient
from erren.server.collusion import FlagKind

from ._support import exact_beans as exact
from ._support.beans_play import Served, read_until, serving

pytestmark = pytest.mark.services  # a real server (in this process) over WebSockets

ROOM = "guobiao-2p/novice"
ESCAPE_BEANS = 13 * 50  # guobiao-2p §6.5 at 新手场's stake
PUPPETS = 6
WELCOME = 10_000
PUPPETS_ADDRESS = "198.51.100.7"


async def escape_at_once(served: Served, farmer: PlayerClient, puppet: PlayerClient) -> int:
    """Quick-match the two; the puppet leaves as soon as the hand runs; the game's id."""
    _, table_id, _ = await exact.pair(served, farmer, puppet, ROOM)
    for client in (farmer, puppet):
        if client.ws is None:
            await client.connect()
        await client.join(table_id)
    await read_until(puppet, lambda m: m.get("type") == "events")  # the deal: the hand runs
    await puppet.send({"type": "leave"})
    settlement = await read_until(
        farmer,
        lambda m: any(e.get("kind") == "settlement" for e in m.get("events") or ()),
    )
    [event] = [e for e in settlement["events"] if e["kind"] == "settlement"]
    assert event["result"]["kind"] == "abort"
    for client in (farmer, puppet):
        await read_until(client, lambda m: m.get("type") == "closed")
        await client.disconnect()
    return int(event["game"])


async def run_scenario(tmp_path: Path, new_player_hands: int) -> tuple[int, int, list[int]]:
    """The farmer's beans won, his rated hands in guobiao-2p, each puppet's balance."""
    url = f"sqlite:///{tmp_path / f'pump-{new_player_hands}.sqlite3'}"
    async with serving(url, new_player_hands=new_player_hands) as served:
        farmer, farmer_id = await exact.register(served.url, "farmer", "203.0.113.9")
        puppets = [
            await exact.register(served.url, f"puppet-{i}", PUPPETS_ADDRESS) for i in range(PUPPETS)
        ]
        games = [await escape_at_once(served, farmer, p) for p, _ in puppets]
        won = await served.store.ledger.balance(farmer_id) - WELCOME
        for client, balance in [(farmer, WELCOME + won), (puppets[0][0], WELCOME - won // PUPPETS)]:
            reply = await client.http.get("/me/balance")  # what the leave dialog reads
            # an escape is no hand played to the end: everyone is as new as at the start
            assert reply.json() == {"balance": balance, "new_player_hands_left": new_player_hands}
        stats = {f.family: f for f in await served.store.profiles.family_stats(farmer_id)}
        rated = stats["guobiao-2p"].rated_hands
        balances = [await served.store.ledger.balance(i) for _, i in puppets]
        assert (await audit_store(served.store)).ok
        report = await collusion.audit_store(served.store)
        sources = tuple(sorted(i for _, i in puppets))
        origins = await served.store.accounts.origins([farmer_id, *sources])
        assert len({origins[i] for i in sources}) == 1  # the puppets' one address
        assert origins[farmer_id] != origins[sources[0]]
        moved = PUPPETS * ESCAPE_BEANS if new_player_hands == 0 else 0
        assert [(f.kind, f.user, f.sources, f.games, f.beans) for f in report.flags] == [
            (FlagKind.FED_BY_ESCAPES, farmer_id, sources, tuple(games), 0),
            (FlagKind.FED_FROM_ONE_ADDRESS, farmer_id, sources, tuple(games), moved),
        ]  # nothing else: no pair escaped twice, no beans lost in a hand
        assert (report.games, report.escapes) == (PUPPETS, PUPPETS)
        for client in (farmer, *(p for p, _ in puppets)):
            await client.close()
    return won, rated, balances


def test_six_new_puppets_escaping_to_one_account_feed_it_nothing(tmp_path: Path) -> None:
    """Slow (8–13 s): twelve quick matches and escapes against a real server, twice (with and
    without the rule), then the audit command in a process of its own."""

    async def run() -> None:
        before = await run_scenario(tmp_path, new_player_hands=0)
        assert before == (PUPPETS * ESCAPE_BEANS, 0, [WELCOME - ESCAPE_BEANS] * PUPPETS)
        after = await run_scenario(tmp_path, new_player_hands=10)
        assert after == (0, 0, [WELCOME] * PUPPETS)

    asyncio.run(asyncio.wait_for(run(), timeout=240))
    # the operator's command reads the same: one flow, the farmer fed by the six puppets
    database = f"sqlite:///{tmp_path / 'pump-10.sqlite3'}"
    command = [sys.executable, "-m", "erren.cli.main", "audit-collusion", "--database", database]
    done = subprocess.run([*command, "--json"], capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    flags = json.loads(done.stdout)["flags"]
    assert [(f["kind"], f["name"], f["beans"]) for f in flags] == [
        ("fed-by-escapes", "farmer", 0),
        ("fed-from-one-address", "farmer", 0),
    ]
    for flag in flags:
        assert sorted(s["name"] for s in flag["sources"]) == [f"puppet-{i}" for i in range(6)]
    text = subprocess.run(command, capture_output=True, text=True, check=False).stdout
    assert "fed-by-escapes: farmer (user" in text and "6 early escapes by 6 new accounts" in text
    assert (
        "fed-from-one-address: farmer (user" in text
        and "6 early escapes or lost hands (0 beans) from 6 accounts registered from one address"
        in text
    )
