"""Robust edges of the HTTP API, against a real ``erren serve`` on SQLite and PostgreSQL: huge
bodies (413 before they are read), NaN and numbers past 64 bits (422), ids past 64 bits (404),
illegal moves posted to the replay viewer (422 with the engine's reason), names whose normalised
key is too long for the database column (422).  Never a 500."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import httpx
import pytest

from erren.bots import find_bot
from erren.engine import Record, State, find_family
from erren.errors import IllegalActionError
from erren.sim.simulator import play_hand

from ._support.harness import Server

MAX_BODY = 64 * 1024

HTTP_TIMEOUT_S = 30
"""A reply may take this long on a loaded machine (httpx's default 5 s failed a replay's
422 under load); a bounded wait, not a measure of speed."""


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _raw(server: Server, head: bytes, body: bytes = b"") -> tuple[int, bytes]:
    """Send a request by hand (so the body can lie about its length) and read the answer."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(head + body)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = conn.recv(65536)
            if not chunk:
                break
            answer += chunk
        head_end = answer.index(b"\r\n\r\n")
        headers = answer[:head_end].decode("latin-1").split("\r\n")
        length = next(
            (int(h.split(":", 1)[1]) for h in headers if h.lower().startswith("content-length")),
            0,
        )
        rest = answer[head_end + 4 :]
        while len(rest) < length:
            chunk = conn.recv(65536)
            if not chunk:
                break
            rest += chunk
        return int(headers[0].split()[1]), rest


def test_a_body_declared_too_large_is_refused_before_it_is_sent(server: Server) -> None:
    assert server.proc is not None
    before = _rss_kib(server.proc.pid)
    for _ in range(2):  # two 200 MiB logins, as in the report; no byte of the body is sent
        status, body = _raw(
            server,
            b"POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 209715200\r\n\r\n",
        )
        assert status == 413
        assert httpx.Response(413, content=body).json() == {
            "detail": "the request body is larger than 65,536 bytes",
            "code": "too-large",
            "params": {"limit": 65536},
        }
    assert _rss_kib(server.proc.pid) - before < 20_000  # KiB: nothing was buffered


def test_a_streamed_body_is_cut_at_the_limit(server: Server) -> None:
    chunk = b"a" * 32 * 1024
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(3))  # 96 KiB
    status, body = _raw(
        server,
        b"POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n",
        chunks,
    )
    assert status == 413
    assert httpx.Response(413, content=body).json()["code"] == "too-large"


def test_a_body_just_under_the_limit_is_read(server: Server) -> None:
    name = "x" * (MAX_BODY - 100)
    with httpx.Client(base_url=server.url, timeout=HTTP_TIMEOUT_S) as http:
        reply = http.post("/auth/login", json={"name": name, "password": "password-1"})
    assert reply.status_code == 422  # read, then refused for the name's length (a field rule)
    assert any(e["loc"] == ["body", "name"] for e in reply.json()["detail"])


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"name": NaN, "password": "password-1"}', "NaN is not a number in JSON"),
        ('{"name": "alice", "password": Infinity}', "Infinity is not a number in JSON"),
        ('{"name": -Infinity, "password": "x"}', "-Infinity is not a number in JSON"),
        ('{"name": 1e999, "password": "x"}', "the number 1e999 is too large"),
        ('{"name": 99999999999999999999999, "password": "x"}', "does not fit in 64 bits"),
        ('{"name": 18446744073709551616, "password": "x"}', "does not fit in 64 bits"),
        ('{"name": "alice", "password": ', "the body is not valid JSON: Expecting value"),
        ("[" * 5000 + "]" * 5000, "nested too deep"),
    ],
)
def test_json_beyond_the_standard_is_refused_naming_the_problem(
    server: Server, text: str, says: str
) -> None:
    with httpx.Client(base_url=server.url, timeout=HTTP_TIMEOUT_S) as http:
        reply = http.post("/auth/login", content=text, headers={"Content-Type": "application/json"})
    assert reply.status_code == 422, reply.text
    assert reply.json()["code"] == "bad-json"
    assert says in reply.json()["detail"]


@pytest.mark.parametrize(
    ("route", "text"),
    [
        ("/auth/register", '{"name": "ab\\ud800", "password": "password-1"}'),
        ("/auth/login", '{"name": "alice", "password": "\\udfff\\udfff\\udfff\\udfff"}'),
        ("/auth/register", '{"\\ud800": 1}'),
        ("/web/replay", '{"record": {"deal": ["\\udc00"]}}'),
    ],
)
def test_a_lone_surrogate_in_a_body_is_422_naming_it(server: Server, route: str, text: str) -> None:
    """Not a 500: the validation error that echoed the string could not be encoded."""
    with httpx.Client(base_url=server.url, timeout=HTTP_TIMEOUT_S) as http:
        reply = http.post(route, content=text, headers={"Content-Type": "application/json"})
    assert reply.status_code == 422, reply.text
    assert reply.json()["code"] == "bad-unicode"
    assert reply.json()["params"]["codepoint"] in ("U+D800", "U+DFFF", "U+DC00")
    assert "surrogate" in reply.json()["detail"]


