"""The situation of a win: everything the fan calculator needs that the tiles do not show."""

from __future__ import annotations

from dataclasses import dataclass

from erren.tiles import Tile

__all__ = ["WinContext"]


@dataclass(frozen=True, slots=True)
class WinContext:
    """The flags of guobiao-2p §2.11, set by the rules engine (all default to an ordinary win
    on the opponent's discard by the non-dealer in an East round, no 报听, no flowers).

    * ``self_drawn`` 自摸 (also a kong replacement or a flower replacement draw);
    * ``last_copy`` 和绝张: the three other copies of the winning tile were visible;
    * ``last_tile`` the last tile of the live wall: self-drawn → 妙手回春, discard → 海底捞月;
    * ``kong_replacement`` 杠上开花 (self-drawn replacement tile of a kong, not of a flower);
    * ``robbing_kong`` 抢杠和 (a discard-type win on the opponent's 加杠);
    * ``seat_wind`` 门风 and ``round_wind`` 圈风 (``gb`` only).  ``seat_wind=None`` means the
      dealer's East for a 天胡 and the non-dealer's South otherwise (§1.2);
    * ``flowers`` flowers the winner exposed; ``None`` counts ``hand.flowers``;
    * ``ting`` 报听, ``tianting`` 天听, ``tianhu`` 天胡, ``dihu`` 地胡 (``2p`` fans; §2.8, §2.11).
      A hand without a winning tile is a 天胡 whatever ``tianhu`` says, and is self-drawn.
    """

    self_drawn: bool = False
    last_copy: bool = False
    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    seat_wind: Tile | None = None
    round_wind: Tile = Tile.EAST
    flowers: int | None = None
    ting: bool = False
    tianting: bool = False
    tianhu: bool = False
    dihu: bool = False

    def __post_init__(self) -> None:
        for name in ("seat_wind", "round_wind"):
            wind = getattr(self, name)
            if wind is not None and not Tile.EAST <= wind <= Tile.NORTH:
                raise ValueError(f"{name} must be a wind tile (1z..4z), not {wind!r}")
        if self.flowers is not None and not 0 <= self.flowers <= 8:
            raise ValueError(f"flowers must be 0..8, not {self.flowers}")
