"""``erren analyze``: the readable report and the JSON-lines batch mode."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from erren.cli.analyze import analyze_json, run_jsonl
from erren.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["analyze", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_ready_hand_shows_waits_with_remaining(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "123456789m1122z")
    assert code == 0
    assert "Shanten   0: ready" in out
    assert "Waits     1z×2 2z×2  (4 tiles left)" in out


def test_fourteen_tiles_get_a_discard_table_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "123456789m11223z")
    assert code == 0
    table = out.split("Discard  Shanten")[1].splitlines()[1:]
    first = table[0].split()
    assert first[0] == "3z" and first[1] == "0"  # throwing the lone West leaves the hand ready
    assert all(int(row.split()[1]) >= 0 for row in table)


def test_complete_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "123456789m11222z")
    assert code == 0 and "complete" in out


def test_not_ready_hand_lists_improving_draws(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "147m258p369s1234z", "--shapes", "riichi")
    assert code == 0
    assert "Improving" in out and "Waits     —" in out


def test_melds_and_wilds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "1234567m11z [555z']", "--wilds", "1")
    assert code == 0
    assert "Shanten   0" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["1123m456789m55z"], "holds 12 tiles"),
        (["123m456m789m1234x"], "unknown suit letter 'x'"),
        (["123456789m11223z", "--wilds", "1"], "holds 15 tiles (1 outside the string)"),
        (["123456789m1122z", "--seen", "1q"], "unknown suit letter 'q'"),
        (["123456789m11z22z +3z"], "without a winning tile"),
    ],
)
def test_bad_input_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err


def test_jsonl_answers_one_line_per_request() -> None:
    lines = [
        '{"hand": "123456789m1122z"}',
        '{"hand": "123456789m1122z", "wilds": 0}',
        '{"hand": "123456789m112z", "wilds": 1}',
        '{"hand": "123456789m112z", "wilds": 2}',
        '{"hand": "12345678m11z [555z\']"}',
        '{"hand": "123456789m11222z"}',
        "not json",
        '{"hand": 5}',
        '{"hand": "11111m"}',
        '{"hand": "123456789m112z", "wilds": -1}',
        "",
        "[1, 2]",
    ]
    out = io.StringIO()
    assert run_jsonl(io.StringIO("\n".join(lines) + "\n"), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 11  # the blank line is not a request
    ready = {"regular": 0, "seven_pairs": 4, "thirteen_orphans": 8}
    assert answers[0] == {"shanten": ready, "waits": ["1z", "2z"]}
    assert answers[1] == answers[0]
    assert answers[2]["shanten"]["regular"] == 0 and answers[2]["waits"] == ["1z", "2z"]
    assert answers[3]["shanten"]["regular"] == -1 and answers[3]["waits"] is None
    assert answers[4]["shanten"]["seven_pairs"] is None
    assert answers[4]["shanten"]["thirteen_orphans"] is None
    assert answers[4]["waits"] == ["3m", "6m", "9m"]
    assert answers[5] == {
        "shanten": {"regular": -1, "seven_pairs": 4, "thirteen_orphans": 8},
        "waits": None,
    }
    assert all(set(a) == {"error"} for a in answers[6:])
    assert "not JSON" in answers[6]["error"]
    assert "fifth copy" in answers[8]["error"]


def test_jsonl_waits_leave_out_a_kind_held_four_times() -> None:
    answer = analyze_json('{"hand": "1111m234567m999m"}')
    assert "1m" not in answer["waits"]


def test_the_console_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "erren.cli.main", "analyze", "123456789m1122z"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Waits" in done.stdout
