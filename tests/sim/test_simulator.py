"""The batch simulator: counts add up, runs are reproducible, records replay."""

from __future__ import annotations

import io
import json

import pytest

from erren.engine import Record, find_family, replay
from erren.engine.result import WinHow
from erren.sim import Stats, simulate

RULES = find_family("guobiao-2p")


def _fixed(stats: Stats) -> str:
    return stats.table(timings=False)


def test_counts_add_up() -> None:
    stats = simulate(RULES, ("random", "efficiency"), hands=60, seed=2)
    assert stats.hands == 60
    assert sum(stats.wins) + stats.draws + stats.aborts == 60
    assert stats.points[0] + stats.points[1] == 0  # score-only room: zero-sum
    assert stats.bots == ("random", "efficiency")
    assert all(s <= w for s, w in zip(stats.self_drawn, stats.wins, strict=True))
    assert stats.avg_actions > 0 and stats.hands_per_second > 0


@pytest.mark.parametrize("bots", [("random", "random"), ("efficiency", "random")])
def test_same_seed_same_result(bots: tuple[str, str]) -> None:
    a = simulate(RULES, bots, hands=40, seed=5)
    b = simulate(RULES, bots, hands=40, seed=5)
    c = simulate(RULES, bots, hands=40, seed=6)
    assert _fixed(a) == _fixed(b)
    assert _fixed(a) != _fixed(c)


def test_jsonl_records_replay_to_the_same_result() -> None:
    sink = io.StringIO()
    stats = simulate(RULES, ("efficiency", "random"), hands=15, seed=3, jsonl=sink)
    lines = sink.getvalue().splitlines()
    assert len(lines) == 15
    wins = [0, 0]
    for line in lines:
        data = json.loads(line)
        state = replay(Record.from_dict(data))
        assert state.is_terminal and str(state.result) == data["result"]
        if state.result is not None and state.result.winner is not None:
            wins[state.result.winner] += 1
    assert wins == stats.wins


def test_hands_alternate_the_dealer() -> None:
    sink = io.StringIO()
    simulate(RULES, ("random", "random"), hands=6, seed=1, jsonl=sink)
    dealers = [json.loads(line)["dealer"] for line in sink.getvalue().splitlines()]
    assert dealers == [0, 1, 0, 1, 0, 1]


def test_matches_group_hands_and_rotate_the_dealer() -> None:
    sink = io.StringIO()
    stats = simulate(RULES, ("efficiency", "random"), hands=25, seed=4, match_length=10, jsonl=sink)
    assert stats.matches == 3  # 10 + 10 + 5
    assert sum(stats.match_wins) + stats.match_ties == 3
    assert "matches won" in stats.table()
    records = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert records[0]["dealer"] == 0  # first_ready: seat 0 deals hand 1 of each match
    assert records[10]["dealer"] == 0


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="two bots"):
        simulate(RULES, ("random",), hands=1)
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(RULES, ("random", "nobody"), hands=1)
    with pytest.raises(ValueError, match="match_length"):
        simulate(RULES, ("random", "random"), hands=1, match_length=0)


def test_progress_is_called_for_every_hand() -> None:
    calls: list[tuple[int, int]] = []
    simulate(
        RULES, ("random", "random"), hands=5, seed=0, progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(i, 5) for i in range(1, 6)]


def test_other_options_play_through() -> None:
    for options in ({"flowers": True}, {"fan_table": "gb", "suit": "p"}, {"ting_auto_hu": False}):
        stats = simulate(find_family("guobiao-2p", **options), ("efficiency", "random"), hands=20)
        assert stats.hands == 20


@pytest.mark.parametrize(
    ("family", "label"),
    [("guobiao-2p", "avg fan per win    "), ("xiamen", "avg 水 per win     ")],
)
def test_the_summary_averages_the_family_unit_and_names_its_win_types(
    family: str, label: str
) -> None:
    """The unit is the family's ``score_unit`` (xiamen counts 水, R-4.3), aligned to 19
    columns; xiamen's own ways to win are listed by its names (R-3.6)."""
    stats = simulate(find_family(family), ("efficiency", "efficiency"), hands=30, seed=4)
    table = _fixed(stats)
    assert f"{label}{stats.avg_fan:.2f}" in table.splitlines()
    own = set(stats.by_how) - set(WinHow)
    assert ("win types" in table) == bool(own)
    for how in own:
        assert f"{find_family(family).win_names[how]} {stats.by_how[how]}" in table
