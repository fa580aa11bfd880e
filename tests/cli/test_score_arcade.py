"""``erren score --rules arcade``: :func:`run` for one hand and :func:`run_jsonl` for a batch,
called directly with the shared ``erren score`` flags plus the arcade group."""

from __future__ import annotations

import argparse
import io
import json

import pytest

from erren.cli import score
from erren.families.arcade import cli as score_arcade


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    score.add_arguments(parser)
    return parser.parse_args(argv)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = score_arcade.run(_args(*argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_one_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "234m567m234p45s77p +3s")
    assert code == 0
    assert "门清" in out and "平和" in out and "断幺九" in out
    assert "Total     3 fan" in out
    assert "versus 3" in out and "stage 600" in out


def test_capped_hand_with_shared_flags(capsys: pytest.CaptureFixture[str]) -> None:
    # E25 through the shared --self-drawn, --ting and --flowers flags.
    code, out, _ = _run(capsys, "2233334455667p +7p", "--self-drawn", "--ting", "--flowers", "1")
    assert code == 0
    assert "门清报听" in out
    assert "15 fan → 封顶 13番" in out
    assert "stage 9,100" in out


def test_wild_and_yakuman(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "1112223334z555s +4z", "--wild", "5s", "--self-drawn")
    assert code == 0
    assert "4倍役满 (N = 4)" in out
    assert "wild W = 5s" in out
    assert "stage 40,000" in out


def test_stake_and_base_points(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "12345678p22z [666z'] +9p", "--stake", "3", "--base-points", "10")
    assert code == 0
    assert "versus 50" in out and "stage 4,500 (m = 3)" in out


def test_first_turn_dealt_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "123m456m789p11122z", "--first-turn", "tianhu", "--flowers", "3")
    assert code == 0
    assert "天和" in out and "花牌" not in out


def test_tianting_synonym(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "12345m33456p789s +6m", "--tianting")
    assert code == 0
    assert "天听" in out and "门清报听" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("234m567m234p45s77p +5z",), "flower kind"),
        (("234m567m234p45s77p +3s", "--last-copy"), "--last-copy"),
        (("234m567m234p45s77p +3s", "--stake", "11"), "stake"),
        (("234m567m234p45s77p +3s", "--first-turn", "dihu", "--self-drawn"), "地和"),
        (("234m567m234p4s77p5s +5s", "--wild", "5s"), "dead"),
        (("234m567m234p45s77p +3s", "--wild", "9f"), "wild"),
        (("234m567m234p45s78p +3s",), "not a complete"),
    ],
)
def test_errors(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert message in err


def test_missing_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys)
    assert code == 2 and "give a winning hand" in err


def _jsonl(*requests: object) -> list[dict[str, object]]:
    source = io.StringIO(
        "\n".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in requests)
        + "\n\n"
    )
    sink = io.StringIO()
    assert score_arcade.run_jsonl(source, sink) == 0
    return [json.loads(line) for line in sink.getvalue().splitlines()]


def test_jsonl_answers() -> None:
    e32, e13 = _jsonl(
        {"hand": "345m11345p3789s5z +4s", "wild": "5z", "flowers": 1},
        {"hand": "1113334466z [222z'] +4z", "base_points": 10, "stake": 2},
    )
    assert e32["fan"] == 4 and e32["yakuman"] == 0 and e32["flower_kind"] == "7z"
    patterns = e32["patterns"]
    assert isinstance(patterns, list)
    assert [p["id"] for p in patterns] == ["N2", "N8", "N14"]
    assert e32["interpretation"] == {
        "form": "standard",
        "groups": ["345m", "345p", "345s{5s}", "789s", "11p"],
        "winning_group": 2,
        "wild_kinds": ["5s"],
    }
    assert e32["summary"] == "门清 1 + 花牌 1 + 三色同顺 2 = 4"
    assert e13["yakuman"] == 3 and e13["points"] == 130 and e13["stage_payout"] == 60000
    assert e13["capped_fan"] == 13


def test_jsonl_free_green_and_flags() -> None:
    (green,) = _jsonl({"hand": "2233446688s666z +4s", "self_drawn": True})
    assert green["yakuman"] == 1
    (haidi,) = _jsonl(
        {"hand": "234m456p789s13s66z +5s", "wild": "5s", "haidi": True, "baoting": "menqing"}
    )
    assert haidi["fan"] == 4


@pytest.mark.parametrize(
    ("request_line", "message"),
    [
        ("not json", "not JSON"),
        ("[1]", "expected a JSON object"),
        ({"hand": "234m567m234p45s77p +3s", "colour": 1}, "unknown field"),
        ({}, '"hand" is required'),
        ({"hand": "234m567m234p45s77p +3s", "self_drawn": 1}, '"self_drawn" must be bool'),
        ({"hand": "234m567m234p45s77p +3s", "flowers": 5}, "flowers must be 0..4"),
        ({"hand": "234m567m234p45s77p +3s", "flowers": True}, '"flowers" must be int'),
        ({"hand": "234m567m234p45s77p +3s", "baoting": "yes"}, '"baoting" must be one of'),
        ({"hand": "234m567m234p45s77p +3s", "first_turn": "x"}, '"first_turn" must be one of'),
        ({"hand": "234m567m234p45s77p +3s", "baoting": "open"}, "open meld"),
        ({"hand": "234m567m234p45s77p +3q"}, "suit letter"),
    ],
)
def test_jsonl_errors(request_line: object, message: str) -> None:
    (answer,) = _jsonl(request_line)
    assert message in str(answer["error"])
