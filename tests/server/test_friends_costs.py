"""What presence and chat cost the store (issue #29's gaps): a guest's comings and goings read
no friend list (he has none) and, on a cluster node, publish nothing; a table's chat reads the
blocks between its players once, not once a line, and a block pushed to it counts at once.

The store is the real one (SQLite) with a spy on its ``social`` part: every call is counted
and passed on unchanged."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from erren.server.chat import CHAT_INTERVAL_S, Phrase, Sticker
from erren.server.clock import Clock
from erren.server.cluster import Cluster
from erren.server.friends import Friends
from erren.server.lobby import Lobby
from erren.server.socket import Sockets
from erren.server.store import Passwords, Store, User
from erren.server.table import Chat as TChat
from erren.server.table import Conn, Seat
from erren.server.table.chatter import Chatter
from erren.server.table.seats import Seating
from erren.testing.tables import SLOW_CLOCK

from ._support.clocks import ManualClock
from ._support.redis_ns import clusters

START = 1_000_000.0


class Spy:
    """The store's ``social`` part, each call counted by name and passed on."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.real, name)
        if not callable(found):
            return found

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return found(*args, **kwargs)

        return counted


def _with_store(tmp: Path, body: Callable[[Store], Awaitable[None]]) -> None:
    async def main() -> None:
        store = await Store.open(f"sqlite:///{tmp / 'e.sqlite3'}", passwords=Passwords.fast())
        try:
            await asyncio.wait_for(body(store), 60)
        finally:
            await store.close()

    asyncio.run(main())


async def _friends_pair(store: Store) -> tuple[User, User]:
    ann, bob = [
        await store.accounts.register("f" + uuid.uuid4().hex[:10], "password-123") for _ in range(2)
    ]
    await store.social.request(ann.id, bob.id)
    await store.social.answer(bob.id, ann.id, accept=True)
    return ann, bob


def _presences(conn: Conn) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        if text is not None and json.loads(text)["type"] == "presence":
            out.append(json.loads(text))
    return out


async def _guest_comes_and_goes(store: Store, cluster: Cluster | None) -> None:
    """Bob (registered) is online; a guest opens two sockets, closes them: not one call to the
    store's ``social``; then ann (registered, bob's friend) comes: her friend list is read once
    (the spy sees what it should) and bob hears her."""
    ann, bob = await _friends_pair(store)
    guest = (await store.accounts.guest()).user
    spy = Spy(store.social)
    store.social = spy  # type: ignore[assignment]  # the spy passes every call on
    lobby = Lobby(store, clock=Clock(), config=SLOW_CLOCK, cluster=cluster)
    sockets = Sockets()
    friends = Friends(store, sockets, lobby.ground, cluster)
    sockets.on_change = lambda user_id: friends.moved([user_id])
    await friends.start()
    try:
        bobs = Conn(bob.id, bob.name)
        assert sockets.add(bobs, "token-bob")
        await friends.settled()
        spy.calls.clear()
        guests = [Conn(guest.id, guest.name) for _ in range(2)]
        for conn in guests:
            assert sockets.add(conn, "token-guest", guest=True)
        for conn in guests:
            sockets.remove(conn)
        await friends.settled()
        assert spy.calls == Counter()
        assert not sockets.guest(guest.id)  # forgotten once gone
        if cluster is not None:  # nothing published for him either
            assert not await cluster.redis.exists(f"{cluster.prefix}presence:{guest.id}")
        anns = Conn(ann.id, ann.name)
        assert sockets.add(anns, "token-ann")
        pushed: list[dict[str, Any]] = []
        while not pushed:  # on a cluster node the push comes back through Redis
            await friends.settled()
            pushed = _presences(bobs)
            if not pushed:
                await asyncio.sleep(0.02)
        assert pushed == [
            {"type": "presence", "user": ann.id, "state": "lobby", "family": None, "table": None}
        ]
        assert spy.calls == Counter({"friend_ids": 1})
    finally:
        await friends.close()
        await lobby.shutdown()


