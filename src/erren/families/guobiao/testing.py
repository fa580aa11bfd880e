"""guobiao-2p's reading of the random wins of :mod:`erren.testing.wins`: a case's
:class:`~erren.families.guobiao.scoring.WinContext`, for the tests that score the cases with
the ``gb`` table (the differential test against PyMahjongGB, the fast path's test)."""

from __future__ import annotations

from erren.families.guobiao.scoring import WinContext
from erren.testing.wincase import Case
from erren.tiles import Tile

__all__ = ["win_context"]


def win_context(case: Case) -> WinContext:
    """The context of ``case``'s win: its flags, winds (seat and round, 0..3 from 东) and
    flowers."""
    return WinContext(
        self_drawn=case.self_drawn,
        last_copy=case.last_copy,
        last_tile=case.last_tile,
        kong_replacement=case.kong_replacement,
        robbing_kong=case.robbing_kong,
        seat_wind=Tile(27 + case.seat_wind),
        round_wind=Tile(27 + case.round_wind),
        flowers=case.flowers,
    )
