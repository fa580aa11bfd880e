"""何切る drills over HTTP (``erren.server.routes.drills``): a puzzle without its answer, the
answer to a right and a wrong tile with the loss and the words computed here from the shipped
corpus file and the hint button's wording; refusals; the per-address bound."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import pytest

from erren.server.app import create_app
from erren.server.routes import drills
from erren.server.store import Passwords, Store

# the hint button's words (web/js/i18n.js hn_r_*), as reasonText (web/js/hints.js) fills them
WORDS = {
    "ready": ("听{kinds}种，还剩{left}张", "ready on {kinds} kinds, {left} left"),
    "keeps": (
        "留下{left}张有用的牌（{kinds}种，{shanten}向听）",
        "keeps {left} tiles that help ({kinds} kinds, {shanten} from ready)",
    ),
    "other": ("高手的选择", "the expert's choice"),
}
UNITS = {
    "guobiao-2p": ("番", "fan", "fan"),
    "xiamen": ("分", "point", "points"),
    "arcade": ("分", "point", "points"),
}
"""Each family's unit: Chinese, English for one, English for any other count."""


def _corpus() -> list[dict[str, Any]]:
    text = resources.files("erren.review").joinpath("drills.json").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()[1:]]


def _words(code: str, params: dict[str, int]) -> tuple[str, str]:
    zh, en = WORDS[code]
    return zh.format(**params), en.format(**params)


@asynccontextmanager
async def _app(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    store = await Store.open(f"sqlite:///{tmp_path / 'erren.sqlite3'}", passwords=Passwords.fast())
    app = create_app(store, metrics=False)
    try:
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as http,
        ):
            yield http
    finally:
        await store.close()


@pytest.fixture(autouse=True)
def fresh_desk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test its own throttle (the app's desk is module-wide)."""
    monkeypatch.setattr(drills, "desk", drills.DrillDesk())


async def _a_puzzle_is_shown_without_its_answer(tmp_path: Path) -> None:
    rows = _corpus()
    by_family: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_family.setdefault(r["family"], []).append(r)
    async with _app(tmp_path) as http:
        for family, mine in by_family.items():
            reply = await http.get("/drills/next", params={"family": family})
            assert reply.status_code == 200, reply.text
            got = reply.json()
            assert set(got) == {"id", "family", "observation", "tiles"}
            row = next(r for r in mine if r["id"] == got["id"])
            assert got["observation"] == row["observation"]
            assert got["tiles"] == sorted(c[0] for c in row["choices"])
            assert "answer" not in reply.text and "choices" not in reply.text
            # after the last puzzle of the family comes its first
            reply = await http.get(
                "/drills/next", params={"family": family, "after": mine[-1]["id"]}
            )
            assert reply.json()["id"] == mine[0]["id"]
            reply = await http.get(
                "/drills/next", params={"family": family, "after": mine[0]["id"]}
            )
            assert reply.json()["id"] == mine[1]["id"]


async def _a_right_and_a_wrong_answer(tmp_path: Path) -> None:
    rows = _corpus()
    async with _app(tmp_path) as http:
        for row in (rows[0], rows[-1]):
            ev = {c[0]: c[1] for c in row["choices"]}
            codes = {c[0]: (c[2], c[3]) for c in row["choices"]}
            best = row["answer"]
            for tile in (best, row["foil"]):
                reply = await http.post(f"/drills/{row['id']}/answer", json={"tile": tile})
                assert reply.status_code == 200, reply.text
                got = reply.json()
                assert got["answer"] == best and got["tile"] == tile
                assert got["correct"] is (tile == best)
                assert got["loss"] == max(0.0, ev[best] - ev[tile])
                if tile != best:
                    assert got["loss"] > 0
                assert got["choices"] == [
                    {"tile": c[0], "ev": c[1], "loss": max(0.0, ev[best] - c[1])}
                    for c in row["choices"]
                ]
                for key, which in (("answer", best), ("tile", tile)):
                    code, params = codes[which]
                    zh, en = _words(code, params)
                    assert got["reasons"][key] == {
                        "code": code,
                        "params": params,
                        "zh": zh,
                        "en": en,
                    }
                zh_unit, en_unit, en_many = UNITS[row["family"]]
                assert got["unit"] == {"zh": zh_unit, "en": en_unit, "en_many": en_many}
                assert got["foil"] == {"tile": row["foil"], "by": row["by"]}
                assert got["worlds"] == row["worlds"]


async def _refusals(tmp_path: Path) -> None:
    row = _corpus()[0]
    outside = next(t for t in ("1m", "9p", "5s", "7z") if t not in row["observation"]["hand"])
    async with _app(tmp_path) as http:
        reply = await http.get("/drills/next", params={"family": "nope"})
        assert (reply.status_code, reply.json()["code"]) == (404, "no-family")
        reply = await http.post("/drills/nope.1/answer", json={"tile": "1m"})
        assert (reply.status_code, reply.json()["code"]) == (404, "no-drill")
        reply = await http.post(f"/drills/{row['id']}/answer", json={"tile": outside})
        assert (reply.status_code, reply.json()["code"]) == (422, "not-a-choice")
        reply = await http.post(f"/drills/{row['id']}/answer", json={"tile": "1m", "x": 1})
        assert reply.status_code == 422


async def _an_address_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drills, "desk", drills.DrillDesk(per_address=2))
    row = _corpus()[0]
    async with _app(tmp_path) as http:
        for _ in range(2):
            reply = await http.get("/drills/next", params={"family": row["family"]})
            assert reply.status_code == 200
        reply = await http.post(f"/drills/{row['id']}/answer", json={"tile": row["answer"]})
        assert reply.status_code == 429 and reply.json()["code"] == "too-many-drills"
        assert int(reply.headers["Retry-After"]) >= 1


def test_a_puzzle_is_shown_without_its_answer(tmp_path: Path) -> None:
    asyncio.run(_a_puzzle_is_shown_without_its_answer(tmp_path))


def test_a_right_and_a_wrong_answer(tmp_path: Path) -> None:
    asyncio.run(_a_right_and_a_wrong_answer(tmp_path))


def test_refusals(tmp_path: Path) -> None:
    asyncio.run(_refusals(tmp_path))


def test_an_address_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asyncio.run(_an_address_is_bounded(tmp_path, monkeypatch))