def test_a_guests_presence_reads_nothing_from_the_store(tmp_path: Path) -> None:
    _with_store(tmp_path, lambda store: _guest_comes_and_goes(store, None))


@pytest.mark.services
def test_a_guests_presence_on_a_cluster_node_reads_and_publishes_nothing(tmp_path: Path) -> None:
    """One node on the machine's Redis (a prefix of its own, deleted afterwards)."""

    async def body(store: Store) -> None:
        async with clusters(1) as (node,):
            await _guest_comes_and_goes(store, node)

    _with_store(tmp_path, body)


def _sent(conn: Conn) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        assert text is not None
        out.append(json.loads(text))
    return out


def test_chat_reads_the_blocks_once_and_a_pushed_block_counts_at_once(tmp_path: Path) -> None:
    """Ten lines between ann and bob read the blocks once; bob's block, pushed to the table,
    stops the next line (``chat-blocked`` to the speaker only) with one read more; lifted, the
    chat goes on after one read more."""

    async def body(store: Store) -> None:
        ann, bob = await _friends_pair(store)
        spy = Spy(store.social)
        seating = Seating([Seat(ann.id, ann.name), Seat(bob.id, bob.name)])
        conns = [Conn(ann.id, ann.name), Conn(bob.id, bob.name)]
        for seat, conn in enumerate(conns):
            seating.seats[seat].conns.add(conn)
            conn.seat = seat
        clock = ManualClock(start=START)
        chatter = Chatter("t-blocks", seating, clock, spy.blocks_among)
        for line in range(10):
            clock.t = START + line * CHAT_INTERVAL_S
            await chatter.say(TChat(conns[line % 2], Phrase.HELLO))
        assert spy.calls == Counter({"blocks_among": 1})
        heard = _sent(conns[1])
        assert [m["seat"] for m in heard] == [0, 1] * 5
        _sent(conns[0])
        await store.social.block(bob.id, ann.id)
        chatter.blocked(bob.id, ann.id, on=True)
        clock.t = START + 10 * CHAT_INTERVAL_S
        await chatter.say(TChat(conns[0], Sticker.TEA))
        await chatter.say(TChat(conns[1], Sticker.TEA))
        assert [m["code"] for m in _sent(conns[0])] == ["chat-blocked"]
        assert [m["code"] for m in _sent(conns[1])] == ["chat-blocked"]
        assert spy.calls == Counter({"blocks_among": 2})
        await store.social.unblock(bob.id, ann.id)
        chatter.blocked(bob.id, ann.id, on=False)
        await chatter.say(TChat(conns[0], Sticker.TEA))
        assert _sent(conns[1]) == [{"type": "chat", "seat": 0, "sticker": "tea"}]
        assert spy.calls == Counter({"blocks_among": 3})

    _with_store(tmp_path, body)


def test_a_player_seated_later_has_the_blocks_read_again(tmp_path: Path) -> None:
    """Ann chats alone at her private table (the blocks of one player: nothing to read, the
    store's part is asked once); bob is seated: the next line reads them again, once."""

    async def body(store: Store) -> None:
        ann, bob = await _friends_pair(store)
        spy = Spy(store.social)
        seating = Seating([Seat(ann.id, ann.name), Seat(None, "")])
        anns = Conn(ann.id, ann.name)
        seating.seats[0].conns.add(anns)
        anns.seat = 0
        clock = ManualClock(start=START)
        chatter = Chatter("t-later", seating, clock, spy.blocks_among)
        await chatter.say(TChat(anns, Phrase.HELLO))
        assert spy.calls == Counter({"blocks_among": 1})
        seating.seats[1].user_id, seating.seats[1].name = bob.id, bob.name
        for line in (1, 2, 3):
            clock.t = START + line * CHAT_INTERVAL_S
            await chatter.say(TChat(anns, Phrase.THANKS))
        assert spy.calls == Counter({"blocks_among": 2})
        assert [m["type"] for m in _sent(anns)] == ["chat"] * 4

    _with_store(tmp_path, body)
