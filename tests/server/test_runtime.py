"""The table runtime over real sockets: bad input, timeouts, 托管, reconnection, escape."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from erren.bots import find_bot

from ._support.harness import Server, run
from ._support.helpers import player, private_pair, quick_pair, settlements, wait_for


def _my_turn(client: Any) -> Any:
    return lambda m: m.get("type") in ("events", "snapshot") and client.my_turn()


def test_bad_input_is_answered_and_changes_nothing(server: Server) -> None:
    async def main() -> None:
        # a long turn: "nothing changed" must not be undone by the dealer's turn running out
        a, b, table = await private_pair(server.url, turn_timeout_s=1000)
        for c in (a, b):
            await c.connect()
            await c.join(table)
        mover = a
        await wait_for(a, lambda m: m.get("type") == "events")
        await wait_for(b, lambda m: m.get("type") == "events")
        if not a.my_turn():
            mover, other = b, a
        else:
            other = b
        last = mover.last_n
        assert mover.ws is not None

        async def expect(raw: str, code: str) -> None:
            assert mover.ws is not None
            await mover.ws.send(raw)
            reply = await wait_for(mover, lambda m: m.get("type") == "error")
            assert reply["code"] == code, reply
            assert reply["message"]

        await expect("{not json", "bad-json")
        await expect("[1, 2]", "bad-message")
        await expect(json.dumps({"type": "dance"}), "unknown-type")
        await expect(json.dumps({"type": "act"}), "bad-message")
        await expect(json.dumps({"type": "act", "action": 5}), "bad-message")
        await expect(json.dumps({"type": "act", "action": "discard:9x"}), "bad-action")
        await expect(json.dumps({"type": "act", "action": "hu"}), "claim-window-closed")
        await expect(json.dumps({"type": "act", "action": "timeout"}), "bad-action")
        other_seat = 1 - mover.seat
        await expect(
            json.dumps({"type": "act", "action": f"{other_seat}:discard:1m"}), "not-your-seat"
        )
        await expect(json.dumps({"type": "act", "action": "x" * 5000}), "too-large")
        legal = mover.state["legal"] if mover.state else []
        await expect(json.dumps({"type": "act", "action": legal[0], "n": last - 1}), "stale")
        await expect(json.dumps({"type": "join", "table": "nope"}), "not-seated")
        # out of turn: the other player tries to discard
        assert other.ws is not None
        await other.ws.send(json.dumps({"type": "act", "action": "discard:1m"}))
        reply = await wait_for(other, lambda m: m.get("type") == "error")
        assert reply["code"] in ("out-of-turn", "claim-window-closed"), reply
        # nothing changed, the connection is still there
        await mover.send({"type": "resync"})
        snap = await wait_for(mover, lambda m: m.get("type") == "snapshot")
        assert snap["last_n"] == last
        await mover.send({"type": "ping"})
        await wait_for(mover, lambda m: m.get("type") == "pong")
        # a legal move still works on the same connection
        await mover.act(legal[0])
        await wait_for(mover, lambda m: m.get("type") == "events")
        assert mover.last_n > last
        await a.close()
        await b.close()

    run(main())


def test_flooding_is_limited_then_closed(server: Server) -> None:
    async def main() -> None:
        a = await player(server.url)
        await a.connect()
        assert a.ws is not None
        codes: list[str] = []

        async def reader() -> None:
            while True:
                message = await a.recv(10)
                if message.get("type") == "error":
                    codes.append(message["code"])

        task = asyncio.create_task(reader())
        closed = False
        try:
            for _ in range(3000):
                await a.ws.send('{"type":"ping"}')
                await asyncio.sleep(0)
        except Exception:  # the server closed the socket
            pass
        try:
            await task
        except Exception:
            closed = True
        assert closed
        assert codes and codes[-1] == "flood"  # warned (rate-limited), then closed
        await a.close()

    run(main())


def test_timeout_plays_the_default_move_then_trustee(server: Server) -> None:
    async def main() -> None:
        a, b, table = await private_pair(server.url)
        a.keep = True
        await a.connect()
        await a.join(table)
        # b joins and never moves: his timers run out (0.2 s each with the test clock)
        await b.connect()
        await b.join(table)
        events: list[dict[str, Any]] = []
        bot = find_bot("random", seed=3)

        async def a_plays() -> None:
            while True:
                message = await a.recv(20)
                if message.get("type") == "events":
                    events.extend(message["events"])
                    if any(e["kind"] == "settlement" for e in message["events"]):
                        return
                if a.my_turn():
                    await a._move(bot, None)

        await a_plays()
        b_seat = 1 - a.seat
        timeouts = [e for e in events if e["kind"] == "timeout" and e["player"] == b_seat]
        assert timeouts, "b's timer ran out"
        assert all(e["data"]["move"].startswith(f"{b_seat}:") for e in timeouts)
        auto = [e for e in events if e["kind"] == "trustee" and e["player"] == b_seat]
        assert auto and auto[0].get("auto") and auto[0]["data"] == {"on": True}  # after 2 timeouts
        assert any(
            e.get("auto") and e["player"] == b_seat
            for e in events
            if e["kind"] in ("discard", "pass", "hu", "zimo")
        )
        await a.close()
        await b.close()

    run(main())


def test_trustee_switched_by_the_player(server: Server) -> None:
    async def main() -> None:
        a, b, table = await private_pair(server.url)
        for c in (a, b):
            await c.connect()
            await c.join(table)
        await wait_for(a, lambda m: m.get("type") == "events")
        await a.send({"type": "trustee", "on": True})
        msg = await wait_for(
            a,
            lambda m: (
                m.get("type") == "events"
                and any(e["kind"] == "trustee" and e["player"] == a.seat for e in m["events"])
            ),
        )
        assert msg["state"]["trustee"][a.seat] is True
        await a.send({"type": "trustee", "on": False})
        msg = await wait_for(
            a,
            lambda m: (
                m.get("type") == "events"
                and any(e["kind"] == "trustee" and e["data"] == {"on": False} for e in m["events"])
            ),
        )
        assert msg["state"]["trustee"][a.seat] is False
        await a.close()
        await b.close()

    run(main())


def test_reconnection_gets_missing_events_or_snapshot(server: Server) -> None:
    async def main() -> None:
        a, b, table = await private_pair(server.url)
        for c in (a, b):
            await c.connect()
            await c.join(table)
        await wait_for(a, lambda m: m.get("type") == "events")
        game, seen = a.game, a.last_n
        await a.disconnect()
        # b keeps playing while a is away
        bot = find_bot("random", seed=5)
        for _ in range(3):
            message = await b.recv(10)
            if b.my_turn():
                await b._move(bot, None)
            if b.hand_over(message):
                break
        await a.connect()
        await a.send({"type": "join", "table": table, "game": game, "since": seen})
        await wait_for(a, lambda m: m.get("type") == "joined")
        caught = await wait_for(a, lambda m: m.get("type") in ("events", "snapshot"))
        assert caught["type"] == "events"
        numbers = [e["n"] for e in caught["events"]]
        assert numbers == list(range(seen + 1, seen + 1 + len(numbers)))
        # an unknown event number → a full snapshot of the observation
        await a.send({"type": "join", "table": table, "game": game, "since": 10**6})
        snap = await wait_for(a, lambda m: m.get("type") == "snapshot")
        assert snap["state"]["player"] == a.seat
        await a.close()
        await b.close()

    run(main())


def test_escape_costs_the_penalty_once(server: Server) -> None:
    async def main() -> None:
        a, b, table = await quick_pair(server.url, "guobiao-2p/novice")
        for c in (a, b):
            await c.connect()
            await c.join(table)
        await wait_for(a, lambda m: m.get("type") == "events")
        before_a, before_b = await a.balance(), await b.balance()
        await a.send({"type": "leave"})
        end = await wait_for(b, lambda m: m.get("type") == "events" and bool(settlements([m])))
        settlement = settlements([end])[0]
        assert settlement["result"]["kind"] == "abort"
        assert settlement["result"]["loser"] == a.seat
        penalty = 13 * 50  # escape_penalty_points × the novice room's stake
        assert settlement["beans"][a.seat] == -penalty
        await wait_for(b, lambda m: m.get("type") == "closed")
        assert await a.balance() == before_a - penalty
        assert await b.balance() == before_b + penalty
        ledger = (await a.http.get("/me/ledger")).json()
        assert sum(1 for row in ledger if row["amount"] == -penalty) == 1
        await a.close()
        await b.close()

    run(main())


def test_staying_away_past_the_grace_period_is_an_escape(server: Server) -> None:
    async def main() -> None:
        a, b, table = await quick_pair(server.url, "xiamen/novice")
        for c in (a, b):
            await c.connect()
            await c.join(table)
        await wait_for(a, lambda m: m.get("type") == "events")
        before_b = await b.balance()
        await a.disconnect()  # gone for good: the grace (60 s → 0.6 s) runs out
        end = await wait_for(
            b, lambda m: m.get("type") == "events" and bool(settlements([m])), timeout=30
        )
        result = settlements([end])[0]["result"]
        if result["kind"] == "abort":
            assert result["loser"] == a.seat
            assert await b.balance() == before_b + min(400 * 50, 10_000)
        await a.close()
        await b.close()

    run(main())
