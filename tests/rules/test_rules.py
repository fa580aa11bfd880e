"""The rules pages: every book lists exactly its spec table's rows with their values (as
the specs print them, :mod:`._support.spec_tables`), every example hand really scores its row,
the guided first hand is a real engine hand that shows the learner only his own tiles, and
the web routes answer."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from types import UnionType
from typing import Union, get_args, get_origin, get_type_hints, is_typeddict

import httpx
import pytest
from fastapi import FastAPI

from erren.rules import rules_json
from erren.rules.examples import EXAMPLES, constructed, generate, score_example
from erren.rules.tutorial import STEPS, tutorial_json
from erren.rules.wire import RulesPage, Tutorial
from erren.server.routes.web import mount_web

from ._support.spec_tables import ARCADE, GUOBIAO_2P, GUOBIAO_GB, XIAMEN

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("table", ["2p", "gb"])
def test_guobiao_rows_are_the_spec_table(table: str) -> None:
    want = list(GUOBIAO_2P if table == "2p" else GUOBIAO_GB)
    assert len(want) == (54 if table == "2p" else 81)
    page = rules_json("guobiao-2p", table)
    assert [(r["name_zh"], r["value"]) for r in page["rows"]] == want
    assert page["table"] == table


def test_arcade_rows_are_the_spec_table() -> None:
    spec = list(ARCADE)
    assert len(spec) == 46
    limits = sorted((r for r in spec if r[0][0] == "L"), key=lambda r: int(r[0][1:]))
    others = sorted((r for r in spec if r[0][0] == "N"), key=lambda r: int(r[0][1:]))
    rows = rules_json("arcade")["rows"]
    assert [(r["id"], r["name_zh"], r["value"]) for r in rows] == limits + others
    assert [r["limit"] for r in rows] == [True] * 18 + [False] * 28


def test_xiamen_rows_are_the_spec_table() -> None:
    rows = rules_json("xiamen")["rows"]
    assert [(r["id"], r["value"]) for r in rows] == list(XIAMEN)
    assert len(rows) == 12
    assert [(t["id"], t["m"], t["bonus"]) for t in rules_json("xiamen")["win_types"]] == [
        ("pinghu", 1, 0),
        ("zimo", 2, 0),
        ("qianggang", 2, 0),
        ("youjin", 4, 50),
        ("qiangjin", 4, 0),
        ("sanjindao", 4, 0),
        ("shuangyou", 8, 100),
        ("sanyou", 16, 150),
    ]


BOOKS = [("guobiao-2p", "2p"), ("guobiao-2p", "gb"), ("xiamen", None), ("arcade", None)]


@pytest.mark.parametrize(("family", "table"), BOOKS)
def test_every_example_scores_its_row(family: str, table: str | None) -> None:
    missing = []
    for row in rules_json(family, table)["rows"]:
        example = row["example"]
        if example is None:
            missing.append(row["id"])
            continue
        scored = score_example(family, example["hand"], example["context"])
        names = [r[0] for r in scored["rows"]]
        assert row["name_zh"] in names, (row["id"], example["hand"], names)
        assert scored["rows"] == example["rows"] and scored["total"] == example["total"]
        if table is not None:
            assert example["context"]["table"] == table
    # 无番和 cannot be made with one suit (every hand has 混一色, 清一色 or 字一色, §3.5)
    assert missing == (["chicken_hand"] if table == "gb" else [])


def test_examples_file_is_current() -> None:
    import json  # noqa: PLC0415

    stored = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    assert generate(ROOT / "conformance") == stored
    assert {key: set(rows) for key, rows in constructed().items()} == {
        "arcade": {"L3", "L6", "L15"}
    }


def test_example_labels_and_notes() -> None:
    rows = {r["id"]: r for r in rules_json("arcade")["rows"]}
    assert rows["L6"]["example"]["labels"] == [{"zh": "财神", "en": "wild", "tiles": ["9s"]}]
    assert rows["L1"]["example"]["labels"][1] == {
        "zh": "首巡 天和",
        "en": "first turn: heavenly hand",
        "tiles": [],
    }
    water = rules_json("xiamen")["rows"][1]["example"]  # S-2: flowers held, drawn as tiles
    assert water["labels"][0] == {"zh": "花", "en": "flowers", "tiles": ["5f", "6f", "7f"]}
    assert water["labels"][-1] == {"zh": "和法 自摸", "en": "win type: self drawn", "tiles": []}
    assert rows["N12"]["note"]["en"] == "concealed hands only; not counted with it: Seven pairs"
    assert rows["L5"]["note"]["zh"] == "役满 ×2；不计小四喜"
    water = {r["id"]: r for r in rules_json("xiamen")["rows"]}
    assert water["S-5"]["note"]["en"] == "per occurrence; replaces seasons group, plants group"


@pytest.mark.parametrize(("family", "table"), BOOKS)
def test_every_example_adds_up_to_the_scorers_total(family: str, table: str | None) -> None:
    """An example's terms are its rows at their value per occurrence: their sum is the
    scorer's total (fan, 水), or for arcade's limit hands its yakuman count (R4.13), in the
    unit shown; arcade's fan above 13 is capped (R5.7)."""
    for row in rules_json(family, table)["rows"]:
        example = row["example"]
        if example is None:
            continue
        terms = example["terms"]
        assert [t["count"] for t in terms] == [r[2] for r in example["rows"]]
        total = sum(t["each"] * t["count"] for t in terms)
        assert example["sum"] == total
        scored = score_example(family, example["hand"], example["context"])
        limit = family == "arcade" and scored["yakuman"] > 0
        assert total == (scored["yakuman"] if limit else scored["total"]), row["id"]
        unit = "yakuman" if limit else "water" if family == "xiamen" else "fan"
        assert example["unit"]["en"] == unit
        capped = family == "arcade" and not limit and total > 13  # R5.7: 封顶 13番
        assert example["capped"] == (13 if capped else None)


