"""The bean leaderboard's bands and the anonymous bean-room record (erren.server.privacy)."""

from __future__ import annotations

import pytest

from erren.server.privacy import BeanBand, bean_band, record_for


@pytest.mark.parametrize(
    ("net", "band"),
    [
        (0, BeanBand(0, 1_000)),
        (999, BeanBand(0, 1_000)),
        (1_000, BeanBand(1_000, 5_000)),
        (9_999, BeanBand(5_000, 10_000)),
        (650_000, BeanBand(500_000, 1_000_000)),
        (1_000_000, BeanBand(1_000_000, None)),
        (-1, BeanBand(-1_000, 0)),
        (-650, BeanBand(-1_000, 0)),
        (-1_000, BeanBand(-5_000, -1_000)),
        (-2_000_000, BeanBand(None, -1_000_000)),
    ],
)
def test_a_net_is_shown_by_its_band(net: int, band: BeanBand) -> None:
    assert bean_band(net) == band


RECORD = {
    "ruleset": "guobiao-2p",
    "seats": ["ann", "bob"],
    "outcome": {"kind": "win", "deltas": [8, -8], "beans": [400, -400]},
}


def test_a_bean_room_record_is_anonymous_to_strangers_only() -> None:
    seats = (11, 12)
    stranger = record_for(RECORD, "guobiao-2p/novice", seats, 13)
    assert stranger["seats"] == [None, None]
    assert stranger["outcome"] == {"kind": "win", "deltas": [8, -8]}
    assert record_for(RECORD, "guobiao-2p/novice", seats, None) == stranger
    assert record_for(RECORD, "guobiao-2p/novice", seats, 12) is RECORD
    assert RECORD["seats"] == ["ann", "bob"]  # the stored record is left alone


@pytest.mark.parametrize("room", [None, "private", "computer"])
def test_a_game_that_moves_no_beans_is_shown_whole(room: str | None) -> None:
    assert record_for(RECORD, room, (11, None), None) is RECORD
