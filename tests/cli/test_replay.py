"""``erren replay``: every step with ``--all``, and stepping with Enter / b / q."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from erren.bots import find_bot
from erren.cli._display import Palette
from erren.cli.main import main
from erren.cli.replay import browse, frames, load_record
from erren.engine import State, find_ruleset
from erren.sim import play_hand, simulate


def _record_file(tmp_path: Path) -> tuple[Path, int]:
    bots = [find_bot("efficiency"), find_bot("random", seed=1)]
    state = play_hand(State.new(find_ruleset("guobiao-2p"), seed=12), bots)
    path = tmp_path / "hand.json"
    path.write_text(state.record().to_json(indent=1), encoding="utf-8")
    players = sum(1 for a in state.history if a.player >= 0)
    return path, players


def test_all_prints_every_step(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, steps = _record_file(tmp_path)
    code = main(["replay", str(path), "--all"])
    out = capsys.readouterr().out
    assert code == 0
    assert "setup" in out and f"step {steps}/{steps}" in out
    assert "result: seat" in out or "result: 荒庄" in out
    assert "\x1b[" not in out  # not a terminal: no colour


def test_seat_view_hides_the_opponent(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, _ = _record_file(tmp_path)
    assert main(["replay", str(path), "--all", "--seat", "0", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert "tiles (hidden)" in out


def test_browse_next_back_quit() -> None:
    screens = ["one", "two", "three"]
    out = io.StringIO()
    browse(screens, io.StringIO("\n\nb\nzz\nq\n"), out)
    text = out.getvalue()
    shown = [line for line in text.splitlines() if line in screens]
    assert shown == ["one", "two", "three", "two", "two"]
    assert "'zz'" in text


def test_browse_ends_at_the_last_step_and_on_eof() -> None:
    out = io.StringIO()
    browse(["a", "b"], io.StringIO("\n\n"), out)
    assert "end of the record" in out.getvalue()
    out = io.StringIO()
    browse(["a", "b"], io.StringIO(""), out)  # end of input
    assert out.getvalue().startswith("a\n")


def test_jsonl_line_and_frames(tmp_path: Path) -> None:
    sink = io.StringIO()
    simulate(find_ruleset("guobiao-2p"), ("random", "random"), hands=3, seed=2, jsonl=sink)
    record = load_record(sink.getvalue(), hand=2)
    screens = frames(record, Palette())
    assert len(screens) == sum(1 for a in record.actions if not a.startswith("c:")) + 1
    with pytest.raises(ValueError, match="holds 3 records"):
        load_record(sink.getvalue(), hand=4)


def test_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something-else"}', encoding="utf-8")
    assert main(["replay", str(bad), "--all"]) == 2
    err = capsys.readouterr().err
    assert "not an erren hand record" in err
