"""``erren arena``: the table, reproducibility, records, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from erren.cli.main import main

TIMING_LINES = ("decision p50", "decision p99", "decision mean", "speed")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["arena", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _without_timing(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(TIMING_LINES))


def test_table_and_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("--rules", "guobiao-2p", "--bots", "efficiency,random", "--deals", "10", "--seed", "7")
    code, out, err = run(capsys, *argv)
    assert code == 0
    assert err == ""  # no progress bar when stderr is not a terminal
    for words in ("10 deals × 2 games", "A − B (efficiency − random)", "95% CI", "deal-in rate"):
        assert words in out
    for words in ("win rate", "avg points per win", "avg fan per win", "draws", *TIMING_LINES):
        assert words in out
    code2, out2, _ = run(capsys, *argv)
    assert code2 == 0 and _without_timing(out) == _without_timing(out2)
    assert out != _without_timing(out)


def test_self_play_prints_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--bots", "efficiency,efficiency", "--deals", "6", "--seed", "2")
    assert code == 0
    assert "+0.00 points per hand ± 0.00 (95% CI +0.00 to +0.00)" in out


def test_records_and_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "games.jsonl"
    argv = ("--bots", "random,efficiency", "--deals", "3", "--option", "flowers=true")
    code, out, _ = run(capsys, *argv, "--jsonl", str(target))
    assert code == 0 and str(target) in out
    records = [json.loads(x) for x in target.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 6
    assert all(r["format"] == "erren-hand" and r["options"]["flowers"] is True for r in records)
    assert [r["dealer"] for r in records] == [0, 0, 1, 1, 0, 0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--bots", "random"), "two names"),
        (("--bots", "random,"), "two names"),
        (("--bots", "random,ghost"), "unknown bot 'ghost'"),
        (("--bots", "random,random", "--rules", "chess"), "unknown ruleset 'chess'"),
        (("--bots", "random,random", "--option", "suit=x"), "option suit"),
        (("--bots", "random,random", "--option", "colour"), "NAME=VALUE"),
        (("--bots", "random,random", "--deals", "0"), "--deals must be ≥ 1"),
        (("--bots", "random,random", "--workers", "0"), "--workers must be ≥ 1"),
    ],
)
def test_errors(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("erren arena: ") and message in err
    assert err.count("\n") == 1
