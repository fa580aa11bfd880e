"""``erren score``: the readable table, the settlement lines, errors, and the JSON-lines mode."""

from __future__ import annotations

import argparse
import io
import json

import pytest

from erren.cli import score as score_cli
from erren.display import width
from erren.families.guobiao.cli import run_jsonl, score_json


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="erren score")
    score_cli.add_arguments(parser)
    return parser


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = score_cli.run(build_parser().parse_args(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fan_line(out: str, name: str) -> list[str]:
    """The cells of the table row of fan ``name`` (split on runs of spaces)."""
    for line in out.splitlines():
        cells = line.split()
        if len(cells) > 1 and cells[1] == name:
            return cells
    raise AssertionError(f"no row for {name} in\n{out}")


# --------------------------------------------------------------------------------------------
# The readable report


def test_the_issue_example_prints_fans_total_points_and_beans(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys, "123m456m789m1z[555z']+1z", "--table", "gb", "--self-drawn", "--room", "normal"
    )
    assert (code, err) == (0, "")
    assert "Hand      123456789m1z [555z'] +1z  (table gb)" in out
    assert "Reading   regular: 123m 456m 789m [555z] <11z>" in out
    header = next(line for line in out.splitlines() if line.lstrip().startswith("#"))
    assert header.split() == ["#", "Fan", "English", "Value", "Count", "Points", "From"]
    assert fan_line(out, "清龙") == [
        "28",
        "清龙",
        "Pure",
        "Straight",
        "16",
        "1",
        "16",
        "123m",
        "456m",
        "789m",
    ]
    assert fan_line(out, "箭刻")[-1] == "[555z]"
    assert fan_line(out, "单钓将")[-1] == "11z"
    assert fan_line(out, "自摸")[-1] == "—"
    assert "Total     26 fan" in out
    assert "Points    13  (cap 13: capped)" in out
    assert "Beans     2,600  (13 × 200 普通场 Normal × 1 自摸), paid by the opponent" in out


def test_columns_line_up_with_chinese_names(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "123m456m789m1z[555z']+1z", "--flowers", "1")
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("#"))
    table = lines[start : lines.index("", start)]
    assert len(table) == 2 + 5
    # Everything before the last column ends at the same terminal column (CJK counts double).
    widths = {width(line.rsplit("  ", 1)[0]) for line in table}
    assert len(widths) == 1


def test_points_and_the_cap(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "123456789m5z [111z'] +5z"  # W1: 25 fan in gb, 18 in 2p
    assert "Points    13  (cap 13: capped)" in run(capsys, hand)[1]
    assert "Points    25  (no cap)" in run(capsys, hand, "--cap", "none")[1]
    assert "Points    25  (cap 30: under the cap)" in run(capsys, hand, "--cap", "30")[1]
    out = run(capsys, hand, "--table", "2p")[1]
    assert "Total     18 fan" in out
    assert "Points    18  (no cap)" in out
    code, _, err = run(capsys, hand, "--cap", "lots")
    assert code == 2
    assert "--cap must be a whole number or 'none'" in err


def test_win_flags_reach_the_calculator(capsys: pytest.CaptureFixture[str]) -> None:
    # W8: self-drawn last tile → 妙手回春; W10: kong replacement → 杠上开花; W7: 抢杠和.
    out = run(capsys, "234m456m9m [111z'] [7'89m] +9m", "--self-drawn", "--last-tile")[1]
    assert fan_line(out, "妙手回春")[-4] == "8"
    assert "Total     18 fan" in out
    out = run(capsys, "12m456m11z [5555z#] [9999m+] +3m", "--self-drawn", "--kong-replacement")[1]
    assert "Total     22 fan" in out
    out = run(capsys, "123m456m78m11z [555z'] +9m", "--robbing-kong", "--last-copy")[1]
    assert "Total     32 fan" in out
    assert "和绝张" not in out


def test_winds_and_flowers(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "123m456m789m111z2z +2z"
    out = run(capsys, hand, "--seat-wind", "1z", "--round-wind", "1z")[1]
    assert fan_line(out, "圈风刻")[-1] == "111z"
    assert fan_line(out, "门风刻")[-1] == "111z"
    out = run(capsys, hand, "--round-wind", "2z", "--flowers", "3")[1]
    assert "圈风刻" not in out
    assert fan_line(out, "幺九刻")[-1] == "111z"
    assert fan_line(out, "花牌")[2:7] == ["Flower", "Tiles", "1", "3", "3"]
    assert "Total     29 fan (26 without flowers)" in out


def test_a_dealt_hand_is_a_heavenly_hand_in_2p(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "123m456m789m111z22z", "--table", "2p", "--room", "novice")
    assert code == 0
    assert "Total     50 fan" in out  # W12
    assert "Beans     2,500  (50 × 50 新手场 Novice × 1 自摸), paid by the opponent" in out


def test_below_the_minimum_prints_the_table_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "555m678m1z [1'23m] [2'34m] +1z")  # W14: 7 fan in gb
    assert code == 2
    assert "Total     7 fan" in out
    assert not any(line.startswith("Points") for line in out.splitlines())
    assert "below the minimum (起和) of 8" in err
    code, out, _ = run(capsys, "555m678m1z [1'23m] [2'34m] +1z", "--min-fan", "0")
    assert code == 0
    assert "Points    7  (cap 13: under the cap)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["123m456m789m1z[555z'+1z"], "unexpected '+' in a meld at position 20"),
        (["123m456m789m1z[555z']+2z"], "not a winning hand"),
        (["123m456m789m11z[555z']+1z"], "the concealed part must not repeat the +X tile"),
        (["123m456m789m1z[555z']+1z", "--seat-wind", "5z"], "seat wind must be a wind 1z..4z"),
        (["123m456m789m1z[555z']+1z", "--round-wind", "x"], "round wind must be a wind"),
        (["123m456m789m1z[555z']+1z", "--flowers", "9"], "flowers must be 0..8"),
        (["123m456m789m1z[555z']+1z", "--kong-replacement"], "is self-drawn"),
        (["123m456m789m1z[555z']+1z", "--robbing-kong", "--self-drawn"], "not self-drawn"),
        ([], "give a winning hand"),
    ],
)
def test_errors_go_to_stderr_with_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("erren score: ")
    assert message in err


def test_help_documents_the_jsonl_format() -> None:
    text = " ".join(build_parser().format_help().split())
    assert '"points" is the fan\'s value for ONE occurrence' in text
    assert "the sum of points × count" in text
    assert score_cli.NAME == "score"
    assert score_cli.HELP


# --------------------------------------------------------------------------------------------
# JSON lines


def test_jsonl_scores_a_hand_with_defaults() -> None:
    # W1 in gb: discard, seat South, round East, no flowers.
    answer = score_json(json.dumps({"hand": "123456789m5z [111z'] +5z"}))
    assert answer == {
        "total": 25,
        "fans": [
            {"name": "清龙", "points": 16, "count": 1},
            {"name": "混一色", "points": 6, "count": 1},
            {"name": "圈风刻", "points": 2, "count": 1},
            {"name": "单钓将", "points": 1, "count": 1},
        ],
    }


def test_jsonl_points_are_per_occurrence_and_total_includes_flowers() -> None:
    # W3 in gb + 2 flowers: 碰碰和 6 + 混一色 6 + 箭刻 2 + 双暗刻 2 + 幺九刻 1×2 + 单钓将 1
    # + 花牌 1×2.
    answer = score_json(json.dumps({"hand": "111m999m2z [555m'] [666z'] +2z", "flowers": 2}))
    fans = {fan["name"]: (fan["points"], fan["count"]) for fan in answer["fans"]}
    assert fans["幺九刻"] == (1, 2)
    assert fans["花牌"] == (1, 2)
    assert answer["total"] == 21 == sum(p * c for p, c in fans.values())


def test_jsonl_fields_reach_the_calculator() -> None:
    base = {"hand": "123456789m5z [111z'] +5z"}
    drawn = score_json(json.dumps({**base, "self_drawn": True, "last_tile": True}))
    assert {"name": "妙手回春", "points": 8, "count": 1} in drawn["fans"]
    winds = score_json(json.dumps({**base, "seat_wind": "1z", "round_wind": "2z"}))
    assert [f["name"] for f in winds["fans"] if "风" in f["name"]] == ["门风刻"]
    two_p = score_json(json.dumps({**base, "table": "2p"}))
    assert two_p["total"] == 18
    copy = score_json(json.dumps({"hand": "123m234m67m111z55z +8m", "last_copy": True}))
    assert {"name": "和绝张", "points": 4, "count": 1} in copy["fans"]
    robbed = score_json(json.dumps({"hand": "123m456m78m11z [555z'] +9m", "robbing_kong": True}))
    assert robbed["total"] == 32
    kong = score_json(
        json.dumps(
            {
                "hand": "12m456m11z [5555z#] [9999m+] +3m",
                "self_drawn": True,
                "kong_replacement": True,
            }
        )
    )
    assert kong["total"] == 22


def test_jsonl_does_not_check_the_minimum() -> None:
    assert score_json(json.dumps({"hand": "555m678m1z [1'23m] [2'34m] +1z"}))["total"] == 7


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "line is not JSON"),
        ("[1, 2]", "expected a JSON object"),
        ("{}", '"hand" is required'),
        ('{"hand": 5}', '"hand" is required'),
        ('{"hand": "123m", "selfdrawn": true}', "unknown field(s) 'selfdrawn'"),
        ('{"hand": "123456789m5z [111z\'] +5z", "table": "riichi"}', '"table" must be'),
        ('{"hand": "123456789m5z [111z\'] +5z", "self_drawn": 1}', '"self_drawn" must be true'),
        ('{"hand": "123456789m5z [111z\'] +5z", "last_copy": "yes"}', '"last_copy" must be'),
        ('{"hand": "123456789m5z [111z\'] +5z", "seat_wind": 1}', '"seat_wind" must be a string'),
        ('{"hand": "123456789m5z [111z\'] +5z", "round_wind": "5z"}', "round wind must be a wind"),
        ('{"hand": "123456789m5z [111z\'] +5z", "flowers": 9}', "flowers must be 0..8"),
        ('{"hand": "123456789m5z [111z\'] +5z", "flowers": "2"}', '"flowers" must be a whole'),
        ('{"hand": "123456789m5z [111z\'] +5z", "flowers": true}', '"flowers" must be a whole'),
        ('{"hand": "123456789m5z [111z\'] +5z", "kong_replacement": true}', "is self-drawn"),
        ('{"hand": "123456789m5z [111z\'", "table": "gb"}', "meld not closed"),
        ('{"hand": "123456789m5z [111z\'] +6z"}', "not a winning hand"),
    ],
)
def test_jsonl_errors(line: str, message: str) -> None:
    answer = score_json(line)
    assert list(answer) == ["error"]
    assert message in answer["error"]


def test_jsonl_run_goes_on_after_errors_and_skips_blank_lines() -> None:
    source = io.StringIO(
        '{"hand": "123456789m5z [111z\'] +5z"}\n'
        "oops\n"
        "\n"
        '{"hand": "123456789m5z [111z\'] +5z", "table": "2p"}\n'
    )
    sink = io.StringIO()
    assert run_jsonl(source, sink) == 0
    answers = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [a.get("total", "error") for a in answers] == [25, "error", 18]
    assert "清龙" in sink.getvalue()  # written as UTF-8 text, not \\u escapes


def test_jsonl_mode_through_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('{"hand": "123456789m5z [111z\'] +5z"}\n'))
    code, out, _ = run(capsys, "--jsonl")
    assert code == 0
    assert json.loads(out)["total"] == 25
