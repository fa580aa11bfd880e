"""The published conformance corpus (``conformance/*.jsonl``): erren passes it, the generator
rebuilds it byte for byte, a tampered row is named by its id, a malformed file gets a one-line
error with its line number; and the rows carry the spec's own figures where the spec has them.

This is how CI runs the corpus: :func:`test_erren_passes_the_committed_corpus` checks every
row of the nine files (10–20 s on one core).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from erren.cli.main import main
from erren.conformance.adapter import corpus_families
from erren.conformance.check import check_file
from erren.conformance.generate import DEFAULT_SEED, Sizes, generate
from erren.conformance.rows import CorpusError, dump_row
from erren.engine.actions import Action
from erren.hand import Hand
from erren.mjai.tiles import parse_mjai_tile
from erren.notation import parse_tiles

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "conformance"
FILES = sorted(CORPUS.glob("*.jsonl"))
SMALL = Sizes(
    wins={"gb_wins": 12, "two_player_wins": 6, "xiamen_wins": 10, "arcade_wins": 10},
    shapes=16,
    sequences=2,
)
FAMILIES = ("guobiao-2p", "xiamen", "arcade")


def rows_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def find(path: Path, **fields: object) -> dict[str, Any]:
    for row in rows_of(path):
        if all(row.get(k) == v for k, v in fields.items()):
            return row
    raise AssertionError(f"no row {fields} in {path.name}")


def test_the_corpus_has_every_family_and_kind() -> None:
    assert corpus_families() == FAMILIES
    names = {p.name for p in FILES}
    assert names == {f"{f}-{k}.jsonl" for f in FAMILIES for k in ("wins", "shapes", "sequences")}
    assert sum(p.stat().st_size for p in FILES) < 6_000_000


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_erren_passes_the_committed_corpus(path: Path) -> None:
    report = check_file(path)
    assert report.checked == len(rows_of(path)) > 0
    assert not report.mismatches, "\n".join(str(m) for m in report.mismatches[:5])


def test_the_cli_checks_files_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    path = CORPUS / "xiamen-sequences.jsonl"
    assert main(["conformance", str(path)]) == 0
    n = len(rows_of(path))
    assert f"{path}: {n} rows checked, {n} passed (ok)" in capsys.readouterr().out


def test_every_third_row_is_a_deterministic_sample(capsys: pytest.CaptureFixture[str]) -> None:
    path = CORPUS / "arcade-shapes.jsonl"
    n = len(rows_of(path))
    assert main(["conformance", "--every", "3", str(path)]) == 0
    assert f"{(n + 2) // 3} rows checked" in capsys.readouterr().out


# --------------------------------------------------------------------------------------------
# The generator


@pytest.mark.slow
def test_regenerating_with_the_seed_gives_the_same_bytes(tmp_path: Path) -> None:
    """Slow (about 5 s): the whole corpus is generated again from its seed."""
    tally = generate(tmp_path, seed=DEFAULT_SEED, quiet=True)
    assert not tally.unexplained
    for path in FILES:
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name


def test_a_small_run_is_a_function_of_the_seed(tmp_path: Path) -> None:
    generate(tmp_path / "a", seed=7, sizes=SMALL, quiet=True)
    generate(tmp_path / "b", seed=7, sizes=SMALL, quiet=True)
    generate(tmp_path / "c", seed=8, sizes=SMALL, quiet=True)
    for path in sorted((tmp_path / "a").glob("*.jsonl")):
        assert (tmp_path / "b" / path.name).read_bytes() == path.read_bytes()
    changed = [
        p.name
        for p in sorted((tmp_path / "a").glob("*.jsonl"))
        if (tmp_path / "c" / p.name).read_bytes() != p.read_bytes()
    ]
    assert len(changed) == 9
    assert all(not check_file(p).mismatches for p in sorted((tmp_path / "a").glob("*.jsonl")))


# --------------------------------------------------------------------------------------------
# Tampering and malformed files


def _tamper(tmp_path: Path, name: str, row_id: str, change: dict[str, Any]) -> Path:
    out = tmp_path / name
    lines = []
    for row in rows_of(CORPUS / name):
        if row["id"] == row_id:
            expected = dict(row["expected"])
            expected.update(change)
            row["expected"] = expected
        lines.append(dump_row(row))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def test_a_tampered_total_is_reported_by_its_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    row = rows_of(CORPUS / "guobiao-2p-wins.jsonl")[40]
    total = row["expected"]["total"]
    path = _tamper(tmp_path, "guobiao-2p-wins.jsonl", str(row["id"]), {"total": total + 1})
    assert main(["conformance", str(path)]) == 1
    out = capsys.readouterr().out
    n = len(rows_of(path))
    assert f"{n} rows checked, {n - 1} passed (1 mismatched)" in out
    assert f"{row['id']} (line 41): total: corpus {total + 1}, erren {total}" in out


def test_a_tampered_wait_is_reported(tmp_path: Path) -> None:
    row = next(r for r in rows_of(CORPUS / "xiamen-shapes.jsonl") if r["expected"].get("waits"))
    path = _tamper(tmp_path, "xiamen-shapes.jsonl", str(row["id"]), {"waits": []})
    [mismatch] = check_file(path).mismatches
    assert mismatch.id == row["id"]
    assert mismatch.differences[0].startswith("waits: corpus [], erren [")


def test_a_tampered_legal_list_names_the_step(tmp_path: Path) -> None:
    row = rows_of(CORPUS / "arcade-sequences.jsonl")[3]
    legal = [list(step) for step in row["expected"]["legal"]]
    number = next(i for i, step in enumerate(legal) if len(step) > 1)
    dropped = legal[number].pop()
    path = _tamper(tmp_path, "arcade-sequences.jsonl", str(row["id"]), {"legal": legal})
    [mismatch] = check_file(path).mismatches
    play = row["steps"][number]
    assert mismatch.differences == (
        f"step {number + 1} (before {play}): legal actions differ: "
        f"erren lacks [], erren adds [{dropped!r}]",
    )


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("{not json", "not JSON"),
        ('{"kind": "win"}', 'a win row needs "id"'),
        ('{"id": "x", "kind": "bet"}', '"kind" must be one of win, shape, sequence'),
        (
            '{"id": "x", "kind": "shape", "family": "riichi", "source": "s", "expected": {},'
            ' "tiles": "1m", "tiles_mjai": [], "shapes": "x"}',
            '"family" must be one of guobiao-2p, xiamen, arcade',
        ),
        (
            '{"id": "x", "kind": "shape", "family": "arcade", "source": "s", "expected": {},'
            ' "tiles": 5, "tiles_mjai": [], "shapes": "arcade"}',
            '"tiles" must be a string, not 5',
        ),
    ],
)
def test_a_malformed_line_is_one_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, problem: str
) -> None:
    good = (CORPUS / "arcade-shapes.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([*good, line]) + "\n", encoding="utf-8")
    assert main(["conformance", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    [message] = captured.err.splitlines()
    assert message.startswith(f"erren conformance: {path}:3: {problem}")


def test_a_duplicate_id_is_malformed(tmp_path: Path) -> None:
    first = (CORPUS / "arcade-shapes.jsonl").read_text(encoding="utf-8").splitlines()[0]
    path = tmp_path / "dup.jsonl"
    path.write_text(f"{first}\n\n{first}\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=r"dup.jsonl:3: duplicate id 'arcade/shape/00001'"):
        check_file(path)


def test_a_missing_file_is_malformed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "/nonexistent/x.jsonl"]) == 2
    assert "cannot read the file" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# What the rows say, against the specs


def test_spec_examples_carry_the_spec_figures() -> None:
    # guobiao-2p §4.2.3 example 10, table 2p: 九莲宝灯 32 + 双暗刻 4 + 幺九刻 2 = 38.
    row = find(CORPUS / "guobiao-2p-wins.jsonl", source="guobiao-2p §4.2.3 example 10")
    assert row["hand"] == "1112345678999m +5m"
    assert row["expected"] == {
        "rows": [["九莲宝灯", 32, 1], ["双暗刻", 4, 1], ["幺九刻", 2, 1]],
        "total": 38,
    }
    # xiamen X-13: 水 6, 底 32, M 4: raw 152 capped to 100, + 游金 bonus 50 = 150.
    row = find(CORPUS / "xiamen-wins.jsonl", source="xiamen §5.1 X-13")
    expected = row["expected"]
    assert isinstance(expected, dict)
    assert (expected["total"], expected["multiplier"], expected["bonus"]) == (6, 4, 50)
    assert expected["points"] == 150
    # arcade E13: 大四喜 ×2 + 字一色 ×1 = 3 yakuman, versus points capped at 13.
    row = find(CORPUS / "arcade-wins.jsonl", source="arcade §6 E13")
    assert row["expected"] == {
        "rows": [["大四喜", 2, 1], ["字一色", 1, 1]],
        "yakuman": 3,
        "total": 0,
        "points": 13,
    }


def test_hands_are_also_in_mjai_names() -> None:
    # 5z 白 = P, 6z 发 = F, 7z 中 = C; a claimed pung is mjai's pon.
    row = find(CORPUS / "guobiao-2p-wins.jsonl", hand="123m1z555z666z [777z'] +1z")
    assert row["hand_mjai"] == {
        "concealed": ["1m", "2m", "3m", "E", "P", "P", "P", "F", "F", "F"],
        "melds": [{"type": "pon", "tiles": ["C", "C", "C"], "claimed": "C"}],
        "winning": "E",
    }


def test_gb_rows_are_cross_checked_and_the_kong_difference_is_marked() -> None:
    rows = [r for r in rows_of(CORPUS / "guobiao-2p-wins.jsonl") if "/win/gb/" in str(r["id"])]
    assert len(rows) == 1200  # the default size of the gb stream
    assert all(str(r["source"]).endswith("oracle-checked: pymahjonggb") for r in rows)
    marked = [r for r in rows if "differs" in r]
    assert marked
    for row in marked:
        assert str(row["differs"]).startswith("guobiao-2p §4.1 Kong fans")
        names = [name for name, _, _ in row["expected"]["rows"]]
        # one melded and one concealed kong: 明杠 and 暗杠 each, never 明暗杠.
        assert "明杠" in names
        assert "暗杠" in names
        assert "明暗杠" not in names


def test_every_play_of_a_sequence_is_among_its_legal_actions() -> None:
    for family in FAMILIES:
        for row in rows_of(CORPUS / f"{family}-sequences.jsonl"):
            steps = row["steps"]
            legal = row["expected"]["legal"]
            assert isinstance(steps, list)
            assert len(steps) == len(legal)
            for play, allowed in zip(steps, legal, strict=True):
                if Action.parse(play).kind.is_chance:
                    assert allowed == []
                else:
                    assert play in allowed
                    assert allowed == sorted(allowed)


def test_a_seven_pairs_quad_wait_is_marked_as_differing_from_riichi() -> None:
    # 2223344556699m waits: 2m (2222 as two pairs + 33 44 55 66 99, guobiao-2p §3.2 / D22),
    # 3m (222 333 456 456 + 99), 6m (222 345 345 666 + 99), 9m (222 345 345 999 + 66).
    # Riichi's seven pairs need seven different kinds, so mahjong has no 2m.
    row = find(CORPUS / "guobiao-2p-shapes.jsonl", tiles="2223344556699m")
    expected = row["expected"]
    assert isinstance(expected, dict)
    assert expected["waits"] == ["2m", "3m", "6m", "9m"]
    assert expected["shanten"] == 0
    assert str(row["differs"]).startswith("guobiao-2p §3.2 and D22")


def test_mjai_names_read_back_as_the_notation_tiles() -> None:
    for family in FAMILIES:
        for row in rows_of(CORPUS / f"{family}-wins.jsonl"):
            hand = Hand.parse(str(row["hand"]))
            mjai = row["hand_mjai"]
            assert isinstance(mjai, dict)
            assert [parse_mjai_tile(n) for n in mjai["concealed"]] == list(hand.concealed)
            melds = [[parse_mjai_tile(n) for n in m["tiles"]] for m in mjai.get("melds", [])]
            assert melds == [list(m.tiles) for m in hand.melds]
            if hand.winning is not None:
                assert parse_mjai_tile(mjai["winning"]) == hand.winning
        for row in rows_of(CORPUS / f"{family}-sequences.jsonl"):
            wall = str(row["setup"][0]).removeprefix("c:shuffle:")
            assert [parse_mjai_tile(n) for n in row["wall_mjai"]] == parse_tiles(wall)


@settings(max_examples=3, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_any_seed_gives_a_corpus_erren_passes_and_the_oracles_explain(seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        tally = generate(out, seed=seed, sizes=SMALL, quiet=True)
        assert not tally.unexplained
        for path in sorted(out.glob("*.jsonl")):
            assert not check_file(path).mismatches, path.name
