"""``erren simulate``: the table, reproducibility, JSON lines, errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from erren.cli.main import main
from erren.cli.simulate import ProgressBar, parse_option


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["simulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _without_timing(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("speed"))


def test_table_and_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("--rules", "guobiao-2p", "--games", "30", "--bots", "efficiency,random", "--seed", "7")
    code, out, err = run(capsys, *argv)
    assert code == 0
    assert err == ""  # no progress bar when stderr is not a terminal
    for word in ("wins", "draws", "avg points/hand", "avg hand length", "hands/s"):
        assert word in out
    assert "efficiency" in out and "random" in out
    code2, out2, _ = run(capsys, *argv)
    assert code2 == 0 and _without_timing(out) == _without_timing(out2)


def test_jsonl_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "hands.jsonl"
    code, out, _ = run(capsys, "--games", "4", "--bots", "random,random", "--jsonl", str(target))
    assert code == 0 and str(target) in out
    lines = target.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4 and all(json.loads(x)["format"] == "erren-hand" for x in lines)


def test_options_and_matches(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "--games", "6", "--option", "flowers=true", "--match-length", "3", "--seed", "1"
    )
    assert code == 0 and "matches" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--bots", "random"), "two names"),
        (("--bots", "random,ghost"), "unknown bot 'ghost'"),
        (("--rules", "chess"), "unknown ruleset"),
        (("--option", "suit=x"), "option suit"),
        (("--option", "colour"), "NAME=VALUE"),
        (("--games", "-1"), "--games"),
    ],
)
def test_errors(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


def test_parse_option() -> None:
    assert parse_option("flowers=true") == ("flowers", True)
    assert parse_option("cap-points=null") == ("cap_points", None)
    assert parse_option("min_fan=8") == ("min_fan", 8)
    assert parse_option("suit=p") == ("suit", "p")
    assert parse_option("pung_offer_prob=0.5") == ("pung_offer_prob", 0.5)
    assert parse_option("fan_table=gb") == ("fan_table", "gb")


def test_progress_bar_draws_and_clears() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream, width=10)
    bar(1, 4)
    bar(4, 4)
    text = stream.getvalue()
    assert "1/4 hands" in text and "4/4 hands" in text and text.endswith("\r")
