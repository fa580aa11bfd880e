"""erren — two-player mahjong (二人麻将): rules engine, hand analysis, scoring and play.

The edges are small immutable values (:class:`Tile`, :class:`Meld`, :class:`Hand`) that parse
and print the shared notation; the analysis in :mod:`erren.analysis` works on count arrays.
"""

from erren.errors import AnalysisError, ErrenError, NotationError
from erren.hand import Hand
from erren.melds import Meld, MeldKind
from erren.tiles import Tile

__version__ = "0.1.0"

__all__ = [
    "AnalysisError",
    "ErrenError",
    "Hand",
    "Meld",
    "MeldKind",
    "NotationError",
    "Tile",
    "__version__",
]
