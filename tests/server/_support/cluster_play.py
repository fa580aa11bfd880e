"""Steps of the cluster tests: a hand half played on one node, the players' move to another
node (reconnect, resume by event number), the hand finished there and checked."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx

from erren.bots import find_bot
from erren.bots.random_bot import RandomBot
from erren.engine import Action
from erren.server.client import PlayerClient
from erren.server.fairness import verify_record
from erren.server.store import Store
from erren.testing.servers import Server, cluster_node, drop_prefix, new_prefix

from .harness import database
from .helpers import quick_pair, settlements, wait_for

__all__ = [
    "drop",
    "finish_elsewhere",
    "mid_hand",
    "node_pair",
    "rejoin",
    "some_moves",
    "stored_actions",
]


@contextlib.contextmanager
def node_pair(tmp: Path) -> Iterator[tuple[Server, Server, str]]:
    """Two nodes, ``owner`` and ``heir``, on a fresh PostgreSQL database and a fresh Redis
    key prefix (yielded third); stopped (resumed first if paused), the keys deleted after."""
    prefix = new_prefix()
    with database("postgresql", tmp) as url:
        owner = cluster_node(url, tmp / "a.log", prefix, "owner")
        heir = cluster_node(url, tmp / "b.log", prefix, "heir")
        try:
            owner.start()
            heir.start()
            yield owner, heir, prefix
        finally:
            for node in (owner, heir):
                if node.proc is not None and node.proc.poll() is None:
                    node.proc.send_signal(signal.SIGCONT)
                node.stop()
            asyncio.run(drop_prefix(prefix))


class Patient(RandomBot):
    """Random moves that never win while another move is legal: the hand a test stops in the
    middle is still running there (a random deal can offer a win in its first moves)."""

    def pick(self, legal_actions: Sequence[Action]) -> Action:
        patient = [a for a in legal_actions if not a.kind.is_win]
        return super().pick(patient or legal_actions)


async def some_moves(players: tuple[PlayerClient, PlayerClient], until_n: int) -> None:
    """Play until each player has seen event ``until_n`` of a stored game (or the hand is
    over), never winning meanwhile."""
    bots = [Patient(seed=1), Patient(seed=2)]

    async def moves(c: PlayerClient, bot: Any) -> None:
        while c.game is None or c.last_n < until_n:
            message = await c.recv(10)
            if c.hand_over(message):
                return
            if c.my_turn():
                await c._move(bot, None)

    await asyncio.gather(*(moves(c, bot) for c, bot in zip(players, bots, strict=True)))


async def drop(c: PlayerClient, timeout: float = 0.2) -> None:
    """Close the player's socket, waiting at most ``timeout`` s for the closing handshake (a
    paused node does not answer it; the connection is then dropped, not left open)."""
    await c.disconnect(timeout)


async def rejoin(c: PlayerClient, node: Server, table: str) -> None:
    """Reconnect to ``node`` and resume by event number, until it has taken the table over."""
    await drop(c)
    c.server = node.url
    await c.http.aclose()
    c.http = httpx.AsyncClient(
        base_url=node.url, headers={"Authorization": f"Bearer {c.token}"}, timeout=60
    )
    answer: dict[str, Any] = {}
    for _ in range(100):
        await c.connect()
        await c.join(table, resume=True)
        answer = await wait_for(c, lambda m: m.get("type") in ("joined", "error"))
        if answer["type"] == "joined":
            return
        await drop(c)
        await asyncio.sleep(0.2)
    raise AssertionError(f"{node.url} never took table {table} over: {answer}")


async def finish_elsewhere(
    a: PlayerClient, b: PlayerClient, table: str, heir: Server, *, game: int | None, seen: int
) -> dict[str, Any]:
    for c in (a, b):
        await rejoin(c, heir, table)
    caught = await wait_for(a, lambda m: m.get("type") in ("events", "snapshot"))
    if caught["type"] == "events":
        assert all(e["n"] > seen for e in caught["events"])  # nothing twice
    assert a.game == game
    await asyncio.gather(
        a.play(table, find_bot("random", seed=3), hands=1, leave_after=False, timeout=30),
        b.play(table, find_bot("random", seed=4), hands=1, leave_after=False, timeout=30),
    )
    end = settlements(a.messages)[-1]
    assert end["game"] == game
    verify_record(end["record"])
    assert await a.balance() + await b.balance() == 20_000
    return end


async def stored_actions(url: str, game: int) -> tuple[str, ...]:
    store = await Store.open(url)
    try:
        stored = await store.games.get(game)
        assert stored is not None and stored.finished
        return stored.actions
    finally:
        await store.close()


async def mid_hand(owner: Server) -> tuple[PlayerClient, PlayerClient, str]:
    a, b, table = await quick_pair(owner.url, "guobiao-2p/novice")  # both on the owner
    a.keep = b.keep = True
    for c in (a, b):
        await c.connect()
        await c.join(table)
    await some_moves((a, b), 8)
    assert a.game is not None, "the hand's game is stored"
    assert not settlements(a.messages), "the hand is still running"
    return a, b, table
