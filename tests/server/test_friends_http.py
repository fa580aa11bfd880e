"""Friends over HTTP and the socket (``/friends``, docs/protocol.md), on a real server: codes
and requests with their exact refusals, blocks, guests refused, recent opponents, presence
pushed to friends only (never to a stranger), and an invite of a friend into a bean room that
seats both at one bean table (a blocked player cannot join it)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest

from erren.server.client import PlayerClient

from ._support.harness import Server
from ._support.helpers import invites_at_login, player

pytestmark = pytest.mark.services

ROOM = "guobiao-2p/novice"


class Account:
    """A registered account over HTTP (and a socket when asked)."""

    def __init__(self, url: str, name: str, token: str, user_id: int) -> None:
        self.url, self.name, self.token, self.id = url, name, token, user_id
        self.auth = {"Authorization": f"Bearer {token}"}

    async def call(self, method: str, path: str, body: Any = None) -> httpx.Response:
        async with httpx.AsyncClient(base_url=self.url) as http:
            return await http.request(method, path, json=body, headers=self.auth)

    def socket(self) -> PlayerClient:
        return PlayerClient(self.url, self.token)


async def _account(url: str) -> Account:
    name = "f" + uuid.uuid4().hex[:10]
    async with httpx.AsyncClient(base_url=url) as http:
        made = await http.post("/auth/register", json={"name": name, "password": "password-123"})
        assert made.status_code == 201, made.text
        token = made.json()["token"]
        me = await http.get("/me", headers={"Authorization": f"Bearer {token}"})
    return Account(url, name, token, int(me.json()["id"]))


def _code(reply: httpx.Response) -> tuple[int, str]:
    return reply.status_code, reply.json().get("code", "")


async def _friends(a: Account, b: Account) -> None:
    assert (await a.call("POST", "/friends/requests", {"who": b.name})).status_code == 201
    assert (await b.call("POST", f"/friends/requests/{a.id}/accept")).status_code == 204


async def _until(client: PlayerClient, kind: str, timeout: float = 10) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            message = await client.recv()
            if message.get("type") == kind:
                return message


def test_requests_codes_and_blocks(server: Server) -> None:
    async def main() -> None:
        a, b, c = [await _account(server.url) for _ in range(3)]
        page = (await a.call("GET", "/friends")).json()
        assert page["friends"] == [] and len(page["code"]) == 6
        assert page["limits"] == {"friends": 100, "outgoing": 20, "incoming": 50, "blocks": 200}
        # by code, case and dashes aside
        code = (await b.call("GET", "/friends")).json()["code"]
        sent = await a.call("POST", "/friends/requests", {"who": code.lower()})
        assert sent.status_code == 201
        assert sent.json()["outcome"] == "sent" and sent.json()["user"]["name"] == b.name
        page = (await b.call("GET", "/friends")).json()
        assert [p["name"] for p in page["received"]] == [a.name]
        assert (await b.call("POST", f"/friends/requests/{a.id}/accept")).status_code == 204
        page = (await a.call("GET", "/friends")).json()
        assert [(p["name"], p["state"]) for p in page["friends"]] == [(b.name, "offline")]
        assert _code(await a.call("POST", "/friends/requests", {"who": b.name})) == (
            409,
            "friend-already",
        )
        assert _code(await a.call("POST", "/friends/requests", {"who": a.name})) == (
            422,
            "friend-self",
        )
        assert _code(await a.call("POST", "/friends/requests", {"who": "nobody-zz"})) == (
            404,
            "no-player",
        )
        assert _code(await b.call("POST", f"/friends/requests/{c.id}/accept")) == (
            404,
            "no-request",
        )
        # a block ends the friendship and bars requests both ways
        assert (await a.call("PUT", f"/friends/blocks/{b.id}")).status_code == 204
        page = (await a.call("GET", "/friends")).json()
        assert page["friends"] == [] and [p["name"] for p in page["blocked"]] == [b.name]
        for one, other in ((a, b), (b, a)):
            assert _code(await one.call("POST", "/friends/requests", {"who": other.name})) == (
                403,
                "friend-blocked",
            )
        assert _code(await a.call("DELETE", f"/friends/{b.id}")) == (404, "not-friends")
        assert (await a.call("DELETE", f"/friends/blocks/{b.id}")).status_code == 204
        assert (await b.call("POST", "/friends/requests", {"who": a.name})).status_code == 201
        assert (await a.call("POST", f"/friends/requests/{b.id}/refuse")).status_code == 204
        assert (await a.call("GET", "/friends")).json()["received"] == []
        # crossing requests make friends at once
        await c.call("POST", "/friends/requests", {"who": a.name})
        crossed = await a.call("POST", "/friends/requests", {"who": c.name})
        assert crossed.json()["outcome"] == "friends"
        # guests: 403 account-needed on every route, and nobody can add one
        guest = await player(server.url)
        try:
            for method, path in (("GET", "/friends"), ("GET", "/friends/recent")):
                reply = await guest.http.request(method, path)
                assert _code(reply) == (403, "account-needed")
            me = (await guest.http.get("/me")).json()
            assert _code(await a.call("POST", "/friends/requests", {"who": me["name"]})) == (
                404,
                "no-player",
            )
        finally:
            await guest.close()

    asyncio.run(main())


def test_presence_reaches_friends_only_and_a_bean_invite_seats_both(server: Server) -> None:
    async def main() -> None:
        a, b, stranger = [await _account(server.url) for _ in range(3)]
        await _friends(a, b)
        sa, sx = a.socket(), stranger.socket()
        await sa.log_in()
        await sx.log_in()
        try:
            sb = b.socket()
            await sb.log_in()
            seen = await _until(sa, "presence")
            assert (seen["user"], seen["state"], seen["family"]) == (b.id, "lobby", None)
            page = (await a.call("GET", "/friends")).json()
            assert page["friends"][0]["state"] == "lobby"
            # A invites B into a bean room: B hears it on his socket and joins by its code
            made = await a.call("POST", f"/friends/{b.id}/invite", {"room": ROOM})
            assert made.status_code == 201, made.text
            assert made.json()["info"]["room"] == ROOM
            invite = await _until(sb, "invite")
            assert invite["from"] == a.id and invite["room"] == ROOM
            joined = await b.call("POST", "/tables/join", {"invite": invite["invite"]})
            assert joined.status_code == 200, joined.text
            assert joined.json()["table"] == made.json()["table"] == invite["table"]
            assert joined.json()["seat"] == 1
            seated = await _until(sa, "presence")
            while seated["state"] != "table":
                seated = await _until(sa, "presence")
            assert (seated["user"], seated["family"]) == (b.id, "guobiao-2p")
            assert seated["table"] == made.json()["table"]  # a friend may ask to watch it
            # the stranger heard nothing of either
            with pytest.raises(TimeoutError):
                await _until(sx, "presence", timeout=0.5)
            # not friends: no invite; a stranger cannot join a friend's bean table when blocked
            assert _code(await stranger.call("POST", f"/friends/{a.id}/invite", {})) == (
                404,
                "not-friends",
            )
            # the stranger becomes a friend of both and watches their table: A sees him watching
            await _friends(stranger, a)
            await _friends(stranger, b)
            await sx.send({"type": "watch", "table": made.json()["table"]})
            assert (await _until(sx, "watching"))["table"] == made.json()["table"]
            seen = await _until(sa, "presence")
            while seen["user"] != stranger.id or seen["state"] != "watching":
                seen = await _until(sa, "presence")
            assert (seen["family"], seen["table"]) == (None, None)  # not which table
            await sx.send({"type": "unwatch"})
            seen = await _until(sa, "presence")
            while seen["user"] != stranger.id:
                seen = await _until(sa, "presence")
            assert seen["state"] == "lobby"
            await sb.close()
        finally:
            await sa.close()
            await sx.close()

    asyncio.run(main())


def test_a_block_made_at_the_table_stops_the_chat_both_ways(server: Server) -> None:
    """Friends at a private table chat; once one blocks the other, neither's phrase reaches
    anyone (nobody blocked sits down together: the block came during the game)."""

    async def main() -> None:
        a, b = await _account(server.url), await _account(server.url)
        await _friends(a, b)
        made = await a.call("POST", "/tables/private", {"family": "guobiao-2p"})
        assert made.status_code == 201, made.text
        table = made.json()["table"]
        joined = await b.call("POST", "/tables/join", {"invite": made.json()["invite"]})
        assert joined.status_code == 200, joined.text
        sa, sb = a.socket(), b.socket()
        await sa.connect()
        await sb.connect()
        try:
            for client in (sa, sb):
                await client.join(table)
                await _until(client, "snapshot")
            await sa.send({"type": "chat", "phrase": "hello"})
            for client in (sb, sa):  # both seats hear it, the sender too
                heard = await _until(client, "chat")
                assert (heard["seat"], heard["phrase"]) == (0, "hello")
            assert (await b.call("PUT", f"/friends/blocks/{a.id}")).status_code == 204
            await sa.send({"type": "chat", "phrase": "thanks"})
            await sb.send({"type": "chat", "sticker": "tea"})
            for client in (sa, sb):
                with pytest.raises(TimeoutError):
                    await _until(client, "chat", timeout=0.5)
        finally:
            await sa.close()
            await sb.close()

    asyncio.run(main())


def test_a_blocked_player_cannot_join_the_hosts_table(server: Server) -> None:
    async def main() -> None:
        a, b = await _account(server.url), await _account(server.url)
        assert (await a.call("PUT", f"/friends/blocks/{b.id}")).status_code == 204
        made = await a.call("POST", "/tables/private", {"room": ROOM})
        assert made.status_code == 201, made.text
        refused = await b.call("POST", "/tables/join", {"invite": made.json()["invite"]})
        assert _code(refused) == (403, "friend-blocked")
        guest = await player(server.url)
        try:
            reply = await guest.http.post("/tables/join", json={"invite": made.json()["invite"]})
            assert _code(reply) == (403, "account-needed")
            reply = await guest.http.post("/tables/private", json={"room": ROOM})
            assert _code(reply) == (403, "account-needed")
        finally:
            await guest.close()

    asyncio.run(main())


def test_quick_match_never_pairs_a_blocked_player(server: Server) -> None:
    """Two accounts alone in a room's queue, one blocking the other: neither is paired (both
    wait out their wait); once unblocked, they are."""

    async def main() -> None:
        a, b = await _account(server.url), await _account(server.url)
        room = "xiamen/novice"
        assert (await b.call("PUT", f"/friends/blocks/{a.id}")).status_code == 204

        async def quick(one: Account, wait_s: float) -> httpx.Response:
            async with httpx.AsyncClient(base_url=one.url, timeout=30) as http:
                return await http.post(
                    "/match/quick", json={"room": room, "wait_s": wait_s}, headers=one.auth
                )

        first, second = await asyncio.gather(quick(a, 2), quick(b, 2))
        assert _code(first) == (408, "no-opponent") and _code(second) == (408, "no-opponent")
        assert (await b.call("DELETE", f"/friends/blocks/{a.id}")).status_code == 204
        first, second = await asyncio.gather(quick(a, 10), quick(b, 10))
        assert first.status_code == second.status_code == 200, (first.text, second.text)
        assert first.json()["table"] == second.json()["table"]

    asyncio.run(main())


def test_friend_requests_and_invites_are_throttled_per_account(server: Server) -> None:
    """30 requests (and invites) per account in ten minutes; the next is 429
    ``friend-throttled`` with ``retry_after`` and a ``Retry-After`` header."""

    async def main() -> None:
        a, b = await _account(server.url), await _account(server.url)
        for _ in range(30):  # asking again is the same request, and counts
            assert (await a.call("POST", "/friends/requests", {"who": b.name})).status_code == 201
        refused = await a.call("POST", "/friends/requests", {"who": b.name})
        assert _code(refused) == (429, "friend-throttled")
        wait = refused.json()["params"]["retry_after"]
        assert 0 < wait <= 600 and refused.headers["Retry-After"] == str(wait)
        # another account is not held back by it
        assert (await b.call("POST", f"/friends/requests/{a.id}/accept")).status_code == 204

    asyncio.run(main())


def test_a_declined_invite_is_told_to_the_host(server: Server) -> None:
    """B declines A's invite to a score-only table: A's socket hears ``invite-declined``; a
    stranger cannot send one."""

    async def main() -> None:
        a, b, stranger = [await _account(server.url) for _ in range(3)]
        await _friends(a, b)
        sa, sb = a.socket(), b.socket()
        await sa.log_in()
        await sb.log_in()
        try:
            made = await a.call("POST", f"/friends/{b.id}/invite", {"family": "xiamen"})
            assert made.status_code == 201, made.text
            assert made.json()["info"]["room"] is None and made.json()["info"]["family"] == "xiamen"
            invite = await _until(sb, "invite")
            assert (invite["room"], invite["family"]) == (None, "xiamen")
            declined = await b.call(
                "POST", f"/friends/{a.id}/decline", {"invite": invite["invite"]}
            )
            assert declined.status_code == 204
            told = await _until(sa, "invite-declined")
            assert (told["from"], told["name"], told["invite"]) == (b.id, b.name, invite["invite"])
            refused = await stranger.call("POST", f"/friends/{a.id}/decline", {"invite": "X"})
            assert _code(refused) == (404, "not-friends")
        finally:
            await sa.close()
            await sb.close()

    asyncio.run(main())


def test_an_invite_sent_while_the_friend_was_away_reaches_his_next_login(server: Server) -> None:
    """B has no socket open (his phone put the page away) while A, C and D invite him; D's
    table is taken by someone else meanwhile.  B's next login hears A's and C's invites, oldest
    first, exactly as they were sent, and not D's (its table no longer waits for him).  He
    declines C's and joins A's table: a later login hears neither again."""

    async def main() -> None:
        a, b, c, d, e = [await _account(server.url) for _ in range(5)]
        for inviter in (a, c, d):
            await _friends(inviter, b)
        made = {}
        for inviter, family in ((a, "xiamen"), (c, "guobiao-2p"), (d, "arcade")):
            reply = await inviter.call("POST", f"/friends/{b.id}/invite", {"family": family})
            assert reply.status_code == 201, reply.text
            made[inviter.id] = reply.json()
        taken = await e.call("POST", "/tables/join", {"invite": made[d.id]["invite"]})
        assert taken.status_code == 200, taken.text

        def sent(inviter: Account, family: str) -> dict[str, Any]:
            seat = made[inviter.id]
            return {"type": "invite", "from": inviter.id, "name": inviter.name,
                    "invite": seat["invite"], "table": seat["table"], "room": None,
                    "family": family}  # fmt: skip

        heard = await invites_at_login(server.url, b.token)
        assert heard == [sent(a, "xiamen"), sent(c, "guobiao-2p")]
        declined = await b.call(
            "POST", f"/friends/{c.id}/decline", {"invite": made[c.id]["invite"]}
        )
        assert declined.status_code == 204
        joined = await b.call("POST", "/tables/join", {"invite": made[a.id]["invite"].lower()})
        assert joined.status_code == 200 and joined.json()["table"] == made[a.id]["table"]
        assert await invites_at_login(server.url, b.token) == []

    asyncio.run(main())


def test_an_invite_is_over_once_its_table_no_longer_waits_for_the_friend(server: Server) -> None:
    """B's sockets are told when an invite's table stops waiting for him, so that no page of
    his keeps offering a seat that is gone: A leaves the table he invited B to, E takes C's by
    its code, and B himself takes D's (his other pages hear that too, ``seated``).  Each
    message is exactly the invite's sender, name and code; none of the three is held for his
    next login."""

    async def main() -> None:
        a, b, c, d, e = [await _account(server.url) for _ in range(5)]
        for inviter in (a, c, d):
            await _friends(inviter, b)
        sb, sa = b.socket(), a.socket()
        await sb.log_in()
        await sa.log_in()
        try:

            async def invited_by(inviter: Account) -> tuple[str, str]:
                reply = await inviter.call("POST", f"/friends/{b.id}/invite", {"family": "xiamen"})
                assert reply.status_code == 201, reply.text
                assert (await _until(sb, "invite"))["from"] == inviter.id
                return str(reply.json()["invite"]), str(reply.json()["table"])

            def over(inviter: Account, code: str, *, seated: bool) -> dict[str, Any]:
                return {"type": "invite-over", "from": inviter.id, "name": inviter.name,
                        "invite": code, "seated": seated}  # fmt: skip

            code, table = await invited_by(a)
            await sa.join(table)
            await _until(sa, "joined")
            await sa.send({"type": "leave"})
            assert await _until(sb, "invite-over") == over(a, code, seated=False)

            code, _ = await invited_by(c)
            taken = await e.call("POST", "/tables/join", {"invite": code})
            assert taken.status_code == 200, taken.text
            assert await _until(sb, "invite-over") == over(c, code, seated=False)

            code, _ = await invited_by(d)
            joined = await b.call("POST", "/tables/join", {"invite": code})
            assert joined.status_code == 200, joined.text
            assert await _until(sb, "invite-over") == over(d, code, seated=True)
        finally:
            await sa.close()
            await sb.close()
        assert await invites_at_login(server.url, b.token) == []

    asyncio.run(main())
