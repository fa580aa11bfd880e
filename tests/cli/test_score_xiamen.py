"""``erren score --rules xiamen``: the readable report, the flags shared with ``erren score``,
errors, and the JSON-lines mode (``docs/xiamen-scoring.md``)."""

from __future__ import annotations

import argparse
import io
import json
import shlex
from pathlib import Path

import pytest

from erren.cli import score as score_cli
from erren.families.xiamen import cli as score_xiamen
from erren.families.xiamen.cli import run_jsonl, score_json


def build_parser() -> argparse.ArgumentParser:
    """``erren score`` as wired (its add_arguments includes the xiamen group)."""
    parser = argparse.ArgumentParser(prog="erren score")
    score_cli.add_arguments(parser)
    return parser


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = score_xiamen.run(build_parser().parse_args(argv))
    out, err = capsys.readouterr()
    return code, out, err


def value(out: str, label: str) -> str:
    for line in out.splitlines():
        if line.startswith(label + " "):
            return line[len(label) :].strip()
    raise AssertionError(f"no line {label!r} in\n{out}")


def test_x06_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--gold", "2m", "--self-drawn", "1m2m3m5z5z5z456m789m1z +1z")
    assert (code, err) == (0, "")
    assert "(gold 2m, Whites play as 2m)" in out
    assert "Reading   regular: 123m{2m} 222m 456m 789m <11z>" in out
    assert "S-7  普通暗刻  555z (Whites as 2m)" in out
    assert value(out, "水") == "2"
    assert value(out, "raw").startswith("20 = (底 8 + 水 2) × 2")
    assert value(out, "total") == "20 points, paid by the dealer"


def test_x13_cap_bonus_stake_and_next_dealer(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "--gold=8m",
        "--win-type=游金",
        "--dealer",
        "--streak=2",
        "--stake=50",
        "234m345m666m8m1f2f3f [777z'] +1z",
    )
    assert code == 0
    assert value(out, "底") == "32 = base 8 × 2^2"
    assert value(out, "paid") == "100 = min(raw 152, cap 100)  (capped)"
    assert value(out, "bonus") == "50  (游金, outside the cap)"
    assert value(out, "total") == "150 points, paid by the non-dealer"
    assert value(out, "beans") == "7,500 = 150 × stake 50"
    assert "(202 without the cap)" in out
    assert value(out, "next") == "the dealer deals again: 连庄数 4 (w = 3), 底 64"
    assert "S-2  花牌 ×3   123f" in out


def test_cap_none_and_flower_count(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        capsys,
        "--gold=6m",
        "--win-type=shuangyou",
        "--cap=none",
        "--flowers=8",
        "123m789m222z444z6m +1z",
    )
    assert value(out, "水") == "21"  # gold 1 + 222z 2 + 444z 2 + all eight flowers 16
    assert value(out, "paid") == "232 = raw 232 (no cap)"
    assert value(out, "total") == "332 points, paid by the dealer"


