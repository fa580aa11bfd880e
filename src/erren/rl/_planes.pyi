"""Type stubs of the C encoder of the planes' shared cells (see ``_planes.c``); use
:func:`erren.rl.encoder.encode_state` / :func:`~erren.rl.encoder.encode_into`."""

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from _typeshed import WriteableBuffer

Cells = WriteableBuffer | npt.NDArray[np.float32]
"""A float32 buffer: a flat view (format ``f``) or a C-contiguous array."""
Marks = WriteableBuffer | npt.NDArray[np.int8]
"""An int8 buffer: a flat view (format ``b``) or a C-contiguous array."""

def configure(
    offsets: dict[str, int],
    phase_columns: Mapping[str, int],
    origin_columns: Mapping[str, int],
    chi: Any,
    peng: Any,
    an_gang: Any,
    deal: Any,
    end: Any,
    turn: Any,
    claim: Any,
    /,
) -> None: ...
def encode(cells: Cells, at: int, state: Any, player: int, family_column: int, /) -> None: ...
def mark(mask: Marks, at: int, size: int, indices: Sequence[int], /) -> None: ...
def indices(actions: list[Any], memo: dict[int, int], /) -> list[int] | None: ...
