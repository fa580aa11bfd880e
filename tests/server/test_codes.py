"""Every problem the server tells a player about has a stable ``code`` and ``params`` the
client words in Chinese and English (docs/protocol.md, "Codes"; issue #14, point 4).

The first tests read the source: every code literal the server can send is in the codes table
of docs/protocol.md, and every code of that table and every rule id of the engine has a row in
both languages in the client's i18n.js.  The others ask a real server and check the code and
params of each refusal, the numbers computed here from the rooms' limits (shared spec §6.4).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import httpx

from erren.bots import find_bot
from erren.server.table import Seat, make_bot_seat

from ._support.harness import Server, run
from ._support.helpers import player, registered, settlements, wait_for

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "erren" / "server"
ENGINE = ROOT / "src" / "erren" / "engine"
I18N = ROOT / "src" / "erren" / "web" / "js" / "i18n.js"
FAMILY_WORDS = sorted((ROOT / "src" / "erren" / "families").glob("*/web/family.js"))
"""The family modules of the browser client: the rows only one family uses (its refusals')."""
PROTOCOL = ROOT / "docs" / "protocol.md"
CODE = re.compile(r"[a-z]+(-[a-z]+)*")

# the position of the code among a call's arguments, by the callee's name
_CODE_ARG = {
    "ApiError": 1,
    "LobbyError": 2,
    "ProtocolError": 0,
    "error_json": 0,
    "_error": 1,
    "_close": 0,
    "_refuse": 1,
    "_throttled": 0,
    "NameTakenError": 0,
    "ReliefError": 0,
    "IllegalActionError": 0,
}


_CODE_ENUMS = {"CloseCode"}
"""Enums whose values are codes the server sends (a table's ``closed`` message)."""


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _codes_in(folder: Path) -> dict[str, str]:
    """Each code literal a call of :data:`_CODE_ARG` or a ``{"code": ...}`` dict holds in the
    modules under ``folder`` → where."""
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            values: list[ast.expr] = []
            if isinstance(node, ast.Call) and _name(node.func) in _CODE_ARG:
                at = _CODE_ARG[_name(node.func)]
                if len(node.args) > at:
                    values.append(node.args[at])
                values += [k.value for k in node.keywords if k.arg == "code"]
            elif isinstance(node, ast.ClassDef) and node.name in _CODE_ENUMS:
                values += [a.value for a in node.body if isinstance(a, ast.Assign)]
            elif isinstance(node, ast.Dict):
                values += [
                    v
                    for k, v in zip(node.keys, node.values, strict=True)
                    if isinstance(k, ast.Constant) and k.value == "code"
                ]
            for value in values:
                # "below-entry" if ... else "above-entry": both
                both = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
                for c in both:
                    if (
                        isinstance(c, ast.Constant)
                        and isinstance(c.value, str)
                        and CODE.fullmatch(c.value)
                    ):
                        found.setdefault(c.value, f"{path.name}:{c.lineno}")
    return found


def _documented() -> set[str]:
    """The codes of the codes table of docs/protocol.md (the backticked words of its first
    column)."""
    text = PROTOCOL.read_text(encoding="utf-8")
    table = text.split("## Codes", 1)[1].split("\n## ", 1)[0]
    codes: set[str] = set()
    for line in table.splitlines():
        if line.startswith("| ") and not line.startswith("| `code`"):
            first = line.split("|")[1]
            codes |= {c for c in re.findall(r"`([^`]+)`", first) if CODE.fullmatch(c)}
    return codes


def _rows() -> dict[str, tuple[str, str]]:
    """The i18n.js rows and the families' own (their modules' ``words``): key → (zh, en)."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in [I18N, *FAMILY_WORDS])
    rows: dict[str, tuple[str, str]] = {}
    for key, zh, en in re.findall(
        r'^\s+"?([\w-]+)"?: \[("(?:[^"\\]|\\.)*"), ("(?:[^"\\]|\\.)*")\],$', text, re.MULTILINE
    ):
        rows[key] = (json.loads(zh), json.loads(en))
    return rows


def test_every_code_the_server_sends_is_in_the_codes_table() -> None:
    sent = _codes_in(SERVER)
    missing = {code: where for code, where in sent.items() if code not in _documented()}
    assert not missing, f"codes the server sends but docs/protocol.md does not list: {missing}"
    # the table lists what the server sends: the HTTP and WebSocket codes above, at least
    assert {"auth", "below-entry", "no-room", "not-seated", "trustee-limit", "left"} <= set(sent)


def test_every_code_has_a_chinese_and_an_english_row() -> None:
    rows = _rows()
    closed = {"left", "escaped", "not-ready", "opponent-below-entry", "idle", "called-off"}
    for code in _documented() | set(_codes_in(SERVER)) | set(_codes_in(ENGINE)):
        key = f"closed_{code.replace('-', '_')}" if code in closed else f"err_{code}"
        assert key in rows, f"no i18n.js row {key!r} for the code {code!r}"
        zh, en = rows[key]
        assert zh and en and zh != en, key
        words = re.sub(r"\{\w+\}", "", zh)  # a {param} is filled in, not shown
        assert not re.search(r"[A-Za-z]{2,}", words), f"English in the Chinese row {key}: {zh}"


def test_a_chinese_row_fills_exactly_the_params_its_code_carries() -> None:
    """The rows worded with params name the params the table documents for their code."""
    rows = _rows()
    for key, names in {
        "err_throttled": {"retry_after"},
        "err_register-limit": {"retry_after"},
        "err_guest-limit": {"retry_after"},
        "err_connection-limit": {"retry_after"},
        "err_server-full": {"retry_after"},
        "err_below-entry": {"balance", "entry_min"},
        "err_above-entry": {"balance", "entry_max"},
        "err_trustee-limit": {"limit"},
        "err_http-error": {"status"},
    }.items():
        for text in rows[key]:
            assert set(re.findall(r"\{(\w+)\}", text)) == names, (key, text)


# ---------------------------------------------------------------------------- a real server
def test_http_refusals_carry_their_code_and_params(server: Server) -> None:
    async def main() -> None:
        name = f"codes{id(server) % 100000}"
        client = await registered(server.url, name)
        balance = await client.balance()
        auth = {"Authorization": f"Bearer {client.token}"}
        async with httpx.AsyncClient(base_url=server.url) as http:

            async def ask(method: str, path: str, body: Any = None) -> tuple[int, Any]:
                reply = await http.request(method, path, json=body, headers=auth)
                return reply.status_code, reply.json()

            reply = await http.get("/me")  # no token
            assert (reply.status_code, reply.json()["code"], reply.json()["params"]) == (
                401,
                "auth",
                {},
            )
            # 高级场 admits 200,000 beans and more (rooms.py, the shared contract's tiers)
            status, body = await ask("POST", "/match/quick", {"room": "guobiao-2p/senior"})
            assert (status, body["code"]) == (403, "below-entry")
            assert body["params"] == {
                "room": "guobiao-2p/senior",
                "balance": balance,
                "entry_min": 200_000,
                "entry_max": 2_000_000_000,
            }
            status, body = await ask("POST", "/match/quick", {"room": "guobiao-2p/nowhere"})
            assert (status, body["code"], body["params"]) == (
                404,
                "no-room",
                {"room": "guobiao-2p/nowhere"},
            )
            status, body = await ask("POST", "/tables/vs-computer", {"level": "grandmaster"})
            assert (status, body["code"], body["params"]) == (
                404,
                "no-level",
                {"level": "grandmaster"},
            )
            status, body = await ask("POST", "/tables/vs-computer", {"family": "mahjong-9p"})
            assert (status, body["code"], body["params"]) == (
                404,
                "no-family",
                {"family": "mahjong-9p"},
            )
            status, body = await ask("POST", "/tables/join", {"invite": "ZZZZZZ"})
            assert (status, body["code"], body["params"]) == (404, "no-invite", {})
            status, body = await ask("POST", "/tables/vs-computer", {"level": 5})
            assert (status, body["code"], body["params"]) == (
                422,
                "invalid",
                {"field": "level", "count": 1},
            )
            status, body = await ask("GET", "/no/such/page")
            assert (status, body["code"], body["params"]) == (404, "not-found", {"status": 404})
            status, body = await ask("POST", "/campaign/hand", {"multiplier": 1})
            assert (status, body["code"], body["params"]) == (404, "no-campaign", {})
            status, body = await ask("POST", "/campaign/start")
            assert status == 201
            status, body = await ask("POST", "/campaign/start")
            assert (status, body["code"], body["params"]) == (409, "campaign-unfinished", {})
            status, body = await ask("POST", "/campaign/abandon")
            assert status == 200
        await client.close()

    run(main())


def test_websocket_refusals_carry_their_code_and_params(server: Server) -> None:
    async def main() -> None:
        a = await player(server.url)
        made = await a.vs_computer("guobiao-2p", level="normal")
        await a.connect()

        async def refusal(message: dict[str, Any]) -> dict[str, Any]:
            await a.send(message)
            return await wait_for(a, lambda m: m.get("type") == "error")

        got = await refusal({"type": "join", "table": "t-nowhere"})
        assert (got["code"], got["params"]) == ("not-seated", {"table": "t-nowhere"})
        got = await refusal({"type": "dance"})
        assert (got["code"], got["params"]) == ("unknown-type", {"type": "dance"})
        got = await refusal({"type": "join"})
        assert (got["code"], got["params"]) == ("bad-message", {"field": "table"})
        await a.join(made["table"])
        await wait_for(a, lambda m: a.state is not None)
        # 9p is no tile of guobiao-2p's one suit (characters) and honours: never held
        got = await refusal({"type": "act", "action": "discard:9p"})
        assert got["params"] == {"action": "discard:9p", "rule": got["code"]}
        assert got["code"] in {"out-of-turn", "tile-not-held", "claim-or-pass"}
        await a.close()

    run(main())


def test_a_seat_chosen_by_its_bots_name_shows_that_bots_level() -> None:
    """The level table of erren.bots.levels: efficiency plays 普通, novice 入门, expert 大师."""
    assert make_bot_seat("x", "efficiency", 1).shown_level == "normal"
    assert make_bot_seat("x", "novice", 1).shown_level == "novice"
    assert make_bot_seat("x", "expert", 1).shown_level == "master"
    assert make_bot_seat("x", "random", 1).shown_level is None
    assert Seat(7, "alice").shown_level is None


def test_the_game_list_and_the_replay_say_how_a_hand_ended_as_data(server: Server) -> None:
    """``GET /games`` gives the player's seat and the hand's outcome (the settlement's figures),
    the replay each seat's computer level: nothing for the client to read out of prose."""

    async def main() -> None:
        a = await player(server.url, keep=True)
        made = await a.vs_computer("guobiao-2p", level="novice")
        await a.play(made["table"], find_bot("efficiency", seed=3), hands=1, timeout=60)
        (end,) = settlements(a.messages)
        result = end["result"]
        games = (await a.http.get("/games")).json()
        (game,) = [g for g in games if g["id"] == end["game"]]
        assert game["seat"] == 0
        assert game["outcome"] == {
            "hand": 1,
            "kind": result["kind"],
            "winner": result["winner"],
            "loser": result["loser"],
            "how": result["how"],
            "points": result["points"],
            "deltas": result["deltas"],
            "beans": [0, 0],  # a table against the computer plays for points only
        }
        assert sum(game["outcome"]["deltas"]) == 0  # what one seat wins the other pays
        frames = (await a.http.post("/web/replay", json=end["record"])).json()
        assert frames["levels"] == [None, "novice"]
        assert end["record"]["levels"] == [None, "novice"]
        await a.close()

    run(main())
