"""What one player sees of a family's own data: one frozen dataclass per family.

An :class:`~erren.engine.Observation` is the common core (hands, melds, discards, the turn...)
plus ``view: FamilyView``, built by the family's :meth:`~erren.engine.Family.view`.  A reader
that needs a family's facts matches on the view's type (``case ArcadeView(wild=w)``) — never on
which optional field happens to be set.  ``family`` names the view on the wire (the JSON's
``view.family``, the web client's discriminant).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from erren.tiles import Tile

__all__ = ["FAMILY_VIEWS", "ArcadeView", "FamilyView", "GuobiaoView", "XiamenView"]


@dataclass(frozen=True, slots=True)
class GuobiaoView:
    """Guobiao-2p has no facts beyond the common core."""

    family: Literal["guobiao"] = "guobiao"


@dataclass(frozen=True, slots=True)
class XiamenView:
    """Xiamen's golds (R-1.6) and 游金 levels (R-2.9)."""

    gold: Tile | None = None
    """The gold kind of the hand, ``None`` before the indicator is turned (R-1.6)."""
    indicator_taken: bool = False
    """The face-up indicator went into a 抢金胡 winner's hand."""
    you_level: tuple[int, int] = (0, 0)
    """Each seat's 游 level (R-2.9): 0, 1 游金, 2 双游, 3 三游."""
    family: Literal["xiamen"] = "xiamen"


@dataclass(frozen=True, slots=True)
class ArcadeView:
    """Arcade's wild, flowers, reserve and events (R1.3-R3.10)."""

    wild: Tile | None = None
    """The wild kind ``W`` (the face-up indicator's kind, R1.9a); ``None`` before it is
    turned."""
    flower_kind: Tile | None = None
    """The flower kind ``F`` (White, or Red when White is wild, R1.10)."""
    reserve_count: int = 0
    """Tiles left in the face-down reserve (R1.3)."""
    offer: Tile | None = None
    """The kind of the pung offered to this player this turn (R2.22)."""
    baoting: tuple[str, str] = ("", "")
    """Each seat's ``baoting_kind`` (``menqing``/``open``/``tianting``, R2.12)."""
    haidi_player: int | None = None
    """The 海底 player of the post-draw phase (R2.18), once it began."""
    haidi_left: int = 0
    """Post-draw draws still to come (R2.19)."""
    bleed: str = ""
    """Stage mode: the template of this player's big-bleed deal (R3.10), if any."""
    giving: tuple[Tile, ...] = ()
    """The tiles this player has given up so far (``give``, canonical order) in the choice it
    is making: its opening exchange (R2.21) or its answer to a pung offer (R2.22)."""
    family: Literal["arcade"] = "arcade"


FamilyView = GuobiaoView | XiamenView | ArcadeView
"""The family part of an observation (a closed union: readers match on it exhaustively)."""

FAMILY_VIEWS: tuple[type[GuobiaoView] | type[XiamenView] | type[ArcadeView], ...] = (
    GuobiaoView,
    XiamenView,
    ArcadeView,
)
"""Every view class, for the codec and the generated JSDoc typedefs."""
