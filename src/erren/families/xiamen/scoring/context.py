"""The situation of a xiamen win: what the tiles do not show (xiamen R-1.7, R-1.8, R-3.6, R-4.2,
R-4.6, R-4.10).

>>> ctx = XiamenContext(gold=Tile.M5, win_type=WinType.ZIMO)
>>> ctx.fake_gold, ctx.win_type.multiplier
(Tile.WHITE, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from erren.tiles import FLOWERS, Tile

__all__ = ["XIAMEN_KINDS", "WinType", "XiamenContext", "XiamenSettings"]

XIAMEN_KINDS: Final[frozenset[int]] = frozenset([*range(9), *range(27, 34)])
"""The 16 playing kinds of the 72-tile set, 1m..9m and 1z..7z (R-1.1): the possible gold kinds,
and the kinds a gold may stand for (R-3.2)."""


@dataclass(frozen=True, slots=True)
class _TypeRow:
    name: str
    english: str
    multiplier: int
    bonus: int
    on_opponents_tile: bool


class WinType(Enum):
    """The eight win types of R-3.6; the value is the id used by the CLI and JSON lines.

    Each type carries its row of the R-4.6 table: ``multiplier`` ``M`` and ``bonus``
    (和牌奖励).  ``on_opponents_tile``: the winning tile was the opponent's (平和 on a discard,
    抢杠胡 on the added tile), which decides whether a pung it completes is claimed (R-4.4).
    """

    PINGHU = "pinghu"  # 平和: on the opponent's discard
    ZIMO = "zimo"  # 自摸: own draw, kong or flower replacement included
    QIANGGANG = "qianggang"  # 抢杠胡: robbing the opponent's 加杠
    YOUJIN = "youjin"  # 游金: own draw at 游 level 1
    QIANGJIN = "qiangjin"  # 抢金胡: robbing the gold indicator in the opening window
    SANJINDAO = "sanjindao"  # 三金倒: three golds in the opening window
    SHUANGYOU = "shuangyou"  # 双游: own draw at 游 level 2
    SANYOU = "sanyou"  # 三游: the opponent failed the single draw at level 3

    @property
    def _row(self) -> _TypeRow:
        return _TYPES[self]

    @property
    def chinese(self) -> str:
        return self._row.name

    @property
    def english(self) -> str:
        return self._row.english

    @property
    def multiplier(self) -> int:
        """``M`` of R-4.6."""
        return self._row.multiplier

    @property
    def bonus(self) -> int:
        """The 和牌奖励 of R-4.6: outside the cap, never multiplied, never cumulative."""
        return self._row.bonus

    @property
    def on_opponents_tile(self) -> bool:
        return self._row.on_opponents_tile

    @classmethod
    def parse(cls, text: str) -> WinType:
        """By id, Chinese or English name: ``WinType.parse("游金") is WinType.YOUJIN``."""
        key = text.strip().lower().replace("-", " ").replace("_", " ")
        for member, row in _TYPES.items():
            if key in (member.value, row.name, row.english.lower()):
                return member
        known = ", ".join(f"{m.value} ({r.name})" for m, r in _TYPES.items())
        raise ValueError(f"no win type {text!r}; the types are {known}")

    def __str__(self) -> str:
        return self.chinese

    def __repr__(self) -> str:
        return f"WinType.{self.name}"


_TYPES: Final[dict[WinType, _TypeRow]] = {
    WinType.PINGHU: _TypeRow("平和", "discard", 1, 0, True),
    WinType.ZIMO: _TypeRow("自摸", "self drawn", 2, 0, False),
    WinType.QIANGGANG: _TypeRow("抢杠胡", "robbing the kong", 2, 0, True),
    WinType.YOUJIN: _TypeRow("游金", "swimming gold", 4, 50, False),
    WinType.QIANGJIN: _TypeRow("抢金胡", "robbing the gold", 4, 0, False),
    WinType.SANJINDAO: _TypeRow("三金倒", "three golds", 4, 0, False),
    WinType.SHUANGYOU: _TypeRow("双游", "double swim", 8, 100, False),
    WinType.SANYOU: _TypeRow("三游", "triple swim", 16, 150, False),
}


@dataclass(frozen=True, slots=True)
class XiamenSettings:
    """The room settings of R-4.10, with the spec's defaults.

    ``base`` is 底 before the 连庄 doubling; ``cap`` limits ``(底 + 水) × M`` per hand, ``0``
    meaning no cap (R-4.6); ``escape_penalty`` is in points (R-2.12).  Everything is in points:
    the room's stake (房间基数) is applied by the server, once, when it settles beans
    (:mod:`erren.server.settlement`).
    """

    base: int = 8
    cap: int = 100
    escape_penalty: int = 400

    def __post_init__(self) -> None:
        for name, least in (("base", 1), ("cap", 0), ("escape_penalty", 0)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise ValueError(f"{name} must be a whole number ≥ {least}, not {value!r}")


@dataclass(frozen=True, slots=True)
class XiamenContext:
    """Everything the scorer needs besides the tiles, set by the rules engine.

    * ``gold`` the gold kind ``g`` of the hand (R-1.6): every concealed tile of that kind is a
      gold, and the White plays as ``g`` unless ``g`` is the White itself (R-1.8);
    * ``win_type`` (R-3.6); the default is 平和, an ordinary win on the opponent's discard;
    * ``flowers`` the winner's flowers, each of ``1f``..``8f`` at most once; ``None`` takes
      those written in the hand (``hand.flowers``);
    * ``dealer`` whether the winner is the dealer (庄家); ``streak`` the dealer streak ``w`` of
      R-1.2 before this hand (连庄数 = ``w + 1``), which sets 底 = ``base × 2^w`` for either
      winner (R-4.2);
    * ``settings`` the room settings (R-4.10).
    """

    gold: Tile
    win_type: WinType = WinType.PINGHU
    flowers: tuple[Tile, ...] | None = None
    dealer: bool = False
    streak: int = 0
    settings: XiamenSettings = XiamenSettings()

    def __post_init__(self) -> None:
        if not isinstance(self.gold, int) or int(self.gold) not in XIAMEN_KINDS:
            raise ValueError(f"the gold kind must be one of 1m..9m, 1z..7z, not {self.gold!r}")
        object.__setattr__(self, "gold", Tile(self.gold))
        if not isinstance(self.win_type, WinType):
            raise ValueError(f"win_type must be a WinType, not {self.win_type!r}")
        if self.flowers is not None:
            flowers = tuple(sorted(Tile(f) for f in self.flowers))
            if any(f not in FLOWERS for f in flowers) or len(set(flowers)) != len(flowers):
                shown = " ".join(str(Tile(f)) for f in self.flowers)
                raise ValueError(f"flowers must be distinct tiles 1f..8f, not {shown!r}")
            object.__setattr__(self, "flowers", flowers)
        if not isinstance(self.streak, int) or isinstance(self.streak, bool) or self.streak < 0:
            raise ValueError(f"the dealer streak must be a whole number ≥ 0, not {self.streak!r}")

    @property
    def fake_gold(self) -> Tile | None:
        """The tile that plays as ``g`` (假金): the White, unless the White is the gold."""
        return None if self.gold == Tile.WHITE else Tile.WHITE

    @property
    def lianzhuang(self) -> int:
        """连庄数 as shown to players: ``streak + 1``."""
        return self.streak + 1

    @property
    def base(self) -> int:
        """底 = ``base × 2^streak`` (R-4.2)."""
        return self.settings.base << self.streak

    def physical(self, kind: int) -> Tile:
        """The physical tile a natural tile of functional ``kind`` is: a White for ``g``."""
        fake = self.fake_gold
        return fake if fake is not None and kind == self.gold else Tile(kind)

    def functional(self, tile: int) -> int:
        """The functional kind of a natural tile (R-1.8): ``g`` for a White, else itself."""
        return int(self.gold) if tile == Tile.WHITE and self.fake_gold is not None else int(tile)
