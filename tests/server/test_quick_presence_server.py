"""Quick match never seats a player with someone who is gone (issue 28, deliverable 2), against a
real ``erren serve`` over HTTP and WebSockets: a waiting request whose connection closes leaves
its player away (paired with nobody, his place kept for the queue grace, then gone), and a
pairing one of whose players does not come to the table within the show-up time is dissolved
with nobody charged, the player present back at the front of the queue.

The server runs with a queue grace of 2 s and a show-up time of 1.5 s (``--queue-grace``,
``--show-up``: wall-clock seconds); the tests wait for states, never for a time.  The exact
ends of both are checked on an injected clock in ``test_quick_presence.py``."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from erren.server.client import PlayerClient

from ._support.harness import Server, run, serving
from ._support.helpers import wait_for
from ._support.presence import WELCOME, Searching, register

pytestmark = pytest.mark.services  # an erren serve of its own (a module fixture)

ROOM = "guobiao-2p/novice"
GRACE_S = 2.0
SHOW_UP_S = 1.5


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own (the grace and show-up time are its settings)."""
    tmp = tmp_path_factory.mktemp("presence")
    options = (
        "--queue-grace",
        f"{GRACE_S:g}",
        "--show-up",
        f"{SHOW_UP_S:g}",
    )
    with serving("sqlite", tmp, *options) as server:
        yield server
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-4000:]


async def _seats(url: str, table: str) -> list[str]:
    async with httpx.AsyncClient(base_url=url) as http:
        reply = await http.get(f"/tables/{table}")
        assert reply.status_code == 200, reply.text
        return [str(seat["name"]) for seat in reply.json()["seats"]]


def test_a_closed_tab_is_nobody_to_be_seated_with(quick: Server) -> None:
    """The issue's ghost: Z waits and his tab closes; W picks the same room a moment later and
    waits (he is not seated with Z); Z's place lasts the grace, then Z has left the queue; X
    comes and W is seated with X."""

    async def go() -> None:
        url = quick.url
        z, w, x = [await register(url) for _ in range(3)]
        zs = Searching(url, z, ROOM)
        await z.until(url, (ROOM, False))
        await zs.goes()
        await z.until(url, (ROOM, True))
        ws = Searching(url, w, ROOM)
        await w.until(url, (ROOM, False))
        assert not ws.task.done()
        await z.until(url, None)
        assert not ws.task.done()
        xs = Searching(url, x, ROOM)
        (ws_status, hers), (xs_status, his) = await ws.answer(), await xs.answer()
        assert (ws_status, xs_status) == (200, 200)
        assert hers["table"] == his["table"] and (hers["seat"], his["seat"]) == (0, 1)
        assert await _seats(url, hers["table"]) == [w.name, x.name]

    run(go())


def test_a_reload_within_the_grace_keeps_the_place(quick: Server) -> None:
    """Z's page reloads: Y, who comes meanwhile, waits behind Z; Z's request asks to resume
    and is paired with Y at once (Z was first: Y in seat 0 as the one who waited)."""

    async def go() -> None:
        url = quick.url
        z, y = await register(url), await register(url)
        zs = Searching(url, z, ROOM)
        await z.until(url, (ROOM, False))
        await zs.goes()
        ys = Searching(url, y, ROOM)
        await y.until(url, (ROOM, False))
        back = Searching(url, z, ROOM, resume=True)
        (z_status, zs_body), (y_status, ys_body) = await back.answer(), await ys.answer()
        assert (z_status, y_status) == (200, 200)
        assert zs_body["table"] == ys_body["table"]
        assert (ys_body["seat"], zs_body["seat"]) == (0, 1)

    run(go())


def test_past_the_grace_the_place_is_lost_and_said_so(quick: Server) -> None:
    """Z comes back after the grace: ``resume`` answers 404 ``search-lost`` (the client queues
    again and tells him); a new request queues him."""

    async def go() -> None:
        url = quick.url
        z = await register(url)
        zs = Searching(url, z, ROOM)
        await z.until(url, (ROOM, False))
        await zs.goes()
        await z.until(url, None)
        status, body = await Searching(url, z, ROOM, resume=True).answer()
        assert (status, body["code"], body["params"]) == (404, "search-lost", {"room": ROOM})
        again = Searching(url, z, ROOM)
        await z.until(url, (ROOM, False))
        await again.goes()

    run(go())


def test_a_pairing_whose_player_never_comes_is_dissolved(quick: Server) -> None:
    """W waits; G is paired with W and never comes to the table; Y queues meanwhile.  W, at
    the table over a WebSocket, hears ``no-show`` (G's seat 1, the room, the show-up time) and
    is away at the front of the queue; her request to resume pairs her with Y at once.  No
    bean moved: W, G and Y hold exactly the welcome grant."""

    async def go() -> None:
        url = quick.url
        w, g, y = [await register(url) for _ in range(3)]
        waiting = Searching(url, w, ROOM)
        await w.until(url, (ROOM, False))
        status, ghost = await Searching(url, g, ROOM).answer()
        assert status == 200 and ghost["seat"] == 1
        _, hers = await waiting.answer()
        table = hers["table"]
        assert ghost["table"] == table
        ys = Searching(url, y, ROOM)
        await y.until(url, (ROOM, False))
        async with PlayerClient(url, w.token) as client:
            await client.connect()
            await client.join(table)
            closed = await wait_for(client, lambda m: m.get("type") == "closed", timeout=30)
        params = {"room": ROOM, "seats": [1], "seconds": round(SHOW_UP_S)}
        assert (closed["table"], closed["code"], closed["params"]) == (table, "no-show", params)
        assert await w.search(url) == (ROOM, True)
        assert await g.search(url) is None
        (w_status, again), (y_status, his) = (
            await Searching(url, w, ROOM, resume=True).answer(),
            await ys.answer(),
        )
        assert (w_status, y_status) == (200, 200)
        assert again["table"] == his["table"] != table
        assert (his["seat"], again["seat"]) == (0, 1)
        assert [await p.balance(url) for p in (w, g, y)] == [WELCOME] * 3

    run(go())
