"""Playing together across the nodes of a cluster (issue #29's gaps): two ``erren serve
--redis`` nodes as separate processes on one PostgreSQL database and the machine's Redis, the
table on ``far``, the spectator or one player on ``near`` through the relay.

* A spectator relayed to the table's node shows as ``watching`` to his friends on any node
  (the table's node has the word on him: it admitted him), and as ``lobby`` again once he
  stops.
* A block stops the chat at a table whoever's node the sockets are on: the table's node checks
  it; a block made on the table's node counts at once, one made on another node is pushed to
  it (through the friends channel, ahead of the blocked player's ``friends`` notice)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis

from erren.server.client import PlayerClient

from ._support.harness import Server, cluster_pair, run
from ._support.helpers import registered, wait_for
from ._support.redis_ns import REDIS_URL
from ._support.spectating import ask_to_watch, befriend, let_watch, new_name

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server, str]]:
    """Two nodes at real speed; their logs checked for tracebacks afterwards."""
    tmp = tmp_path_factory.mktemp("play-together")
    with cluster_pair(tmp, ("near", "far")) as pair:
        yield pair
    for node in pair[:2]:
        log = node.log.read_text(errors="replace")
        assert "Traceback" not in log, log[-4000:]


def _owned_by_far(prefix: str, table: str) -> None:
    with redis.Redis.from_url(REDIS_URL, decode_responses=True) as client:
        assert str(client.get(f"{prefix}lease:{table}")).startswith("far|")


def _presence_of(user: int, state: str) -> Any:
    return lambda m: m.get("type") == "presence" and m["user"] == user and m["state"] == state


async def _connected(client: PlayerClient) -> int:
    client.keep = True
    welcome = await client.log_in()
    return int(welcome["user"]["id"])


def test_a_relayed_spectator_shows_as_watching(nodes: tuple[Server, Server, str]) -> None:
    """W, on near, watches a table of far: his friend c, on near too, sees him watching (not
    which table), in the lobby once he stops, watching again, in the lobby once the table
    closes under him, offline once he goes.

    Slow (a few seconds, and 15–25 s to start the module's two server processes on a busy
    machine)."""
    near, far, prefix = nodes

    async def main() -> None:
        na, nb, nw, nc = (new_name() for _ in range(4))
        a, b = await registered(far.url, na), await registered(far.url, nb)
        made = await a.private_table("guobiao-2p")
        await b.join_invite(made["invite"])
        table = made["table"]
        _owned_by_far(prefix, table)
        await let_watch(a, "everyone")
        await let_watch(b, "everyone")
        w, c = await registered(near.url, nw), await registered(near.url, nc)
        await befriend(w, nw, c, nc)
        await _connected(c)
        w_id = await _connected(w)
        await wait_for(c, _presence_of(w_id, "lobby"))
        answer = await ask_to_watch(w, table)
        assert answer["type"] == "watching" and answer["table"] == table
        seen = await wait_for(c, _presence_of(w_id, "watching"))
        assert (seen["family"], seen["table"]) == (None, None)  # not which table, as locally
        await w.send({"type": "unwatch"})
        back = await wait_for(c, lambda m: m.get("type") == "presence" and m["user"] == w_id)
        assert (back["state"], back["family"], back["table"]) == ("lobby", None, None)
        # watching again, until the table closes under him (its host leaves)
        assert (await ask_to_watch(w, table))["type"] == "watching"
        await wait_for(c, _presence_of(w_id, "watching"))
        await _connected(a)
        await a.join(table)
        await wait_for(a, lambda m: m.get("type") == "joined")
        await a.send({"type": "leave"})
        assert (await wait_for(w, lambda m: m.get("type") == "closed"))["code"] == "left"
        back = await wait_for(c, lambda m: m.get("type") == "presence" and m["user"] == w_id)
        assert back["state"] == "lobby"
        await w.close()
        gone = await wait_for(c, lambda m: m.get("type") == "presence" and m["user"] == w_id)
        assert gone["state"] == "offline"
        for client in (a, b, c):
            await client.close()

    run(main())


async def _pong(client: PlayerClient) -> None:
    """Everything the server queued for ``client`` before this has arrived."""
    await client.send({"type": "ping"})
    await wait_for(client, lambda m: m.get("type") == "pong", 10)


def _chats(client: PlayerClient) -> list[dict[str, Any]]:
    return [m for m in client.messages if m.get("type") == "chat"]


def test_a_block_stops_the_chat_of_a_relayed_player(nodes: tuple[Server, Server, str]) -> None:
    """Ann plays bob's table on far from near.  Chat flows both ways; bob blocks ann (on far):
    her phrase never reaches him, she hears ``chat-blocked``; he lifts it and his sticker
    reaches her; ann blocks bob on near: the block reaches far before bob's ``friends``
    notice, and his sticker is refused, hers too.

    Slow (about 2 s, and the module's two server processes, shared with the test above)."""
    near, far, prefix = nodes

    async def main() -> None:
        bob = await registered(far.url, new_name())
        ann = await registered(near.url, new_name())
        made = await bob.private_table("guobiao-2p")
        table = made["table"]
        joined = await ann.join_invite(made["invite"])
        assert (joined["table"], joined["seat"]) == (table, 1)
        _owned_by_far(prefix, table)
        bob_id, ann_id = await _connected(bob), await _connected(ann)
        for client in (bob, ann):
            await client.join(table)
            await wait_for(client, lambda m: m.get("type") == "joined")
        await ann.send({"type": "chat", "phrase": "hello"})
        said = {"type": "chat", "seat": 1, "phrase": "hello"}
        assert await wait_for(bob, lambda m: m.get("type") == "chat") == said
        assert await wait_for(ann, lambda m: m.get("type") == "chat") == said
        blocked = await bob.http.put(f"/friends/blocks/{ann_id}")
        assert blocked.status_code == 204, blocked.text
        await ann.send({"type": "chat", "phrase": "thanks"})
        refused = await wait_for(ann, lambda m: m.get("type") in ("chat", "error"))
        assert (refused["type"], refused["code"]) == ("error", "chat-blocked")
        assert refused["params"] == {}
        await _pong(bob)
        assert _chats(bob) == [said]  # her phrase never reached him
        lifted = await bob.http.delete(f"/friends/blocks/{ann_id}")
        assert lifted.status_code == 204, lifted.text
        await bob.send({"type": "chat", "sticker": "tea"})
        tea = {"type": "chat", "seat": 0, "sticker": "tea"}
        assert await wait_for(ann, lambda m: m.get("type") == "chat") == tea
        # a block made on near: pushed to far ahead of bob's notice of it
        again = await ann.http.put(f"/friends/blocks/{bob_id}")
        assert again.status_code == 204, again.text
        await wait_for(bob, lambda m: m.get("type") == "friends")
        await bob.send({"type": "chat", "sticker": "flower"})
        refused = await wait_for(bob, lambda m: m.get("type") in ("chat", "error"))
        assert (refused["type"], refused["code"]) == ("error", "chat-blocked")
        await ann.send({"type": "chat", "sticker": "cool"})
        refused = await wait_for(ann, lambda m: m.get("type") in ("chat", "error"))
        assert (refused["type"], refused["code"]) == ("error", "chat-blocked")
        await _pong(bob)
        assert _chats(bob) == [said, tea]
        await _pong(ann)
        assert _chats(ann) == [said, tea]
        await ann.send({"type": "leave"})
        for client in (ann, bob):
            closed = await wait_for(client, lambda m: m.get("type") == "closed")
            assert closed["code"] in ("left", "escaped")
            await client.close()

    run(main())
