"""``erren review``: text, ``--json``, ``--html`` and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from erren.cli.main import main
from erren.engine import Record, find_family
from erren.engine.record import replay
from erren.sim import simulate


def _game(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    with path.open("w", encoding="utf-8") as out:
        simulate(find_family("guobiao-2p"), ["novice", "efficiency"], hands=2, seed=3, jsonl=out)
    return path


def test_text_json_and_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game(tmp_path)
    page = tmp_path / "review.html"
    assert main(["review", str(game), "--rollouts", "2", "--html", str(page)]) == 0
    text = capsys.readouterr().out
    assert "hand 1 (guobiao-2p, seat 0" in text and "hand 2 (" in text
    assert "game: 2 hands" in text and "method:" in text
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "<table>" in html
    assert "http" not in html and "<script" not in html  # self-contained
    assert main(["review", str(game), "--rollouts", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "erren-review/1" and len(data["hands"]) == 2
    assert "worlds" in data["method"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "the file is empty"),
        ("not json\n", "line 1: not JSON"),
        ('{"format": "erren-hand", "version": 9}\n', "line 1"),
        ('{"type": "start_game", "names": []}\n', "erren review:"),
    ],
)
def test_bad_input_says_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content, encoding="utf-8")
    assert main(["review", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("erren review: ") and message in err


def test_a_missing_file_and_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(tmp_path / "nope.jsonl")]) == 2
    assert "nope.jsonl" in capsys.readouterr().err
    game = _game(tmp_path)
    assert main(["review", str(game), "--level", "grandmaster"]) == 2
    assert "unknown level 'grandmaster'" in capsys.readouterr().err
    assert main(["review", str(game), "--rollouts", "0"]) == 2
    assert "--rollouts must be at least 1" in capsys.readouterr().err


def test_hindsight_adds_each_hand_s_best_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--hindsight``: one line per hand, never worse than what happened, each a record that
    replays to the points it claims (the engine settles it, not the search)."""
    game = _game(tmp_path)
    records = [Record.from_json(line) for line in game.read_text(encoding="utf-8").splitlines()]
    assert main(["review", str(game), "--rollouts", "2", "--hindsight", "--json"]) == 0
    known = json.loads(capsys.readouterr().out)["hindsight"]
    assert len(known) == len(records) == 2
    for line, record in zip(known, records, strict=True):
        assert line["actual"] == _points(record)
        assert line["best"] >= line["actual"]
        actions = tuple(line["actions"])
        shown = Record(
            record.ruleset, record.options, record.seed, record.dealer, record.round_wind,
            actions, line["result"], record.streak,
        )  # fmt: skip
        assert _points(shown) == line["best"]
    assert main(["review", str(game), "--rollouts", "2", "--hindsight"]) == 0
    text = capsys.readouterr().out
    assert "with the tiles known (hindsight" in text
    assert text.count("  hand ") == 2


def _points(record: Record) -> int:
    """Seat 0's points when the engine plays ``record`` out."""
    result = replay(record).result
    assert result is not None
    return result.deltas[0]