def test_robbing_kong_flag_is_qianggang(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--gold=2m", "--robbing-kong", "67m345m111z444z99m7f +8m")
    assert code == 0
    assert "抢杠胡 (qianggang)" in out and value(out, "total").startswith("26 points")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("123m456m789m11z22z +1z",), "gold kind is required"),
        (("--gold=7z", "--win-type=tianhu", "123m456m789m11z22z +1z"), "no win type"),
        (("--gold=7z", "--self-drawn", "--robbing-kong", "123m456m789m11z22z +1z"), "robbing"),
        (("--gold=7z", "--self-drawn", "--win-type=pinghu", "123m456m789m11z22z +1z"), "self"),
        (("--gold=7z", "--flowers=5", "123m456m789m11z22z +1z"), "complete group"),
        (("--gold=7z", "--cap=lots", "123m456m789m11z22z +1z"), "--cap"),
        (("--gold=7z", "--streak=-1", "123m456m789m11z22z +1z"), "streak"),
        (("--gold=7z", "--room=normal", "123m456m789m11z22z +1z"), "--room"),
        (("--gold=5m", "46m5m888m123m99m33z +3z"), "holding a gold"),
        (("--gold=1p", "123m456m789m11z22z +1z"), "gold kind"),
        (("--gold=7z", "123m456m789m11z2z3z +1z"), "not complete"),
        (("--gold=7z", "123m456m789m11z22z+"), "'+'"),
    ],
)
def test_errors(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("erren score: ") and message in err


def test_no_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--gold=9m")
    assert code == 2 and "give a winning hand" in err


# --------------------------------------------------------------------------------------------
# JSON lines


def test_jsonl_x11_record() -> None:
    line = json.dumps(
        {"hand": "123m456m789m111z3z +9m", "gold": "3z", "win_type": "youjin", "flowers": "3f8f"}
    )
    answer = score_json(line)
    assert {k: answer[k] for k in ("win_type", "type", "winner", "water", "payer")} == {
        "win_type": "youjin",
        "type": "游金",
        "winner": "non-dealer",
        "water": 5,
        "payer": "dealer",
    }
    assert answer["items"] == [
        {"id": "S-1", "name": "金牌", "tiles": "3z", "count": 1, "water": 1},
        {"id": "S-2", "name": "花牌", "tiles": "38f", "count": 2, "water": 2},
        {"id": "S-8", "name": "风暗刻", "tiles": "111z", "count": 1, "water": 2},
    ]
    figures = ("streak", "base", "multiplier", "raw", "cap", "paid", "bonus", "total")
    assert [answer[k] for k in figures] == [0, 8, 4, 52, 100, 52, 50, 102]
    assert (answer["next_dealer"], answer["next_streak"]) == ("non-dealer", 0)
    assert answer["reading"].startswith("regular: ")
    assert "beans" not in answer


def test_jsonl_settings_and_types() -> None:
    answer = score_json(
        json.dumps(
            {
                "hand": "234m567m111z9m [777z']",
                "gold": "9m",
                "win_type": "三游",
                "dealer": True,
                "streak": 1,
                "cap": 0,
                "base": 10,
                "stake": 3,
            }
        )
    )
    assert answer["water"] == 4 and answer["base"] == 20
    assert (answer["raw"], answer["paid"], answer["bonus"]) == (384, 384, 150)
    assert (answer["total"], answer["stake"], answer["beans"]) == (534, 3, 1602)
    assert (answer["next_dealer"], answer["next_streak"]) == ("dealer", 2)
    assert answer["reading"] == "regular: 234m 567m 111z [777z] 9m{9m}"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "not JSON"),
        ("[1]", "expected a JSON object"),
        ('{"hand": "123m456m789m11z22z +1z"}', '"gold" is required'),
        ('{"gold": "1m"}', '"hand" is required'),
        ('{"hand": "123m456m789m11z22z +1z", "gold": "7z", "table": "gb"}', "unknown field"),
        ('{"hand": "123m456m789m11z22z +1z", "gold": "7z", "dealer": 1}', '"dealer"'),
        ('{"hand": "123m456m789m11z22z +1z", "gold": "7z", "streak": -1}', '"streak"'),
        ('{"hand": "123m456m789m11z22z +1z", "gold": "7z", "win_type": 3}', '"win_type"'),
        ('{"hand": "123m456m789m11z22z +1z", "gold": "7z", "flowers": true}', '"flowers"'),
        ('{"hand": "123m456m789m11z22z +1z", "gold": "7z", "flowers": "1m"}', "flowers must"),
        ('{"hand": "123m456m789m11z2z3z +1z", "gold": "7z"}', "not complete"),
    ],
)
def test_jsonl_errors(line: str, message: str) -> None:
    answer = score_json(line)
    assert list(answer) == ["error"] and message in answer["error"]


def test_run_jsonl_goes_on_after_errors() -> None:
    source = io.StringIO(
        '{"hand": "123m456m567m11m33z +3z", "gold": "9m", "dealer": true}\n'
        "\n"
        "oops\n"
        '{"hand": "123m456m567m11m33z +3z", "gold": "9m", "self_drawn": true}\n'
    )
    sink = io.StringIO()
    assert run_jsonl(source, sink) == 0
    answers = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [a.get("total", a.get("error", "")[:4]) for a in answers] == [9, "line", 20]


def test_run_with_jsonl_flag_reads_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "sys.stdin", io.StringIO('{"hand": "123m456m567m11m33z +3z", "gold": "9m"}\n')
    )
    code, out, _ = run(capsys, "--jsonl")
    assert code == 0 and json.loads(out)["total"] == 9


# --------------------------------------------------------------------------------------------
# The documentation's examples are real output

DOC = Path(__file__).resolve().parents[2] / "docs" / "xiamen-scoring.md"


def _blocks() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return [block.split("\n", 1)[1] for block in text.split("```")[1::2]]


def test_doc_report_example(capsys: pytest.CaptureFixture[str]) -> None:
    block = next(b for b in _blocks() if b.startswith("$ erren score --rules xiamen"))
    command, expected = block.split("\n", 1)
    argv = shlex.split(command)[5:]  # after "$ erren score --rules xiamen"
    code, out, _ = run(capsys, *argv)
    assert code == 0 and out == expected


def test_doc_jsonl_example() -> None:
    blocks = [b for b in _blocks() if b.startswith("{")]
    request, answer = blocks[0], blocks[1]
    assert score_json(request) == json.loads(answer)
