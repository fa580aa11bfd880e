"""Duplicate matches: mirrors, sign flips, seeds, workers, records and the statistics."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from erren.engine import Record, find_family, replay
from erren.engine.result import ResultKind, WinHow
from erren.sim.arena import ArenaResult, SideStats, arena, deals_of

FAMILIES = ("guobiao-2p", "xiamen", "arcade")
TIMING_LINES = ("decision p50", "decision p99", "decision mean", "speed")


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("bot", ["efficiency", "random"])
def test_a_bot_against_itself_comes_out_at_exactly_zero(family: str, bot: str) -> None:
    result = arena(find_family(family), (bot, bot), deals=20, seed=11)
    assert result.mean == 0.0
    assert result.advantages == [0.0] * 20
    assert all(first == -second for first, second in result.a_points)
    assert result.half_width == 0.0
    a, b = result.sides
    assert (a.wins, a.self_drawn, a.deal_ins, a.points, a.win_points, a.win_fan) == (
        b.wins,
        b.self_drawn,
        b.deal_ins,
        b.points,
        b.win_points,
        b.win_fan,
    )
    assert a.decisions == b.decisions


@pytest.mark.parametrize("family", FAMILIES)
def test_swapping_the_bots_flips_the_sign(family: str) -> None:
    rules = find_family(family)
    ab = arena(rules, ("efficiency", "random"), deals=20, seed=5)
    ba = arena(rules, ("random", "efficiency"), deals=20, seed=5)
    assert ba.a_points == [(-second, -first) for first, second in ab.a_points]
    assert ba.mean == -ab.mean
    assert ba.half_width == ab.half_width
    assert ab.mean > 0  # tile efficiency beats random play
    assert (ba.sides[0].wins, ba.sides[1].wins) == (ab.sides[1].wins, ab.sides[0].wins)


def test_same_seed_same_table_and_workers_change_nothing() -> None:
    rules = find_family("xiamen")
    sinks = [io.StringIO() for _ in range(3)]
    one = arena(rules, ("efficiency", "random"), deals=8, seed=3, jsonl=sinks[0])
    again = arena(rules, ("efficiency", "random"), deals=8, seed=3, jsonl=sinks[1])
    two = arena(rules, ("efficiency", "random"), deals=8, seed=3, workers=2, jsonl=sinks[2])
    other = arena(rules, ("efficiency", "random"), deals=8, seed=4)
    fixed = one.table(timings=False)
    assert fixed == again.table(timings=False) == two.table(timings=False)
    assert fixed != other.table(timings=False)
    assert sinks[0].getvalue() == sinks[1].getvalue() == sinks[2].getvalue()
    assert one.a_points == two.a_points
    assert one.sides[0].decisions == two.sides[0].decisions


def test_workers_play_the_table_with_its_options() -> None:
    rules = find_family("arcade", {"claim_privacy": True})
    sinks = [io.StringIO(), io.StringIO()]
    arena(rules, ("efficiency", "random"), deals=3, seed=8, jsonl=sinks[0])
    arena(rules, ("efficiency", "random"), deals=3, seed=8, workers=2, jsonl=sinks[1])
    assert sinks[0].getvalue() == sinks[1].getvalue()
    records = [json.loads(line) for line in sinks[1].getvalue().splitlines()]
    assert len(records) == 6 and all(r["options"]["claim_privacy"] is True for r in records)


def test_only_the_timing_lines_are_left_out() -> None:
    result = arena(find_family("guobiao-2p"), ("efficiency", "random"), deals=4, seed=1)
    full = result.table().splitlines()
    fixed = result.table(timings=False).splitlines()
    assert [line for line in full if not line.startswith(TIMING_LINES)] == fixed
    assert sum(line.startswith(TIMING_LINES) for line in full) == len(TIMING_LINES)


def test_deals_are_a_function_of_the_seed_and_their_index() -> None:
    long, short = deals_of(9, 30), deals_of(9, 10)
    assert long[:10] == short
    assert [d.dealer for d in short] == [0, 1] * 5
    assert [d.index for d in short] == list(range(10))


@pytest.mark.parametrize("family", FAMILIES)
def test_records_replay_to_the_counts(family: str) -> None:
    """The records, read back independently, give the same points, wins and deal-ins."""
    sink = io.StringIO()
    deals = 20
    result = arena(find_family(family), ("efficiency", "random"), deals=deals, seed=2, jsonl=sink)
    lines = sink.getvalue().splitlines()
    assert len(lines) == 2 * deals
    a_points: list[tuple[int, int]] = []
    wins, deal_ins, draws, moves = [0, 0], [0, 0], 0, 0
    for i in range(deals):
        first, second = (json.loads(lines[2 * i + k]) for k in (0, 1))
        assert first["seed"] == second["seed"] and first["dealer"] == second["dealer"] == i % 2
        assert first["actions"][0] == second["actions"][0]  # the same wall
        points = []
        for record, seat_of_a in ((first, 0), (second, 1)):
            state = replay(Record.from_dict(record))
            outcome = state.result
            assert outcome is not None and str(outcome) == record["result"]
            points.append(outcome.deltas[seat_of_a])
            moves += sum(1 for action in state.history if action.player >= 0)
            if outcome.kind is ResultKind.DRAW:
                draws += 1
            elif outcome.winner is not None:
                side = 0 if outcome.winner == seat_of_a else 1
                wins[side] += 1
                if outcome.how in (WinHow.DISCARD, WinHow.ROBBING):
                    deal_ins[1 - side] += 1
        a_points.append((points[0], points[1]))
    assert result.a_points == a_points
    assert [s.wins for s in result.sides] == wins
    assert [s.deal_ins for s in result.sides] == deal_ins
    assert result.draws == draws and result.aborts == 0
    assert wins[0] + wins[1] + draws == result.games == 2 * deals
    assert result.sides[0].decisions + result.sides[1].decisions == moves
    assert result.sides[0].points == sum(p + q for p, q in a_points) == -result.sides[1].points


def test_the_interval_by_hand() -> None:
    # d_i = (first + second) / 2 = 2, -1, 3, 0
    result = ArenaResult("guobiao-2p", ("x", "y"), 0, a_points=[(4, 0), (-2, 0), (3, 3), (1, -1)])
    assert result.advantages == [2.0, -1.0, 3.0, 0.0]
    assert result.mean == 1.0
    s = math.sqrt((1**2 + 2**2 + 2**2 + 1**2) / 3)
    hw = 1.96 * s / 2
    assert result.stdev == s
    assert result.half_width == hw
    assert result.headline() == (
        f"A − B (x − y): +1.00 points per hand ± {hw:.2f} (95% CI {1 - hw:+.2f} to {1 + hw:+.2f})"
    )
    result.sides[0].games, result.sides[0].deal_ins = 8, 1
    result.sides[1].games, result.sides[1].deal_ins = 8, 3
    assert result.cells() == f"+1.00 | [{1 - hw:+.2f}, {1 + hw:+.2f}] | 12.5% / 37.5%"


def test_one_deal_has_no_interval() -> None:
    result = ArenaResult("guobiao-2p", ("x", "y"), 0, a_points=[(5, -1)])
    assert result.mean == 2.0
    assert result.stdev is None and result.half_width is None
    assert "no interval" in result.headline()


def test_side_rates_and_percentiles() -> None:
    side = SideStats(games=8, wins=2, self_drawn=1, deal_ins=3, win_points=30, win_fan=20)
    side.times.extend([0.004, 0.001, 0.003, 0.002])
    assert (side.win_rate, side.deal_in_rate) == (2 / 8, 3 / 8)
    assert (side.avg_win_points, side.avg_win_fan) == (15.0, 10.0)
    # nearest rank over 1, 2, 3, 4 ms: p50 is the 2nd, p99 the 4th
    assert side.time_ms(0.5) == pytest.approx(2.0)
    assert side.time_ms(0.99) == pytest.approx(4.0)
    assert side.mean_time_ms == pytest.approx(2.5)
    assert SideStats().time_ms(0.5) == 0.0 and SideStats().avg_win_points == 0.0


def test_bad_arguments() -> None:
    rules = find_family("guobiao-2p")
    with pytest.raises(ValueError, match="two bots"):
        arena(rules, ("random",), deals=1)
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        arena(rules, ("random", "nobody"), deals=1)
    with pytest.raises(ValueError, match="deals"):
        arena(rules, ("random", "random"), deals=0)
    with pytest.raises(ValueError, match="workers"):
        arena(rules, ("random", "random"), deals=1, workers=0)


@pytest.mark.slow
def test_an_expert_variant_is_named_by_its_changed_knobs() -> None:
    """Slow (about 5 s): 大师 plays 15 deals in it, some in worker processes."""
    rules = find_family("guobiao-2p")
    # The defaults written out are 大师 itself: exactly level, in worker processes as well.
    same = arena(rules, ("expert[one_away_flex=1; lookahead=true]", "master"), deals=3, seed=2)
    assert same.advantages == [0.0] * 3
    assert same.bots == ("expert[one_away_flex=1; lookahead=true]", "master")
    flat = ("expert[one_away_flex=0;claim_two_away_factor=-1]", "master")
    one = arena(rules, flat, deals=6, seed=2)
    two = arena(rules, flat, deals=6, seed=2, workers=2)
    assert one.a_points == two.a_points
    assert one.sides[0].decisions == two.sides[0].decisions
    with pytest.raises(ValueError, match="unknown expert knob 'flex'"):
        arena(rules, ("expert[flex=1]", "master"), deals=1)
    with pytest.raises(ValueError, match="one_away_flex takes float, not 'much'"):
        arena(rules, ("expert[one_away_flex=much]", "master"), deals=1)


def test_the_levels_benchmark_prints_one_row_per_table_and_level() -> None:
    """``python -m benchmarks.bench_arena``, as the README runs it, on a few deals."""
    args = ["--deals", "4", "--workers", "1", "--levels", "novice", "normal"]
    args += ["--rules", "guobiao-2p:gb", "xiamen"]
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_arena", *args],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    rows = [line for line in out.splitlines() if line.startswith("| ")]
    assert [r.split(" | ")[:3] for r in rows[2:]] == [
        ["| guobiao-2p:gb", "novice", "4"],
        ["| guobiao-2p:gb", "normal", "4"],
        ["| xiamen", "novice", "4"],
        ["| xiamen", "normal", "4"],
    ]
    normal_vs_normal = [r for r in rows if "| normal |" in r]
    assert all("| +0.00 | [+0.00, +0.00] |" in r for r in normal_vs_normal)
