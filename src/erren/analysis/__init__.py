"""Hand analysis: winning shapes, shanten, waits, effective tiles, discard tables, readings.

Everything here works on 34-long count arrays of a hand's concealed part (melds are complete
sets and take no part), so it serves all three families: one suit + honors, three suits,
wild tiles.  The hot path — shanten, waits, improving draws — is a table-driven C kernel
(:mod:`erren.analysis._kernel`), which is also erren's one completeness test ("is this hand
complete", every family, :mod:`~erren.analysis.complete`); :mod:`~erren.analysis.readings`
enumerates every decomposition of a complete hand for scoring; :mod:`~erren.analysis.report`
answers a player's questions about one parsed :class:`~erren.hand.Hand`.  The kernel's lookup
tables are built once, at build time, into ``_kernel_tables.bin`` beside it, which every process
maps read-only at its first analysis (so importing is cheap; without the file they are built then).

The functions ``shanten``, ``waits`` and ``readings`` live in the modules of the same names
(``from erren.analysis.shanten import shanten``); they are not re-exported here, so that the
module names stay importable.
"""

from erren.analysis.complete import is_complete, is_complete_by_mask, is_complete_ignoring_copies
from erren.analysis.readings import Group, GroupKind, Reading, Wilds, is_winning
from erren.analysis.shanten import shanten_by_shape
from erren.analysis.shapes import (
    ALL_SHAPES,
    ARCADE,
    GB,
    GUOBIAO_2P,
    RIICHI,
    XIAMEN,
    Shape,
    ShapeSet,
)
from erren.analysis.waits import DiscardOption, discard_table, improving

__all__ = [
    "ALL_SHAPES",
    "ARCADE",
    "GB",
    "GUOBIAO_2P",
    "RIICHI",
    "XIAMEN",
    "DiscardOption",
    "Group",
    "GroupKind",
    "Reading",
    "Shape",
    "ShapeSet",
    "Wilds",
    "discard_table",
    "improving",
    "is_complete",
    "is_complete_by_mask",
    "is_complete_ignoring_copies",
    "is_winning",
    "shanten_by_shape",
]
