"""``erren export`` and ``erren import``: records to mjai logs and back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from erren.cli.main import main
from erren.engine import Record, find_family, replay
from erren.sim import simulate


def _records(tmp_path: Path, rules: str, hands: int = 6) -> Path:
    path = tmp_path / f"{rules}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        simulate(find_family(rules), ["efficiency", "random"], hands=hands, seed=5, jsonl=out)
    return path


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("rules", ["guobiao-2p", "xiamen", "arcade"])
def test_export_then_import_gives_the_same_games(tmp_path: Path, rules: str) -> None:
    source = _records(tmp_path, rules)
    log, back = tmp_path / "log.jsonl", tmp_path / "back.jsonl"
    assert main(["export", str(source), "--format", "mjai", "-o", str(log)]) == 0
    messages = _lines(log)
    assert [m["type"] for m in messages].count("start_kyoku") == 6
    assert messages[0]["type"] == "start_game" and messages[-1]["type"] == "end_game"
    assert main(["import", str(log), "--format", "mjai", "-o", str(back)]) == 0
    originals = [Record.from_dict(d) for d in _lines(source)]
    imported = [Record.from_dict(d) for d in _lines(back)]
    assert len(imported) == 6
    for a, b in zip(originals, imported, strict=True):
        assert replay(b).fingerprint() == replay(a).fingerprint()


def test_seat_export_hides_the_other_hand_and_cannot_be_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _records(tmp_path, "guobiao-2p", hands=2)
    log = tmp_path / "seat0.jsonl"
    assert main(["export", str(source), "--seat", "0", "-o", str(log)]) == 0
    messages = _lines(log)
    assert messages[0]["id"] == 0
    starts = [m for m in messages if m["type"] == "start_kyoku"]
    assert all(m["tehais"][1] == ["?"] * 13 for m in starts)  # type: ignore[index]
    assert not any(m["type"] == "erren:shuffle" for m in messages)
    assert main(["import", str(log)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("erren import: line 1: this is seat 0's stream, not a full log")
    assert "\n" not in err


def test_server_records_with_extra_keys_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _records(tmp_path, "xiamen", hands=2)
    rows = [{**d, "seats": ["ann", "bob"], "game": 7} for d in _lines(source)]
    served = tmp_path / "served.jsonl"
    served.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert main(["export", str(served), "--format", "erren"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [json.loads(line) for line in out] == _lines(source)
    # one record as a JSON document, in the GET /games/{id} envelope
    single = tmp_path / "game.json"
    single.write_text(json.dumps({"id": 7, "record": rows[0]}, indent=2), encoding="utf-8")
    assert main(["export", str(single)]) == 0
    kinds = [json.loads(line)["type"] for line in capsys.readouterr().out.splitlines()]
    assert kinds.count("start_kyoku") == 1


@pytest.mark.parametrize(
    ("argv", "content", "message"),
    [
        (["export"], "not json\n", "erren export: line 1: line is not JSON"),
        (["export"], '{"format": "erren-hand"}\n', "erren export: line 1: the record does not"),
        (["export", "--format", "erren", "--seat", "1"], "{}\n", "erren export: --seat is for"),
        (["import"], "\n{oops\n", "erren import: line 2: not JSON"),
        (["import"], "[" * 5000 + "]" * 5000 + "\n", "erren import: line 1: nested too deeply"),
        (["export"], "[" * 5000 + "]" * 5000 + "\n", "erren export: line 1: line is nested too"),
        (["import"], '{"n": ' + "9" * 5000 + "}\n", "erren import: line 1: not usable JSON"),
        (
            ["import"],
            '{"n": "' + "x" * (1 << 20) + '"}\n',  # 1 Mi + 9 characters: over the line cap
            "erren import: line 1: too long: 1,048,585 characters, at most 1,048,576",
        ),
        (
            ["export"],
            "\n" + "[" * ((1 << 20) + 1) + "\n",
            "erren export: line 2: line is too long: 1,048,577 characters, at most 1,048,576",
        ),
        (["import"], '{"type": "tsumo"}\n', "erren import: line 1: tsumo outside a hand"),
        (["import"], '{"type": "start_game"}\n', "erren import: line 1: start_game needs"),
        (
            ["import"],
            '{"type": "start_game", "erren:ruleset": "xiamen", "erren:options": {}}\n',
            "erren import: the log holds no hand",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    content: str,
    message: str,
) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(content, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main([argv[0], str(path), *argv[1:], "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message)
    assert err.count("\n") == 1
    assert not out.exists()  # nothing half written


def test_a_tampered_log_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _records(tmp_path, "guobiao-2p", hands=1)
    log = tmp_path / "log.jsonl"
    assert main(["export", str(source), "-o", str(log)]) == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if '"type":"dahai"' in line and i > 6)
    message = json.loads(lines[i])
    message["pai"] = "N" if message["pai"] != "N" else "S"
    lines[i] = json.dumps(message)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["import", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"erren import: line {i + 1}: ")
    assert "does not follow" in err
