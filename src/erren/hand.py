"""A player's hand: the concealed tiles, the declared melds, the winning tile and flowers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from erren.melds import Meld
from erren.tiles import NUM_KINDS, Counts, Tile


@dataclass(frozen=True, slots=True)
class Hand:
    """``concealed`` is sorted and never includes ``winning`` (the ``+X`` tile of a winning hand).

    A hand written without ``+X`` has ``winning = None``: a hand being analysed, or the
    dealer's 14 dealt tiles.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    winning: Tile | None = None
    flowers: tuple[Tile, ...] = ()

    @classmethod
    def parse(
        cls,
        text: str,
        *,
        extra: int = 0,
        check_size: bool = True,
        plays_as: Mapping[int, int] | None = None,
    ) -> Hand:
        """Parse the shared notation, e.g. ``Hand.parse("123m456m11z [555z'] [789m'] +1z")``.

        With ``check_size`` the hand must hold 13 or 14 tiles (14 with a winning tile),
        counting three per meld and ``extra`` tiles held outside the string (e.g. wilds).
        ``plays_as`` maps a kind to the kind it plays as in melds (xiamen's White).
        """
        from erren.notation import parse_hand  # noqa: PLC0415 - notation imports this module

        return parse_hand(text, extra=extra, check_size=check_size, plays_as=plays_as)

    @property
    def size(self) -> int:
        """Tiles counted the way a hand's size is: three per meld, the winning tile included."""
        return len(self.concealed) + 3 * len(self.melds) + (self.winning is not None)

    def concealed_counts(self, *, with_winning: bool = True) -> Counts:
        """Counts of the concealed part (34 kinds), the winning tile included by default."""
        counts = [0] * NUM_KINDS
        for tile in self.concealed:
            counts[tile] += 1
        if with_winning and self.winning is not None:
            counts[self.winning] += 1
        return counts

    def meld_counts(self) -> Counts:
        """Counts of the tiles in declared melds (34 kinds)."""
        counts = [0] * NUM_KINDS
        for meld in self.melds:
            for tile in meld.tiles:
                counts[tile] += 1
        return counts

    def all_counts(self) -> Counts:
        """Every playing tile the hand holds: concealed, melds and the winning tile."""
        return [a + b for a, b in zip(self.concealed_counts(), self.meld_counts(), strict=True)]

    def __str__(self) -> str:
        from erren.notation import format_hand  # noqa: PLC0415

        return format_hand(self)

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"
