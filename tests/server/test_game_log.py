"""GET /games/{id}/log: a finished game's log to download, as mjai or as the erren record."""

from __future__ import annotations

import json
from typing import Any

from erren.bots import find_bot
from erren.engine import Record, replay
from erren.mjai.imports import import_mjai

from ._support.harness import Server, run
from ._support.helpers import player, wait_for


def test_finished_game_log_in_both_formats(server: Server) -> None:
    async def main() -> None:
        a = await player(server.url)
        made = await a.vs_computer("xiamen", "efficiency")
        table = made["table"]
        await a.connect()
        await a.join(table)
        started = await wait_for(a, lambda m: m.get("game") is not None)
        game = started["game"]
        running = await a.http.get(f"/games/{game}/log")
        assert running.status_code == 409
        assert running.json()["code"] == "game-running"
        assert await a.play(table, find_bot("efficiency", seed=2), hands=1, timeout=30) == 1
        stored: dict[str, Any] = (await a.http.get(f"/games/{game}")).json()["record"]

        full = await a.http.get(f"/games/{game}/log", params={"format": "mjai"})
        assert full.status_code == 200
        assert full.headers["content-type"].startswith("application/x-ndjson")
        assert full.headers["content-disposition"] == (
            f'attachment; filename="erren-game-{game}.mjai.jsonl"'
        )
        messages = [json.loads(line) for line in full.text.splitlines()]
        assert messages[0]["type"] == "start_game" and "id" not in messages[0]
        assert messages[0]["names"] == stored["seats"]
        (back,) = list(import_mjai(enumerate(messages, 1)))
        assert replay(back).fingerprint() == replay(Record.from_dict(stored)).fingerprint()

        mine = await a.http.get(f"/games/{game}/log", params={"format": "mjai", "seat": a.seat})
        assert mine.headers["content-disposition"].endswith(f'-seat{a.seat}.mjai.jsonl"')
        seen = [json.loads(line) for line in mine.text.splitlines()]
        start = next(m for m in seen if m["type"] == "start_kyoku")
        assert start["tehais"][1 - a.seat] == ["?"] * 13
        assert not any(m["type"] == "erren:shuffle" for m in seen)

        erren = await a.http.get(f"/games/{game}/log", params={"format": "erren"})
        assert erren.headers["content-disposition"] == (
            f'attachment; filename="erren-game-{game}.json"'
        )
        assert json.loads(erren.text) == stored
        bad = await a.http.get(f"/games/{game}/log", params={"format": "erren", "seat": 0})
        assert (bad.status_code, bad.json()["code"]) == (422, "bad-seat")
        assert (await a.http.get(f"/games/{game}/log", params={"format": "pgn"})).status_code == 422
        missing = await a.http.get("/games/99999999/log")
        assert missing.status_code == 404
        assert missing.json() == {"detail": "no game 99999999", "code": "no-game", "params": {}}
        await a.close()

    run(main())
