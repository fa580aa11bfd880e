"""Type stubs of the C kernel (see ``_kernel.c``).  ``mask`` is an OR of ``Shape.bit``.

The tables are built once, at build time (setup.py writes ``TABLES_FILE`` beside the kernel), and
mapped read-only at the first call that needs them; a missing, truncated or foreign file is never
used: the tables are then built in memory.  ``ERREN_KERNEL_TABLES=PATH`` in the environment names
another file to map.
"""

from collections.abc import Sequence
from typing import Literal

TABLE_BYTES: int
"""Bytes of the two distance tables (suit 5^9 rows, honor 5^7 rows, 10 bytes a row)."""
TABLES_FILE: str
"""The name of the tables file beside the kernel (``_kernel_tables.bin``)."""
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
def tables_source() -> Literal["file", "built"] | None:
    """Mapped from the file, or built in memory; None before the first call that needs them."""

def tables_seconds() -> float | None:
    """Seconds the first call that needed the tables took to map the file or build them."""

def uncapped_tables_seconds() -> float | None:
    """Seconds the uncapped tables took (built at first use, or mapped with the capped ones)."""

def tables_image() -> bytes:
    """A tables file's contents, every table built afresh (what setup.py writes)."""

def tables_match_built() -> bool:
    """Whether the tables in use equal freshly built ones byte for byte (about a second)."""