def _guest(http: httpx.Client) -> dict[str, str]:
    token = http.post("/auth/guest").json()["token"]
    return {"Authorization": f"Bearer {token}"}


def test_nan_in_table_options_never_reaches_the_database(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=HTTP_TIMEOUT_S) as http:
        auth = _guest(http)
        for path in ("/tables/private", "/tables/vs-computer"):
            reply = http.post(
                path,
                content='{"family": "guobiao-2p", "options": {"stake": NaN}}',
                headers={**auth, "Content-Type": "application/json"},
            )
            assert reply.status_code == 422, reply.text
            assert "NaN" in reply.json()["detail"]


@pytest.mark.parametrize(
    "game_id",
    ["99999999999999999999999", str(2**63), str(2**63 - 1), str(2**31), "9999999999", "0", "-1"],
)
def test_an_id_no_game_can_have_is_404(server: Server, game_id: str) -> None:
    with httpx.Client(base_url=server.url, timeout=HTTP_TIMEOUT_S) as http:
        reply = http.get(f"/games/{game_id}")
    assert reply.status_code == 404, reply.text
    assert reply.json() == {"detail": f"no game {int(game_id)}", "code": "no-game", "params": {}}


def test_an_id_that_is_not_a_number_is_422(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=HTTP_TIMEOUT_S) as http:
        assert http.get("/games/1e5").status_code == 422
        assert http.get("/games/" + "9" * 5000).status_code in (404, 414, 422)


def test_huge_numbers_in_fields_are_refused_not_crashed_on(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=HTTP_TIMEOUT_S) as http:
        auth = _guest(http)
        limit = http.get("/me/ledger", params={"limit": "99999999999999999999"}, headers=auth)
        assert limit.status_code == 422
        assert http.get("/games", params={"limit": str(2**64)}, headers=auth).status_code == 422
        stake = http.post("/campaign/hand", json={"multiplier": 2**62}, headers=auth)
        assert 400 <= stake.status_code < 500, stake.text
        wait = http.post(
            "/match/quick", json={"room": "guobiao-2p/novice", "wait_s": 1e308}, headers=auth
        )
        assert wait.status_code in (403, 422), wait.text


def _record() -> dict[str, Any]:
    state = State.new(find_family("guobiao-2p"), seed=5)
    play_hand(state, [find_bot("random", seed=1), find_bot("random", seed=2)])
    return Record.of(state).to_dict()


def _engine_reason(record: dict[str, Any]) -> IllegalActionError:
    from erren.engine import Action  # noqa: PLC0415

    rec = Record.from_dict(record)
    state = State(find_family(rec.ruleset, rec.options), dealer=rec.dealer)
    try:
        for text in rec.actions:
            state.apply(Action.parse(text))
    except IllegalActionError as err:
        return err
    raise AssertionError("the record replays")


def test_an_illegal_move_in_a_replay_is_422_with_the_engines_reason(server: Server) -> None:
    record = _record()
    with httpx.Client(base_url=server.url, timeout=HTTP_TIMEOUT_S) as http:
        assert http.post("/web/replay", json=record).status_code == 200
        first = next(i for i, a in enumerate(record["actions"]) if a.startswith("0:discard:"))
        for bad in (
            "1" + record["actions"][first][1:],  # the other seat, out of turn
            "0:discard:9p" if "9p" not in record["actions"][0] else "0:discard:1s",
            "0:hu",
        ):
            tampered = {**record, "actions": [*record["actions"][:first], bad]}
            reason = _engine_reason(tampered)
            reply = http.post("/web/replay", json=tampered)
            assert reply.status_code == 422, reply.text
            body = reply.json()
            assert body["detail"] == f"not a replayable record: {reason}"
            assert (body["code"], body["params"]) == ("not-replayable", {"rule": reason.rule})
        for junk in ({}, {"format": "erren-hand", "actions": 5}, {"ruleset": "nope"}):
            reply = http.post("/web/replay", json=junk)
            assert reply.status_code == 422, reply.text


# ﷲ (U+FDF2) is one character whose NFKC form has four: 21 of them make an 84-character key
LONG_KEY = "\ufdf2" * 21


def test_a_name_whose_key_is_too_long_for_the_column_is_422(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=HTTP_TIMEOUT_S) as http:
        made = http.post("/auth/register", json={"name": LONG_KEY, "password": "password-1"})
        assert made.status_code == 422, made.text
        assert made.json()["detail"] == "bad name: a name has 2–16 characters, this one has 84"
        login = http.post("/auth/login", json={"name": LONG_KEY, "password": "password-1"})
        assert login.status_code == 422, login.text
        assert login.json()["detail"] == (
            "bad name: its normalised form has 84 characters, at most 80 are possible"
        )
        fits = http.post("/auth/login", json={"name": "\ufdf2" * 20, "password": "password-1"})
        assert fits.status_code == 401  # 80 characters: a lookup, no such account


def test_the_server_is_still_well(server: Server) -> None:
    """(A traceback is logged before the answer to its request goes out; the shared server's
    whole log is checked again when the run ends.)"""
    with httpx.Client(base_url=server.url, timeout=HTTP_TIMEOUT_S) as http:
        assert http.get("/health").json()["ok"] is True
    assert "Traceback" not in server.log.read_text(errors="replace")
