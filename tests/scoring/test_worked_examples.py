"""Every worked example of guobiao-2p §4.2.3 (table `2p`) and §5.3 (both tables)."""

from __future__ import annotations

from typing import Any

import pytest

from erren.families.guobiao.scoring import WinContext, score
from erren.hand import Hand

from ._support import EXAMPLES_2P, WORKED


def _points(result: Any) -> dict[str, int]:
    return {hit.fan.name: hit.points for hit in result.fans}


@pytest.mark.parametrize(
    ("hand", "ctx", "fans", "total"),
    [pytest.param(h, c, f, t, id=label) for label, h, c, f, t in EXAMPLES_2P],
)
def test_2p_examples(hand: str, ctx: WinContext, fans: dict[str, int], total: int) -> None:
    result = score(Hand.parse(hand), ctx, table="2p")
    assert _points(result) == fans, result.explain()
    assert result.total == total


@pytest.mark.parametrize(
    ("hand", "ctx", "fans", "total"),
    [pytest.param(h, c, f2, t2, id=label) for label, h, c, f2, t2, _, _ in WORKED],
)
def test_worked_2p(hand: str, ctx: WinContext, fans: dict[str, int], total: int) -> None:
    result = score(Hand.parse(hand), ctx, table="2p")
    assert _points(result) == fans, result.explain()
    assert result.total == total


@pytest.mark.parametrize(
    ("hand", "ctx", "fans", "total"),
    [pytest.param(h, c, fg, tg, id=label) for label, h, c, _, _, fg, tg in WORKED],
)
def test_worked_gb(hand: str, ctx: WinContext, fans: dict[str, int], total: int) -> None:
    result = score(Hand.parse(hand), ctx, table="gb")
    assert _points(result) == fans, result.explain()
    assert result.total == total


def test_w6_tables_choose_different_readings() -> None:
    hand = Hand.parse("222233334444m5z +5z")
    chows_2p = [g for g in score(hand, table="2p").reading.groups if g.kind.value == "chow"]
    chows_gb = [g for g in score(hand, table="gb").reading.groups if g.kind.value == "chow"]
    assert len(chows_2p) == 1
    assert len(chows_gb) == 4


def test_w14_min_fan_excludes_flowers() -> None:
    result = score(Hand.parse("555m678m1z [1'23m] [2'34m] +1z"), WinContext(flowers=3))
    assert result.total == 10
    assert result.total_without_flowers == 7
