"""mjai tile names: every erren kind has one, and they read back."""

from __future__ import annotations

import pytest

from erren.errors import NotationError
from erren.mjai import HIDDEN, mjai_tile, mjai_tiles, parse_mjai_tile
from erren.tiles import Tile


def test_names_follow_mjai() -> None:
    assert mjai_tiles([Tile.M1, Tile.P9, Tile.S5]) == ["1m", "9p", "5s"]
    assert mjai_tiles(range(Tile.EAST, Tile.RED + 1)) == ["E", "S", "W", "N", "P", "F", "C"]
    assert mjai_tiles([Tile.F1, Tile.F8]) == ["1f", "8f"]
    assert mjai_tile(None) == HIDDEN == "?"


def test_every_kind_reads_back() -> None:
    for tile in Tile:
        assert parse_mjai_tile(mjai_tile(tile)) is tile


def test_red_fives_read_as_fives() -> None:
    assert parse_mjai_tile("5mr") is Tile.M5
    assert parse_mjai_tile("5sr") is Tile.S5


@pytest.mark.parametrize("bad", ["?", "0m", "5z", "1z", "", None, 3, "Wh"])
def test_bad_names_are_refused_by_name(bad: object) -> None:
    with pytest.raises(NotationError, match="not an mjai tile"):
        parse_mjai_tile(bad)
