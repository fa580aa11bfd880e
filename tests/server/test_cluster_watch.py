"""A spectator on another cluster node (issue #29, point 3): his ``watch`` of a table the
other node plays is relayed to that node, which admits him by the same rules and sends him the
public stream through the relay; the players see him counted, and he stops with ``unwatch``."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import redis

from ._support.harness import TIME_SCALE, Server, cluster_pair, run
from ._support.helpers import play_both, settlements, wait_for
from ._support.redis_ns import REDIS_URL
from ._support.spectating import ask_to_watch, let_watch, private_pair, spectator
from ._support.watch_leaks import WatchAudit, audit_watcher

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server, str]]:
    with cluster_pair(
        tmp_path_factory.mktemp("watch"), ("near", "far"), time_scale=TIME_SCALE
    ) as pair:
        yield pair


def test_a_spectator_on_another_node(nodes: tuple[Server, Server, str]) -> None:
    near, far, prefix = nodes

    async def main() -> None:
        a, b, table, _, _ = await private_pair(far.url)  # made, and so played, on far
        with redis.Redis.from_url(REDIS_URL, decode_responses=True) as client:
            assert str(client.get(f"{prefix}lease:{table}")).startswith("far|")
        await let_watch(a, "everyone")
        await let_watch(b, "everyone")
        s, _ = await spectator(near.url)
        assert await ask_to_watch(s, table) == {
            "type": "watching",
            "table": table,
            "delay": 0,
            "limit": 20,
        }
        refused, _ = await spectator(near.url)
        await let_watch(b, "friends")
        answer = await ask_to_watch(refused, table)  # the rules are the owner's, through the relay
        assert answer["code"] == "watch-refused" and answer["params"]["reason"] == "guest"
        a.keep = True

        async def one_hand() -> None:
            while not s.hand_over(await s.recv(60)):
                pass

        watching = asyncio.create_task(one_hand())
        await play_both(a, b, table, hands=1)
        await asyncio.wait_for(watching, 30)
        assert {"type": "watchers", "count": 1} in a.messages
        audit = WatchAudit()
        audit_watcher(s.messages, [e["record"] for e in settlements(a.messages)], audit)
        assert not audit.leaks, "\n".join(audit.leaks[:5])
        assert audit.states > 10
        await s.send({"type": "unwatch"})
        await wait_for(a, lambda m: m == {"type": "watchers", "count": 0})
        for client in (a, b, s, refused):
            await client.close()

    run(main())
