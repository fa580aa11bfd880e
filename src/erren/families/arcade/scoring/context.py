"""The situation of an arcade win: the wild kind, the flowers and the win flags (arcade §1.4,
§1.5, §2.3, §2.7, R4.5) — everything the pattern table needs that the tiles do not show."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from erren.tiles import Tile

__all__ = ["ArcadeContext", "Baoting", "FirstTurn", "flower_kind"]


class Baoting(Enum):
    """``baoting_kind`` of R2.12: how the winner declared ready, if at all (R2.14)."""

    NONE = "none"
    MENQING = "menqing"  # declared with a concealed hand: 门清报听 (N3)
    OPEN = "open"  # declared with an open hand: no fan
    TIANTING = "tianting"  # declared on the first turn (R2.15): 天听 (N4)


class FirstTurn(Enum):
    """The first-turn limit hands, with the seed's names (R2.15, §7 item 12)."""

    NONE = "none"
    TIANHU = "tianhu"  # 天和 L1: the dealer's self-drawn win in the first ACTION
    DIHU = "dihu"  # 地和 L2: the non-dealer wins on the dealer's first discard
    RENHU = "renhu"  # 人和 L3: the non-dealer's self-drawn win on their first draw


def flower_kind(wild: int | None) -> Tile:
    """``F``: White, or Red when White is the wild (R1.10)."""
    return Tile.RED if wild == Tile.WHITE else Tile.WHITE


@dataclass(frozen=True, slots=True)
class ArcadeContext:
    """How an arcade hand was won.  Defaults: a non-dealer's win on the opponent's discard, no
    wild tile in the hand (``wild=None``: ``W`` is some kind the hand does not hold), no
    flowers, no 报听, no first-turn hand.

    * ``wild`` — the hand's wild kind ``W`` (R1.9a); every concealed tile of that kind, the
      winning tile included, is a wild.  ``flower`` (``F``) follows from it (R1.10).
    * ``flowers`` — flowers the winner set aside, 0..4 (N8; ignored by limit hands).
    * ``self_drawn`` — 自摸 (R4.5).  Also implied by ``robbing_kong`` (R2.11), ``haidi``
      (R2.19), ``kong_replacement`` and 天和/人和, so those need not set it.
    * ``robbing_kong`` — 抢杠和 on the opponent's added kong; counted as self-drawn (R2.11).
    * ``kong_replacement`` — the winning tile is a replacement draw after a kong or after
      setting aside a flower (杠上开花 N25, ``flower_replacement_is_kong``).
    * ``last_tile`` — the win is on the tile that emptied the live wall (河底捞月 N26,
      self-drawn) or on the discard made after it emptied (河底捞鱼 N27).
    * ``haidi`` — a self-drawn win in the post-draw 海底捞月 phase (N28, R2.19).
    * ``baoting`` — ``baoting_kind`` (R2.12); ``first_turn`` — L1–L3 (R2.15).
    * ``dealer`` — the winner is the dealer (no scoring privilege, R1.17; 天和 needs it).

    Situations that cannot happen together raise :class:`ValueError` rather than being guessed.
    """

    wild: Tile | None = None
    flowers: int = 0
    self_drawn: bool = False
    robbing_kong: bool = False
    kong_replacement: bool = False
    last_tile: bool = False
    haidi: bool = False
    baoting: Baoting = Baoting.NONE
    first_turn: FirstTurn = FirstTurn.NONE
    dealer: bool = False

    def __post_init__(self) -> None:
        if self.wild is not None and not 0 <= self.wild < 34:
            raise ValueError(f"the wild kind must be one of the 34 kinds, not {self.wild!r}")
        if not 0 <= self.flowers <= 4:
            raise ValueError(
                f"flowers must be 0..4 (four tiles of the flower kind), not {self.flowers}"
            )
        problem = self._contradiction()
        if problem:
            raise ValueError(problem)

    def _contradiction(self) -> str | None:
        turn = self.first_turn
        if self.robbing_kong and (self.kong_replacement or self.haidi or self.last_tile):
            return (
                "robbing the kong (抢杠和) takes the opponent's added tile: it is not a "
                "replacement, a 海底 draw or the last tile (a kong needs a live wall, R2.4)"
            )
        if self.haidi and self.last_tile:
            return (
                "海底捞月 draws come from the reserve after the live wall is empty, "
                "not its last tile"
            )
        if turn is FirstTurn.TIANHU and not self.dealer:
            return "天和 is the dealer's win (R2.15): set dealer"
        if turn in (FirstTurn.DIHU, FirstTurn.RENHU) and self.dealer:
            return f"{'地和' if turn is FirstTurn.DIHU else '人和'} is the non-dealer's win (R2.15)"
        if turn is FirstTurn.DIHU and self.is_self_drawn:
            return "地和 is a win on the dealer's first discard, not self-drawn (R2.15)"
        if turn is not FirstTurn.NONE and (self.haidi or self.last_tile or self.robbing_kong):
            return "a first-turn hand cannot be won on the last tile, in 海底 or by robbing a kong"
        if turn is FirstTurn.TIANHU and self.kong_replacement:
            return "天和 is won with the dealt tiles, before any kong or replacement (R2.15)"
        if turn is FirstTurn.TIANHU and self.baoting is not Baoting.NONE:
            return "天和 is won before the first discard, so 报听 cannot have been declared"
        return None

    @property
    def flower(self) -> Tile:
        """The flower kind ``F`` (R1.10)."""
        return flower_kind(self.wild)

    @property
    def is_self_drawn(self) -> bool:
        """Self-drawn for every pattern (R4.5): a draw, a replacement, a 海底 draw, 天和/人和, or
        robbing a kong (R2.11)."""
        return (
            self.self_drawn
            or self.robbing_kong
            or self.kong_replacement
            or self.haidi
            or self.first_turn in (FirstTurn.TIANHU, FirstTurn.RENHU)
        )
