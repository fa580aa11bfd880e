"""The arcade campaign over HTTP and the WebSocket: start, stake, play a hand against the
computer, the run settled and stored with the payout explained; a restart mid-hand resumes the
hand and the run; abandon ends it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import httpx
import pytest

from erren.bots import find_bot
from erren.testing.waits import eventually

from ._support.harness import TIME_SCALE, Server, run, serving
from ._support.helpers import player, settlements, wait_for

pytestmark = pytest.mark.services


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Server]:
    """A server of its own (the test restarts it), on SQLite: ``test_restart.py`` restores on
    both backends."""
    with serving("sqlite", tmp_path) as server:
        yield server


def test_campaign_hand_settles_and_survives_a_restart(fresh: Server) -> None:  # noqa: PLR0915
    server = fresh

    async def main() -> None:  # noqa: PLR0915 - one story, step by step
        a = await player(server.url, keep=True)
        http = a.http
        assert (await http.get("/campaign")).json() == {"campaign": None}
        started = await http.post("/campaign/start")
        assert started.status_code == 201, started.text
        camp = started.json()["campaign"]
        assert (camp["status"], camp["stage"], camp["bankroll"], camp["purse"]) == (
            "ready",
            1,
            1000,
            10000,
        )
        assert camp["level"] == "novice"  # stage 1 plays 入门, and the screen says how
        assert camp["style"]["zh"].startswith("陪练：先打出财神")
        assert camp["style"]["en"].startswith("A sparring partner: it throws its wilds (财神)")
        assert (await http.post("/campaign/start")).status_code == 409
        assert (await http.post("/campaign/hand", json={"multiplier": 11})).status_code == 422
        reply = await http.post("/campaign/hand", json={"multiplier": 2})
        assert reply.status_code == 200, reply.text
        table = reply.json()["table"]
        assert reply.json()["campaign"]["bankroll"] == 800
        assert (await http.post("/campaign/hand", json={"multiplier": 1})).status_code == 409
        # play the first hand to its settlement
        await a.play(table, find_bot("random", seed=1), hands=1, leave_after=False, timeout=60)
        end = settlements(a.messages)[-1]
        last = end["campaign"]["last"]
        assert last["stake"] == 200 and last["lines"]
        assert end["campaign"]["bankroll"] == last["bankroll"]
        stored = (await http.get("/campaign")).json()["campaign"]
        assert stored["last"] == last and stored["table"] == table
        assert stored["multiplier"] == 2  # the last stake is kept
        # the second hand: the server is killed mid-hand and comes back
        reply = await http.post("/campaign/hand", json={"multiplier": 1})
        assert reply.status_code == 200, reply.text
        game = None
        for _ in range(30):
            message = await a.recv(10)
            if message.get("type") == "events" and message.get("game") != end["game"]:
                game = message["game"]
                break
        assert game is not None
        server.kill()
        await a.disconnect()
        # a long grace (10 s) on the restarted server: the player comes back in time even
        # when the machine is slow to answer (nobody back → called off, test_faults)
        server.extra = (*server.extra, "--grace", "1000")
        server.start()
        during = (await http.get("/campaign")).json()["campaign"]
        assert during["status"] == "in_hand" and during["table"] == table
        await a.connect()
        await a.join(table, resume=True)
        joined = await wait_for(a, lambda m: m.get("type") in ("joined", "error"))
        assert joined["type"] == "joined", joined
        assert joined["table"]["seats"][1]["level"] == "novice"  # restored with its level
        before = len(settlements(a.messages))
        await a.play(table, find_bot("random", seed=2), hands=1, leave_after=False, timeout=60)
        ends = settlements(a.messages)
        assert len(ends) > before and ends[-1]["game"] == game
        after = (await http.get("/campaign")).json()["campaign"]
        assert after["hands"] == 2 and after["status"] in ("ready", "game_over")
        assert after["last"]["hand"] == 2
        # abandon: the run and its table end
        gone = await http.post("/campaign/abandon")
        assert gone.status_code == 200 and gone.json()["bankroll"] == after["bankroll"]
        assert (await http.get("/campaign")).json() == {"campaign": None}
        await eventually(_no_table(http), "the abandoned run's table closes")
        await a.close()

    run(main())


def _no_table(http: httpx.AsyncClient) -> Callable[[], Awaitable[bool]]:
    async def check() -> bool:
        return bool((await http.get("/me/table")).json() is None)

    return check


def test_a_restored_campaign_hand_nobody_rejoins_is_called_off(fresh: Server) -> None:
    """After a restart the player does not come back within the grace period (60 s × the
    harness's time scale): the hand is called off, its stake returned (no escape charged), and
    its stored record keeps the wall secret (the run deals the same hand again)."""
    server = fresh

    async def main() -> None:
        a = await player(server.url, keep=True)
        http = a.http
        assert (await http.post("/campaign/start")).status_code == 201
        reply = await http.post("/campaign/hand", json={"multiplier": 3})
        assert reply.status_code == 200, reply.text
        assert reply.json()["campaign"]["bankroll"] == 1000 - 3 * 100
        table = reply.json()["table"]
        await a.connect()
        await a.join(table)
        message = await wait_for(a, lambda m: m.get("type") == "events")
        game = message["game"]
        server.kill()
        await a.disconnect()
        server.start()

        async def called_off() -> bool:
            run = (await http.get("/campaign")).json()["campaign"]
            return bool(run["current"] is None)

        await eventually(
            called_off, "the restored hand is called off", timeout=60 * TIME_SCALE + 20
        )
        after = (await http.get("/campaign")).json()["campaign"]
        assert after["status"] == "ready" and after["current"] is None
        assert after["bankroll"] == 1000  # the stake of 300 came back
        assert after["hands"] == 0
        found = (await http.get(f"/games/{game}")).json()
        assert found["finished"] is True and found["record"]["called_off"]
        assert not {"seed", "fairness", "actions", "result"} & set(found["record"])
        await a.close()

    run(main())
