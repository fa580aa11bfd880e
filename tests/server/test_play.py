"""Two clients play full hands over WebSockets; no hidden information reaches the other
player on any message; records verify; beans balance."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import httpx
import pytest

from erren.server.fairness import verify_record

from ._support.harness import Server, run
from ._support.helpers import check_no_leak, private_pair, quick_pair, settlements


@pytest.mark.slow
def test_random_games_leak_nothing(server: Server) -> None:
    """Slow (about 7 s): random hands of every family over WebSockets, every message audited."""

    async def main() -> None:
        checked = 0
        for family, seed in (("guobiao-2p", 1), ("xiamen", 3), ("guobiao-2p", 5)):
            a, b, table = await private_pair(server.url, family, keep=True)
            from ._support.helpers import play_both  # noqa: PLC0415

            await play_both(a, b, table, hands=3, seed=seed)
            for client in (a, b):
                ends = settlements(client.messages)
                assert len(ends) == 3, [
                    (m["type"], m.get("reason"), m.get("message"))
                    for m in client.messages
                    if m["type"] not in ("events", "ready", "presence")
                ]
                for end in ends:
                    checked += check_no_leak(client.messages, client.seat, end["record"])
            await a.close()
            await b.close()
        assert checked > 100

    run(main())


def test_quick_match_beans_and_records(server: Server, tmp_path: object) -> None:
    async def main() -> None:
        a, b, table = await quick_pair(server.url, "guobiao-2p/novice")
        before = await a.balance() + await b.balance()
        from ._support.helpers import play_both  # noqa: PLC0415

        a.keep = True
        await play_both(a, b, table, hands=2, bot="efficiency")
        after_a, after_b = await a.balance(), await b.balance()
        assert after_a + after_b == before, "beans are only moved, never made"
        ends = settlements(a.messages)
        closed = [m["code"] for m in a.messages if m["type"] == "closed"]
        # §6.4: a player whose balance leaves the room's limits must leave (not an escape)
        outside = ("below-entry", "above-entry", "opponent-below-entry")
        assert len(ends) == 2 or (len(ends) == 1 and closed[0] in outside), closed
        moved = sum(e["beans"][a.seat] for e in ends)
        assert after_a - (before // 2) == moved
        reply = await a.http.get("/games")
        assert reply.status_code == 200
        games = reply.json()
        assert len(games) == len(ends) and all(g["finished"] for g in games)
        record = (await a.http.get(f"/games/{ends[0]['game']}")).json()["record"]
        state = verify_record(record)
        assert state.result is not None and state.is_terminal
        assert record["fairness"]["commitment"] == ends[0]["record"]["fairness"]["commitment"]
        ledger = (await a.http.get("/me/ledger")).json()
        assert sum(1 for row in ledger if "game" in row["reason"]) == sum(
            1 for e in ends if e["beans"][a.seat]
        )
        await a.close()
        await b.close()

    run(main())


def test_verify_command(server: Server, tmp_path: object) -> None:
    async def main() -> dict[str, object]:
        a, b, table = await private_pair(server.url)
        from ._support.helpers import play_both  # noqa: PLC0415

        a.keep = True
        await play_both(a, b, table, hands=1)
        game = settlements(a.messages)[0]["game"]
        body: dict[str, object] = (await a.http.get(f"/games/{game}")).json()
        await a.close()
        await b.close()
        return body

    holder: list[dict[str, object]] = []

    async def wrap() -> None:
        holder.append(await main())

    run(wrap())
    import json  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    path = Path(str(tmp_path)) / "game.json"
    path.write_text(json.dumps(holder[0]))
    ok = subprocess.run(
        [sys.executable, "-m", "erren.cli.main", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "commitment" in ok.stdout
    record = holder[0]["record"]
    assert isinstance(record, dict)
    record["fairness"]["salt"] = "00" + record["fairness"]["salt"][2:]
    path.write_text(json.dumps(holder[0]))
    bad = subprocess.run(
        [sys.executable, "-m", "erren.cli.main", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1 and "commitment mismatch" in bad.stdout


def test_vs_computer(server: Server) -> None:
    async def main() -> None:
        from erren.bots import find_bot  # noqa: PLC0415

        from ._support.helpers import player  # noqa: PLC0415

        a = await player(server.url)
        made = await a.vs_computer("guobiao-2p", "efficiency")
        assert made["info"]["seats"][1]["bot"] == "efficiency"
        done = await a.play(made["table"], find_bot("efficiency", seed=1), hands=1, timeout=30)
        assert done == 1
        await a.close()

    run(main())


def test_http_surface(server: Server) -> None:
    with httpx.Client(base_url=server.url) as http:
        spec = http.get("/openapi.json").json()
        for path in (
            "/auth/register",
            "/auth/login",
            "/auth/guest",
            "/me/balance",
            "/me/ledger",
            "/rooms",
            "/match/quick",
            "/tables/private",
            "/tables/join",
            "/tables/vs-computer",
            "/games",
            "/games/{game_id}",
        ):
            assert path in spec["paths"], path
        assert "erren" in http.get("/").text
        rooms = http.get("/rooms").json()
        ids = {r["id"] for r in rooms}
        assert {"guobiao-2p/novice", "guobiao-2p/senior", "xiamen/normal"} <= ids
        normal = next(r for r in rooms if r["id"] == "guobiao-2p/normal")
        assert (normal["stake"], normal["entry_min"], normal["entry_max"]) == (200, 5000, 80000)
        assert http.get("/me").status_code == 401
        name = f"u{id(http) % 10**8}"
        made = http.post("/auth/register", json={"name": name, "password": "long-enough-1"})
        assert made.status_code == 201
        again = http.post("/auth/register", json={"name": name, "password": "long-enough-1"})
        assert again.status_code in (409, 422)
        bad = http.post("/auth/login", json={"name": name, "password": "wrong-password"})
        assert bad.status_code == 401
        token = http.post("/auth/login", json={"name": name, "password": "long-enough-1"}).json()[
            "token"
        ]
        auth = {"Authorization": f"Bearer {token}"}
        assert http.get("/me", headers=auth).json()["name"] == name
        assert http.get("/me/balance", headers=auth).json()["balance"] > 0
        senior = http.post(
            "/match/quick", json={"room": "guobiao-2p/senior", "wait_s": 0}, headers=auth
        )
        assert senior.status_code == 403 and "admits" in senior.json()["detail"]
        alone = http.post(
            "/match/quick", json={"room": "guobiao-2p/novice", "wait_s": 0.2}, headers=auth
        )
        assert alone.status_code == 408
        assert http.post("/tables/join", json={"invite": "NOPE99"}, headers=auth).status_code == 404
        running = http.get("/games/999999")
        assert running.status_code == 404


def _unused() -> None:  # keep asyncio imported for the helpers' type checks
    asyncio.get_event_loop_policy()
