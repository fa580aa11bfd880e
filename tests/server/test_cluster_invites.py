"""Invite codes in a cluster (a node's lobby in the process on the real Redis and a SQLite
store): a code names one table in the whole cluster.  A code another node's table holds is
never handed out again: the node draws another; the code goes back when its table closes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from erren.server.clock import Clock
from erren.server.lobby import _INVITE_ALPHABET, Lobby
from erren.server.store import Store
from erren.server.store.passwords import Passwords
from erren.testing.tables import SLOW_CLOCK

from ._support.redis_ns import clusters

pytestmark = [pytest.mark.anyio, pytest.mark.services]

CONFIG = SLOW_CLOCK
SEED = 11


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _draws(seed: int) -> tuple[str, str]:
    """The first two codes a lobby seeded with ``seed`` draws for its first private table:
    after the table's id (48 random bits), six of the 32 signs, then six more if need be."""
    rng = random.Random(seed)
    rng.getrandbits(48)
    first = "".join(rng.choice(_INVITE_ALPHABET) for _ in range(6))
    return first, "".join(rng.choice(_INVITE_ALPHABET) for _ in range(6))


async def test_a_code_another_nodes_table_holds_is_drawn_again(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite:///{tmp_path / 'erren.sqlite3'}", passwords=Passwords.fast())
    try:
        async with clusters(2) as [near, far]:
            taken, fresh = _draws(SEED)
            assert taken != fresh
            key = f"{near.prefix}invite:"
            await far.redis.set(key + taken, "t-elsewhere")  # far's table has that code
            lobby = Lobby(
                store, clock=Clock(), config=CONFIG, rng=random.Random(SEED), cluster=near
            )
            ann = (await store.accounts.guest()).user
            try:
                table = await lobby.private_table(ann, "guobiao-2p", {})
                assert table.spec.invite == fresh
                assert await near.redis.get(key + taken) == "t-elsewhere"  # untouched
                assert await near.redis.get(key + fresh) == table.spec.id
                assert lobby.invites == {fresh: table.spec.id}
                # the table closes: its code is free again; the other node's stays
                lobby._closed(table)
                await table.stop()
                for chore in list(lobby._chores):
                    await chore
                assert await near.redis.get(key + fresh) is None
                assert await near.redis.get(key + taken) == "t-elsewhere"
            finally:
                await lobby.shutdown()
    finally:
        await store.close()
