"""Type stubs of the C fan calculator (see ``_fastfan.c``);
:func:`erren.families.guobiao.scoring.score_fast`
is the typed entry point."""

from collections.abc import Sequence
from typing import Any, overload

SELF_DRAWN: int
LAST_COPY: int
LAST_TILE: int
KONG_REPLACEMENT: int
ROBBING_KONG: int
TING: int
TIANTING: int
TIANHU: int
DIHU: int
N_IDS: int

@overload
def fan_counts(
    concealed: Sequence[int] | bytes,
    melds: Sequence[int],
    winning: int | None,
    flags: int,
    seat_wind: int | None,
    round_wind: int,
    flowers: int,
    table: int,
    rows: None = None,
    /,
) -> tuple[int, tuple[tuple[int, int], ...]] | None: ...
@overload
def fan_counts(
    concealed: Sequence[int] | bytes,
    melds: Sequence[int],
    winning: int | None,
    flags: int,
    seat_wind: int | None,
    round_wind: int,
    flowers: int,
    table: int,
    rows: tuple[Any, ...],
    /,
) -> tuple[int, tuple[tuple[Any, int], ...]] | None: ...
