"""Points to beans, once, for every family (guobiao-2p §6.2–6.4, xiamen R-4.10, arcade R2.25).

Every figure is computed here from the spec's formula — ``beans = points × stake``, paid up to the
payer's balance — with the tiers of guobiao-2p §6.3 written out, never read back from the code.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from erren.engine import find_family
from erren.families.guobiao.scoring.settlement import SettlementOptions, settle_escape, settle_win
from erren.server.rooms import TIERS, catalogue, find_room_tier, find_tier, rooms_admitting
from erren.server.settlement import BeanMove, to_beans

# guobiao-2p §6.3, as printed in the spec: (id, 底分, entry minimum, entry maximum)
SPEC_TIERS = [
    ("novice", 50, 1_000, 60_000),
    ("normal", 200, 5_000, 80_000),
    ("junior", 500, 10_000, 100_000),
    ("intermediate", 2_000, 50_000, 1_000_000),
    ("senior", 6_000, 200_000, 2_000_000_000),
]
RICH = (10**12, 10**12)


def test_the_five_tiers_of_seed_002() -> None:
    assert [(t.id, t.stake, t.entry_min, t.entry_max) for t in TIERS.values()] == SPEC_TIERS
    for _, stake, entry_min, _ in SPEC_TIERS:  # each minimum covers a full capped loss (§6.1)
        assert entry_min >= 13 * stake
    assert find_tier("novice") is find_tier("新手场") is find_tier("Novice") is TIERS["novice"]
    with pytest.raises(ValueError, match="no room tier 'vip'"):
        find_tier("vip")


def test_every_family_has_every_tier() -> None:
    rooms = catalogue()
    for family in ("guobiao-2p", "xiamen", "arcade"):
        for tier, stake, *_ in SPEC_TIERS:
            room = rooms[f"{family}/{tier}"]
            assert (room.family, room.stake) == (family, stake)
            # the engine of a bean room plays the family's own rules, in points
            assert room.options == {}


@pytest.mark.parametrize(("tier", "stake", "entry_min", "entry_max"), SPEC_TIERS)
def test_escape_costs_per_family_and_tier(
    tier: str, stake: int, entry_min: int, entry_max: int
) -> None:
    # guobiao-2p §6.5: 13 points; xiamen: 400 points; arcade R2.25: 13 × base points (1)
    assert find_room_tier(f"guobiao-2p/{tier}").escape_beans == 13 * stake
    assert find_room_tier(f"xiamen/{tier}").escape_beans == 400 * stake
    base = find_family("arcade").options.base_points  # type: ignore[attr-defined]
    assert find_room_tier(f"arcade/{tier}").escape_beans == 13 * base * stake
    json = find_room_tier(f"guobiao-2p/{tier}").to_json()
    assert (json["account_needed"], json["escape_points"], json["escape_beans"]) == (
        True,
        13,
        13 * stake,
    )


def test_the_worked_examples_of_6_7_in_beans() -> None:
    # gb, 普通场: W1 25 fan → P = 13; the discarder pays 13 × 200 × 1 = 2,600 beans.
    w1 = settle_win(25, winner=1, self_drawn=False, options=SettlementOptions(fan_table="gb"))
    assert to_beans(w1.deltas, 200, RICH) == BeanMove(0, 1, 2_600, 2_600)
    # 2p, 新手场: W12 50 fan → 2,500 beans; a balance of 1,800 pays 1,800 and is left with 0.
    w12 = settle_win(50, winner=0, self_drawn=True)
    assert to_beans(w12.deltas, 50, RICH) == BeanMove(1, 0, 2_500, 2_500)
    capped = to_beans(w12.deltas, 50, (20_000, 1_800))
    assert capped == BeanMove(1, 0, 2_500, 1_800)
    assert capped.capped and capped.deltas() == (1_800, -1_800)
    assert not TIERS["novice"].admits(1_800 - 1_800)  # left with 0: leaves the room
    # Escape in 中级场: 13 × 2,000 = 26,000 beans to the opponent.
    escape = settle_escape(0)
    assert to_beans(escape.deltas, 2_000, RICH) == BeanMove(0, 1, 26_000, 26_000)
    # 荒庄 in any room: nothing.
    for _, stake, *_ in SPEC_TIERS:
        assert to_beans((0, 0), stake, RICH) == BeanMove(None, None, 0, 0)


def test_the_double_stake_bug_is_gone() -> None:
    # A 12-fan 2p win on a discard in 新手场 moves 12 × 50 = 600 beans, not 10,000.
    result = find_family("guobiao-2p")  # the engine settles in points
    assert result.options.to_dict().get("room") is None
    win = settle_win(12, winner=1, self_drawn=False)
    assert win.deltas == (-12, 12)
    assert to_beans(win.deltas, 50, (10_000, 10_000)).paid == 600


def test_entry_limits_and_the_rooms_still_open() -> None:
    normal = TIERS["normal"]
    assert (normal.admits(4_999), normal.admits(5_000), normal.admits(80_000)) == (
        False,
        True,
        True,
    )
    assert not normal.admits(80_001)
    assert [r.id for r in rooms_admitting("xiamen", 55_000)] == [
        "xiamen/novice",
        "xiamen/normal",
        "xiamen/junior",
        "xiamen/intermediate",
    ]
    assert rooms_admitting("guobiao-2p", 500) == ()


@pytest.mark.parametrize(
    ("deltas", "stake", "balances", "why"),
    [
        ((3, -2), 50, RICH, "sum to 0"),
        ((True, -1), 50, RICH, "whole number, not True"),
        ((5, -5), 0, RICH, "stake"),
        ((5, -5), 50, (10, -1), "balance"),
    ],
)
def test_bad_input_is_refused(
    deltas: tuple[int, int], stake: int, balances: tuple[int, int], why: str
) -> None:
    with pytest.raises(ValueError, match=why):
        to_beans(deltas, stake, balances)


@given(
    points=st.integers(-10_000, 10_000),
    stake=st.sampled_from([t[1] for t in SPEC_TIERS]),
    balances=st.tuples(st.integers(0, 10**9), st.integers(0, 10**9)),
)
def test_beans_are_conserved_and_never_below_zero(
    points: int, stake: int, balances: tuple[int, int]
) -> None:
    move = to_beans((points, -points), stake, balances)
    d0, d1 = move.deltas()
    assert d0 + d1 == 0
    assert balances[0] + d0 >= 0 and balances[1] + d1 >= 0
    assert move.owed == abs(points) * stake
    if move.payer is not None:
        assert move.paid == min(abs(points) * stake, balances[move.payer])


def test_the_modules_examples() -> None:
    import doctest  # noqa: PLC0415

    from erren.server import rooms, settlement  # noqa: PLC0415

    for module in (rooms, settlement):
        assert doctest.testmod(module).failed == 0


def test_the_rooms_route_says_what_leaving_costs(tmp_path: Any) -> None:
    """``GET /rooms`` over a real server: every room with its stake and escape cost in beans,
    computed here from the spec (13, 400, 13 × 1 points × the tier's stake)."""
    import asyncio  # noqa: PLC0415

    import httpx  # noqa: PLC0415

    from ._support.beans_play import serving  # noqa: PLC0415

    async def run() -> list[dict[str, Any]]:
        async with (
            serving(f"sqlite:///{tmp_path / 'rooms.sqlite3'}") as served,
            httpx.AsyncClient(base_url=served.url) as http,
        ):
            reply = await http.get("/rooms")
            reply.raise_for_status()
            return list(reply.json())

    rooms = {r["id"]: r for r in asyncio.run(run())}
    points = {"guobiao-2p": 13, "xiamen": 400, "arcade": 13}
    assert len(rooms) == 15
    for family, escape in points.items():
        for tier, stake, entry_min, entry_max in SPEC_TIERS:
            room = rooms[f"{family}/{tier}"]
            assert (room["stake"], room["entry_min"], room["entry_max"]) == (
                stake,
                entry_min,
                entry_max,
            )
            assert room["account_needed"] is True
            assert (room["escape_points"], room["escape_beans"]) == (escape, escape * stake)
            # the stake is per point: guobiao-2p's points are its fan (1 番 = 1 分, §6.1)
            # (and a figure other than one is "fan", "points" in English)
            unit = ("番", "fan", "fan") if family == "guobiao-2p" else ("分", "point", "points")
            assert (room["unit"]["zh"], room["unit"]["en"], room["unit"]["en_many"]) == unit
