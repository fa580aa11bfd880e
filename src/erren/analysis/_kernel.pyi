"""Type stubs of the C kernel (see ``_kernel.c``).  ``mask`` is an OR of ``Shape.bit``."""

from collections.abc import Sequence

TABLE_BYTES: int
"""Bytes of the two distance tables (suit 5^9 rows, honor 5^7 rows, 10 bytes a row)."""
BUILD_SECONDS: float
"""Time taken to build the tables at import (the uncapped ones: ``uncapped_build_seconds()``)."""
REGULAR: int
SEVEN_PAIRS: int
THIRTEEN_ORPHANS: int
HONORS_AND_KNITTED: int
KNITTED_STRAIGHT: int

def shanten(counts: Sequence[int], wilds: int, mask: int, /) -> int: ...
def shanten_by_shape(
    counts: Sequence[int], wilds: int, mask: int, /
) -> tuple[int | None, int | None, int | None, int | None, int | None]: ...
def is_complete(
    counts: Sequence[int],
    wilds: int,
    mask: int,
    max_copies: int | None = 4,
    held: Sequence[int] | None = None,
    /,
) -> bool: ...
def waits(
    counts: Sequence[int],
    wilds: int,
    mask: int,
    held: Sequence[int] | None = None,
    max_copies: int | None = 4,
    /,
) -> list[int]: ...
def improving(counts: Sequence[int], wilds: int, mask: int, /) -> tuple[int, list[int]]: ...
def discard_rows(
    counts: Sequence[int], wilds: int, mask: int, visible: Sequence[int] | None = None, /
) -> list[tuple[int | None, int, tuple[int, ...], int]]: ...
def block_row(
    counts: Sequence[int], honors: bool, uncapped: bool = False, /
) -> tuple[int, ...]: ...
def complete_uncapped(counts: Sequence[int], wilds: int, /) -> bool: ...
def uncapped_build_seconds() -> float | None: ...
