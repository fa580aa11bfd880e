"""mjai, the JSON-lines protocol of mahjong bots, in a two-seat profile (``docs/mjai-2p.md``).

:mod:`~erren.mjai.tiles` names erren's tiles as mjai does (``5m``, ``E``, ``P``...), with the
profile's extension names for flowers (``1f``...) and ``?`` for a tile the reader may not see.
:mod:`~erren.mjai.stream` writes a hand's events as one seat's mjai stream or the full log and
reads a seat's answers; :mod:`~erren.mjai.export` and :mod:`~erren.mjai.imports` turn records
into mjai logs and full logs back into records.
"""

from __future__ import annotations

from erren.mjai.stream import (
    MjaiError,
    MjaiStream,
    action_to_mjai,
    join_reach,
    legal_messages,
    mjai_to_action,
)
from erren.mjai.tiles import HIDDEN, mjai_tile, mjai_tiles, parse_mjai_tile

__all__ = [
    "HIDDEN",
    "MjaiError",
    "MjaiStream",
    "action_to_mjai",
    "join_reach",
    "legal_messages",
    "mjai_tile",
    "mjai_tiles",
    "mjai_to_action",
    "parse_mjai_tile",
]
