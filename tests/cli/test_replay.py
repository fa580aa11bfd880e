"""``erren replay``: every step with ``--all``, and stepping with Enter / b / q."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from erren.bots import find_bot
from erren.cli.main import main
from erren.cli.replay import browse, frames, load_record
from erren.display import Palette
from erren.engine import Record, State, find_family
from erren.sim import play_hand, simulate


def _record_file(tmp_path: Path) -> tuple[Path, int]:
    bots = [find_bot("efficiency"), find_bot("random", seed=1)]
    state = play_hand(State.new(find_family("guobiao-2p"), seed=12), bots)
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
    simulate(find_family("guobiao-2p"), ("random", "random"), hands=3, seed=2, jsonl=sink)
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


# A xiamen hand dealt during 连庄: the dealer (seat 0) has won the two hands before it, so the
# dealer streak is w = 2 (R-1.2, shown as 连庄数 w + 1 = 3); seat 0 then wins by 自摸.
XIAMEN_STREAK_2 = {
    "format": "erren-hand",
    "version": 1,
    "ruleset": "xiamen",
    "options": {"base": 8, "cap": 100},
    "seed": 0,
    "dealer": 0,
    "round_wind": "1z",
    "streak": 2,
    "actions": [
        "c:shuffle:7z7m6f8f5z2z4f7m5z4m3z8m1m2z3m5f2m3m4m7f7z1z2z3z4m6m1m1m5m8m7m1m4z8m2z6z6m7m"
        "3f3z9m8m6m2m5z5m3m1f3z9m5m1z2m4z6z5m3m9m4m6z6z1z6m7z1z4z7z2f9m2m5z4z",
        "c:dice:5,4",
        "0:pass",
        "1:pass",
        "0:discard:3z",
        "1:discard:3z",
        "0:discard:4z",
        "1:discard:1z",
        "0:discard:7z",
        "1:peng",
        "1:discard:1m",
        "0:chi:123m",
        "0:discard:7m",
        "1:chi:789m",
        "1:discard:2z",
        "0:discard:5z",
        "1:pass",
        "1:discard:4z",
        "0:zimo",
    ],
}


def _base_line(base: int, streak: int) -> str:
    """R-4.2: 底 = base × 2^w, as the settlement states it."""
    return f"底 = base {base} × 2^{streak} = {base * 2**streak}"


def test_a_xiamen_replay_keeps_the_dealer_streak(tmp_path: Path) -> None:
    record = Record.from_dict(XIAMEN_STREAK_2)
    screens = frames(record, Palette(ascii=True))
    assert len(screens) == 17 + 1  # the setup, then one screen per player action
    assert all("(庄 dealer 连庄数 3)" in screen for screen in screens)
    last = screens[-1]
    assert "result: seat 0 wins by zimo" in last
    assert _base_line(8, 2) in last  # 底 = 8 × 2^2 = 32
    assert "底 32" in last and "底 = base 8 × 2^0" not in last
    # The same hand without the streak is worth 底 8: the streak is what the replay keeps.
    fresh = frames(Record.from_dict({**XIAMEN_STREAK_2, "streak": 0}), Palette(ascii=True))
    assert _base_line(8, 0) in fresh[-1] and "(庄 dealer 连庄数 1)" in fresh[-1]
    path = tmp_path / "xiamen.json"
    path.write_text(json.dumps(XIAMEN_STREAK_2, ensure_ascii=False), encoding="utf-8")
    assert main(["replay", str(path), "--all", "--ascii"]) == 0
