"""What an arcade seat sees of the family's own facts: the wild, flowers, reserve, events."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Literal

from erren.engine.views import ViewFacts, register_view
from erren.tiles import Tile

__all__ = ["ArcadeView"]


@register_view
@dataclass(frozen=True, slots=True)
class ArcadeView(ViewFacts):
    """Arcade's wild, flowers, reserve and events (R1.3-R3.10)."""

    wild_mark: ClassVar[str] = "财"  # R1.9a: wilds marked 财
    own_fields: ClassVar[frozenset[str]] = frozenset({"offer", "bleed", "giving"})

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

    def note(self, name: Callable[[int], str]) -> str | None:
        """The 财神 (R1.9a, R1.10, R1.3): the wild, the flower kind, the reserve."""
        if self.wild is None:
            return None
        w = int(self.wild)
        flower = name(int(self.flower_kind)) if self.flower_kind is not None else "?"
        line = (
            f"财神 wild {name(w)} (indicator face up; the other three {name(w)} are wild)"
            f" · 花 flowers: every {flower} is set aside · reserve {self.reserve_count} tiles"
        )
        if self.haidi_player is not None:
            line += f" · 海底捞月 draws left {self.haidi_left}"
        return line

    def transcript_line(self) -> str | None:
        """The wild, the flower kind, the reserve, the events."""
        if self.wild is None:
            return None
        extra = f"wild={self.wild} flower={self.flower_kind} reserve={self.reserve_count}"
        if self.offer is not None:
            extra += f" offer={self.offer}"
        if self.haidi_player is not None:
            extra += f" haidi={self.haidi_player}:{self.haidi_left}"
        return extra
