"""Support code of the differential tests (not a test module)."""

from __future__ import annotations

import pytest

from erren.testing.hands import WALL_NAMES

WALLS = [
    pytest.param(name, marks=pytest.mark.slow) if name == "136" else name for name in WALL_NAMES
]
"""The walls a differential test deals from: the 64-tile wall in every run, the 136-tile
wall (as many hands again, of every suit) in ``make test`` only (marked ``slow``)."""
