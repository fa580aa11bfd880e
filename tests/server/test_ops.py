"""What an operator sees of a node (issue #16, "Operable"; docs/deploy.md): ``/health`` and
``/ready`` name the node, ``/ready`` turns 503 with a code when the database stops answering or
the server shuts down, ``/metrics`` is Prometheus text whose counters move by exactly what a
game did (counted here from the game's record), and ``--log-format json`` writes one JSON object
a line carrying the node, and the table and game where known, with no token in any line."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from erren.bots import find_bot
from erren.engine import ActionKind, Record, family_names, replay
from erren.server.app import create_app
from erren.server.metrics import LATENCY_BUCKETS
from erren.server.store import Store
from erren.server.store.passwords import Passwords

from ._support.harness import PG_ADMIN, Server, database, run, serving
from ._support.helpers import registered

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]

# a server on which nothing times out (real-time turns of 20 s, computer moves at once) and no
# pass waits for 鸣牌保护: every move of the player is his own, read off his socket
CALM = ("--time-scale", "1", "--bot-delay", "0", "--claim-pause", "0")


@pytest.fixture(scope="module")
def ops(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(f"ops-{backend}")
    with database(backend, tmp) as url:
        srv = Server(
            url,
            tmp / "server.log",
            *CALM,
            *("--node-id", f"ops-{backend}", "--log-format", "json", "--log-level", "info"),
        )
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


def _scrape(url: str) -> Samples:
    reply = httpx.get(url + "/metrics", timeout=10)
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"].startswith("text/plain")
    out: Samples = {}
    for family in text_string_to_metric_families(reply.text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def _value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, tuple(sorted(labels.items())))]


def _json_lines(server: Server) -> list[dict[str, Any]]:
    lines = [x for x in server.flushed_log().splitlines() if x.strip()]
    return [json.loads(x) for x in lines]  # every line is a JSON object


@pytest.mark.services
def test_health_and_ready_name_the_node(ops: Server, backend: str) -> None:
    health = httpx.get(ops.url + "/health").json()
    assert health["node"] == f"ops-{backend}"
    assert health["ok"] is True
    assert {"tables", "commits", "actions", "lag_ms"} <= set(health)
    ready = httpx.get(ops.url + "/ready")
    assert ready.status_code == 200
    assert ready.json() == {"ready": True, "node": f"ops-{backend}"}


async def _play_a_hand(url: str, node: str, family: str) -> dict[str, Any]:
    """A registered player's hand against the computer (seat 1), played to its settlement by a
    random bot; checks the live gauges while he sits there; returns the table, the finished
    game's record and the player's token."""
    client = await registered(url, f"ops{node[4:6]}{int(time.time()) % 100000}")
    made = await client.vs_computer(family)
    table = made["table"]
    await client.connect()
    await client.join(table)
    # while seated and connected: one open table, one socket
    for _ in range(50):
        live = _scrape(url)
        if _value(live, "erren_connections", node=node) == 1:
            break
        await asyncio.sleep(0.05)
    assert _value(live, "erren_connections", node=node) == 1
    assert _value(live, "erren_tables", node=node, family=family) == 1
    await client.play(table, find_bot("random", seed=5), hands=1, timeout=60)
    games = (await client.http.get("/games")).json()
    await client.close()
    game = await client_game(url, games[0]["id"])
    return {"table": table, "record": game["record"], "token": client.token}


@pytest.mark.services
def test_metrics_count_exactly_what_a_game_did(ops: Server, backend: str) -> None:
    node = f"ops-{backend}"
    family = "guobiao-2p"
    before = _scrape(ops.url)
    # every family is there from the start, the cluster's counters at 0 on a single node
    for name in family_names():
        assert ("erren_tables", (("family", name), ("node", node))) in before
    assert _value(before, "erren_redis_errors_total", node=node) == 0
    assert _value(before, "erren_lease_renewals_total", node=node) == 0
    assert _value(before, "erren_database_errors_total", node=node) == 0

    played = run_value(_play_a_hand(ops.url, node, family))
    record = played["record"]
    after = _scrape(ops.url)
    actions = record["actions"]
    sent = _sent_by_the_player(record, seat=0)  # the player sits in seat 0
    assert 0 < len(sent) <= len([a for a in actions if a.startswith("0:")])
    assert not [a for a in actions if ":timeout" in a or ":trustee" in a]  # nothing timed out

    def moved(name: str, **labels: str) -> float:
        key = (name, tuple(sorted({"node": node, **labels}.items())))
        return after[key] - before.get(key, 0.0)

    assert moved("erren_actions_total", family=family) == len(actions)
    assert moved("erren_hands_settled_total", family=family) == 1
    # one latency per move the player sent and the table applied; the buckets are cumulative
    count = moved("erren_action_latency_seconds_count", family=family)
    assert count == len(sent)
    assert moved("erren_action_latency_seconds_sum", family=family) > 0
    buckets = [
        moved("erren_action_latency_seconds_bucket", family=family, le=str(b))
        for b in LATENCY_BUCKETS
    ]
    assert buckets == sorted(buckets)
    assert moved("erren_action_latency_seconds_bucket", family=family, le="+Inf") == count
    assert _value(after, "erren_database_errors_total", node=node) == 0
    # the player left: the table closed, the socket is gone
    assert _value(after, "erren_connections", node=node) == 0
    assert _value(after, "erren_tables", node=node, family=family) == 0
    _check_the_lines(ops, node, played)


def _check_the_lines(server: Server, node: str, played: dict[str, Any]) -> None:
    """The log: JSON lines, each naming the node; the table's lines name it and the game;
    neither the player's token nor the hand's secret (seed, salt) in any line."""
    record = played["record"]
    lines = _json_lines(server)
    assert all(line["node"] == node for line in lines)
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    opened = [x for x in lines if x["message"].startswith("table opened")]
    assert any(x["table"] == played["table"] for x in opened)
    settled = [x for x in lines if x["message"] == f"hand 1 settled: {record['outcome']['kind']}"]
    assert any(x["table"] == played["table"] and x["game"] == record["game"] for x in settled)
    text = server.log.read_text(errors="replace")
    assert played["token"] not in text
    assert str(record["seed"]) not in text and record["fairness"]["salt"] not in text


def _sent_by_the_player(record: dict[str, Any], seat: int) -> list[str]:
    """The record's actions of ``seat`` that the player sent: all but the passes of a claim
    window in which passing was his only move (鸣牌保护 opens such a window anyway, and the
    table passes for him when its pause is over)."""
    rec = Record.from_dict(record)
    sent: list[str] = []
    for i, text in enumerate(rec.actions):
        if not text.startswith(f"{seat}:"):
            continue
        state = replay(dataclasses.replace(rec, actions=rec.actions[:i]))
        legal = state.legal_actions(seat)
        forced = state.in_window and len(legal) == 1 and legal[0].kind is ActionKind.PASS
        if not forced:
            sent.append(text)
    return sent


async def client_game(url: str, game: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url) as http:
        reply = await http.get(f"/games/{game}")
        assert reply.status_code == 200, reply.text
        return dict(reply.json())


def run_value(coro: Any) -> Any:
    box: list[Any] = []

    async def keep() -> None:
        box.append(await coro)

    run(keep())
    return box[0]


@pytest.mark.services
def test_a_token_in_the_url_is_redacted_in_json_lines(ops: Server) -> None:
    from websockets.asyncio.client import connect  # noqa: PLC0415

    from erren.server.client import ws_url  # noqa: PLC0415

    token = httpx.post(ops.url + "/auth/guest").json()["token"]

    async def main() -> None:
        async with connect(f"{ws_url(ops.url)}/ws?token={token}", open_timeout=10) as ws:
            assert json.loads(await ws.recv())["type"] == "welcome"

    run(main())
    lines = _json_lines(ops)
    assert any("/ws?token=[redacted]" in x["message"] for x in lines)
    assert token not in ops.log.read_text(errors="replace")


@pytest.mark.services
@pytest.mark.parametrize("level", ["debug", "trace"])
def test_no_token_or_password_reaches_the_log_at_any_level(level: str, tmp_path: Path) -> None:
    """Register, log in, a guest, a socket authenticated by message and by URL, an
    authenticated request and a logout, at the most talkative levels: none of the tokens or
    the password is in the log, and the frames are logged by kind and size only."""
    from websockets.asyncio.client import connect  # noqa: PLC0415

    from erren.server.client import ws_url  # noqa: PLC0415

    password = "pw-\"quoted' Secret-7"  # quotes of both kinds: the JSON escape is redacted too
    secrets = [password]

    async def main(url: str) -> None:
        async with httpx.AsyncClient(base_url=url) as http:
            made = await http.post("/auth/register", json={"name": "quiet", "password": password})
            login = await http.post("/auth/login", json={"name": "quiet", "password": password})
            guest = await http.post("/auth/guest")
            tokens = [made.json()["token"], login.json()["token"], guest.json()["token"]]
            secrets.extend(tokens)
            async with connect(f"{ws_url(url)}/ws", open_timeout=10) as ws:
                await ws.send(json.dumps({"type": "auth", "token": tokens[1]}))
                assert json.loads(await ws.recv())["type"] == "welcome"
            async with connect(f"{ws_url(url)}/ws?token={tokens[2]}", open_timeout=10) as ws:
                assert json.loads(await ws.recv())["type"] == "welcome"
            bearer = {"Authorization": f"Bearer {tokens[0]}"}
            assert (await http.get("/me", headers=bearer)).status_code == 200
            assert (await http.post("/auth/logout", headers=bearer)).status_code == 204

    with serving("sqlite", tmp_path, "--log-level", level) as server:
        run(main(server.url))
        text = server.flushed_log()
    assert len(secrets) == 4
    assert "bytes, not logged]" in text  # the frames were logged, without their content
    for secret in secrets:
        for shown in (secret, json.dumps(secret)[1:-1]):
            assert shown not in text, f"{shown[:6]}… is in the {level} log"


# ---------------------------------------------------------------------------- the database fails
def _pg(sql: str) -> None:
    import psycopg  # noqa: PLC0415

    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql)


def _ready(url: str) -> httpx.Response:
    return httpx.get(url + "/ready", timeout=10)


def _errors(url: str, node: str) -> float:
    return _value(_scrape(url), "erren_database_errors_total", node=node)


@pytest.mark.services
@pytest.mark.backends("sqlite", "postgresql")
def test_ready_is_503_while_the_database_is_unreachable(backend: str, tmp_path: Path) -> None:
    """``/ready`` answers 503 ``store-unavailable`` (and ``/health`` 200) while the database
    file is moved away or PostgreSQL refuses connections, and 200 once it is back.

    Slow on a loaded machine (up to about 11 s): a server of its own, started and stopped, and
    the pool's failed connections to the missing database."""
    node = f"db-{backend}"
    with database(backend, tmp_path) as url:
        server = Server(url, tmp_path / "server.log", "--node-id", node)
        server.start()
        try:
            assert _ready(server.url).status_code == 200
            assert _errors(server.url, node) == 0
            if backend == "sqlite":
                path = Path(url.split(":///", 1)[1])
                away = path.with_name(path.name + ".away")
                path.rename(away)

                def heal() -> None:
                    away.rename(path)

            else:
                name = url.rsplit("/", 1)[1]
                # nobody may connect, and the server's connections are cut
                _pg(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
                _pg(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    f"WHERE datname = '{name}' AND pid <> pg_backend_pid()"
                )

                def heal() -> None:
                    _pg(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')

            try:
                down = _ready(server.url)
                assert down.status_code == 503
                body = down.json()
                assert body["ready"] is False and body["node"] == node
                assert body["code"] == "store-unavailable" and body["detail"]
                assert down.headers["retry-after"] == "5"
                assert httpx.get(server.url + "/health").status_code == 200  # alive
                assert _errors(server.url, node) >= 1
            finally:
                heal()
            assert _ready(server.url).status_code == 200
        finally:
            server.stop()


@pytest.mark.services
def test_ready_is_503_read_only_postgresql(tmp_path: Path) -> None:
    """A PostgreSQL that answers but takes no write is not ready either."""
    with database("postgresql", tmp_path) as url:
        server = Server(url, tmp_path / "server.log")
        server.start()
        name = url.rsplit("/", 1)[1]
        try:
            _pg(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
            _pg(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE datname = '{name}' AND pid <> pg_backend_pid()"
            )
            down = _ready(server.url)
            assert down.status_code == 503, down.text
            assert down.json()["code"] == "store-unavailable"
            assert "read-only" in down.json()["detail"]
        finally:
            _pg(f'ALTER DATABASE "{name}" SET default_transaction_read_only = off')
            _pg(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE datname = '{name}' AND pid <> pg_backend_pid()"
            )
        try:
            assert _ready(server.url).status_code == 200
        finally:
            server.stop()


# ---------------------------------------------------------------------------- in process
def test_ready_says_shutting_down_once_the_app_stops(tmp_path: Path) -> None:
    async def main() -> None:
        store = await Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}", passwords=Passwords.fast())
        app = create_app(store, node="solo", metrics=False)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://node") as http:
            async with app.router.lifespan_context(app):
                assert (await http.get("/ready")).json() == {"ready": True, "node": "solo"}
                assert (await http.get("/metrics")).status_code == 404  # --no-metrics
            reply = await http.get("/ready")
            assert reply.status_code == 503
            assert reply.json()["code"] == "shutting-down" and reply.json()["node"] == "solo"
        await store.close()

    run(main())


@pytest.mark.services
def test_text_lines_name_the_node(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url:
        server = Server(url, tmp_path / "server.log", "--node-id", "web-7", "--log-level", "info")
        server.start()
        try:
            assert httpx.get(server.url + "/health").json()["node"] == "web-7"
        finally:
            server.stop()
    text = server.log.read_text(errors="replace")
    access = [x for x in text.splitlines() if '"GET /health HTTP/1.1" 200' in x]
    assert access and all(" uvicorn.access node=web-7: " in x for x in access)


def test_a_bad_node_id_is_refused_with_one_line(tmp_path: Path) -> None:
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    done = subprocess.run(
        [sys.executable, "-m", "erren.cli.main", "serve", "--node-id", "web 1/a"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--node-id 'web 1/a'" in done.stderr