def test_english_prose_glosses_its_chinese_terms() -> None:
    """The English rules read without Chinese: a Chinese term only follows its English name,
    in parentheses (the drawer marks it as a name); the Chinese rules name no table by its id."""
    for family in ("guobiao-2p", "xiamen", "arcade"):
        for section in rules_json(family)["sections"]:
            for para in section["paras"]:
                outside = re.sub(r"\([^()]*\)", "", para["en"])
                assert not re.search(r"[\u3400-\u9fff]", outside), para["en"]
                assert not re.search(r"[A-Za-z]{2,}", para["zh"]), para["zh"]


def test_unknown_family_or_table() -> None:
    with pytest.raises(ValueError, match="unknown family 'riichi'"):
        rules_json("riichi")
    with pytest.raises(ValueError, match="unknown fan table 'xx'"):
        rules_json("guobiao-2p", "xx")


# -------------------------------------------------------------------------- the guided hand
def test_tutorial_is_a_real_hand_seen_by_the_learner() -> None:
    data = tutorial_json()
    steps = data["steps"]
    assert [s["id"] for s in steps] == ["discard", "draw", "claim", "ready", "win"]
    for step in steps:
        assert step["move"] in step["obs"]["legal"]
        assert step["obs"]["player"] == 0
    # the dealt hand (§1.5: 14 tiles to the dealer), then what each move leaves
    assert steps[0]["obs"]["hand"] == [
        "1m",
        "2m",
        "3m",
        "4m",
        "5m",
        "6m",
        "8m",
        "8m",
        "9m",
        "9m",
        "1z",
        "2z",
        "7z",
        "7z",
    ]
    assert steps[1]["obs"]["last_drawn"] == "6z"
    assert steps[2]["obs"]["legal"] == ["peng", "pass"]
    assert steps[3]["obs"]["melds"][0][0]["tiles"] == ["7z", "7z", "7z"]
    assert steps[4]["obs"]["discards"] == [["1z", "6z", "2z"], ["3z", "7z", "9m"]]
    # the opponent's hand is never shown: only its count
    for obs in [s["obs"] for s in steps] + [data["end"]]:
        assert obs["concealed_count"][1] == 13 - 3 * len(obs["melds"][1])
    result = data["end"]["result"]
    assert result["winner"] == 0 and result["how"] == "discard"
    # 2p table: 连六 8 + 箭刻 4 + 幺九刻 2 + 报听 2 (§4.2.2)
    assert [(r["id"], r["value"]) for r in result["rows"]] == [
        ("short_straight", 8),
        ("dragon_pung", 4),
        ("pung_of_terminals_or_honors", 2),
        ("ready_declared", 2),
    ]
    assert result["total"] == 16
    assert len(STEPS) == 5


# -------------------------------------------------------------------------- the routes
def _get(path: str, **params: str) -> httpx.Response:
    app = FastAPI()
    mount_web(app)

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            return await http.get(path, params=params)

    return asyncio.run(go())


def test_routes() -> None:
    page = _get("/rules/guobiao-2p", table="gb")
    assert page.status_code == 200
    assert len(page.json()["rows"]) == 81
    assert _get("/rules/xiamen").json()["unit"] == {"zh": "水", "en": "water"}
    # the table's title is the unit's own words (the page used to test for "water" itself)
    assert _get("/rules/xiamen").json()["rows_title"] == {"zh": "水表", "en": "Water table"}
    assert page.json()["rows_title"] == {"zh": "番种表", "en": "Scoring table"}
    missing = _get("/rules/riichi")
    assert missing.status_code == 404
    assert "unknown family 'riichi'" in missing.text
    steps = _get("/tutorial").json()["steps"]
    assert [s["move"] for s in steps] == ["discard:1z", "discard:6z", "peng", "ting:2z", "hu"]


# -------------------------------------------------------------------------- the wire shapes
def _fits(value: object, hint: object, where: str) -> None:
    """``value`` has exactly the fields of the typed dict ``hint``, recursively."""
    if isinstance(hint, type) and is_typeddict(hint):
        assert isinstance(value, dict), where
        hints = get_type_hints(hint)
        assert set(value) == set(hints), (where, sorted(value), sorted(hints))
        for key, inner in hints.items():
            _fits(value[key], inner, f"{where}.{key}")
        return
    if get_origin(hint) is list:
        assert isinstance(value, list), where
        for i, item in enumerate(value):
            _fits(item, get_args(hint)[0], f"{where}[{i}]")
        return
    if get_origin(hint) in (UnionType, Union):
        if value is None:
            assert type(None) in get_args(hint), where
            return
        _fits(value, next(a for a in get_args(hint) if a is not type(None)), where)


@pytest.mark.parametrize(("family", "table"), BOOKS)
def test_the_pages_have_the_typed_shape(family: str, table: str | None) -> None:
    _fits(rules_json(family, table), RulesPage, family)


def test_the_tutorial_has_the_typed_shape() -> None:
    _fits(tutorial_json(), Tutorial, "tutorial")
