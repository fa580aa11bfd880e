"""mjai, the JSON-lines protocol of mahjong bots, in a two-seat profile (``docs/mjai-2p.md``).

:mod:`~erren.mjai.tiles` names erren's tiles as mjai does (``5m``, ``E``, ``P``...), with the
profile's extension names for flowers (``1f``...) and ``?`` for a tile the reader may not see.
"""

from __future__ import annotations

from erren.mjai.tiles import HIDDEN, mjai_tile, mjai_tiles, parse_mjai_tile

__all__ = ["HIDDEN", "mjai_tile", "mjai_tiles", "parse_mjai_tile"]
