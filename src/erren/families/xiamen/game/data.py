"""xiamen's options, win types, phases, per-hand data and hand tests (R-1.7, R-3.3, R-3.5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from erren.analysis import golds
from erren.engine.family import Options
from erren.engine.state import AnyWinHow, FamilyData, FamilyPhase, WinHow
from erren.families.xiamen.game.view import XiamenView
from erren.tiles import Tile

if TYPE_CHECKING:
    from erren.engine.state import State

__all__ = [
    "BONUS",
    "CHAIN",
    "KINDS",
    "MULTIPLIER",
    "TILES",
    "WHITE",
    "WIN_TYPES",
    "XiamenData",
    "XiamenOptions",
    "XiamenPhase",
    "XiamenWinHow",
    "complete",
    "func_kind",
    "functional",
    "natural_of",
    "xiamen_data",
    "you_ready",
]

WHITE = 31
"""``5z``, the fake gold (R-1.8)."""
TILES = tuple(Tile(i) for i in range(42))
KINDS = (*range(9), *range(27, 34))


class XiamenWinHow(AnyWinHow):
    """xiamen's own ways to win (R-3.6), beside the shared :class:`WinHow` (平和 on a
    discard, 自摸, 抢杠胡)."""

    YOUJIN = "youjin"
    """游金 (R-2.9)."""
    SHUANGYOU = "shuangyou"
    """双游."""
    SANYOU = "sanyou"
    """三游 (also the opponent's win when the 三游 test's single draw fails, R-2.9.4)."""
    QIANGJIN = "qiangjin"
    """抢金胡 (R-2.8)."""
    SANJINDAO = "sanjindao"
    """三金倒 (R-2.7)."""


_X = XiamenWinHow
WIN_TYPES: dict[AnyWinHow, str] = {
    WinHow.DISCARD: "平和",
    WinHow.ZIMO: "自摸",
    WinHow.ROBBING: "抢杠胡",
    _X.YOUJIN: "游金",
    _X.QIANGJIN: "抢金胡",
    _X.SANJINDAO: "三金倒",
    _X.SHUANGYOU: "双游",
    _X.SANYOU: "三游",
}
"""The win types of R-3.6 by the ``how`` the engine records."""
MULTIPLIER: dict[AnyWinHow, int] = {
    WinHow.DISCARD: 1,
    WinHow.ZIMO: 2,
    WinHow.ROBBING: 2,
    _X.YOUJIN: 4,
    _X.QIANGJIN: 4,
    _X.SANJINDAO: 4,
    _X.SHUANGYOU: 8,
    _X.SANYOU: 16,
}
"""R-4.6: ``M`` by win type."""
BONUS: dict[AnyWinHow, int] = {_X.YOUJIN: 50, _X.SHUANGYOU: 100, _X.SANYOU: 150}
"""R-4.6: 和牌奖励, outside the cap."""
CHAIN = (_X.YOUJIN, _X.SHUANGYOU, _X.SANYOU)
"""The 游 chain's wins by level (1 游金, 2 双游, 3 三游)."""


@dataclass(frozen=True)
class XiamenOptions(Options):
    """R-4.10 room settings and R-2.11 timers."""

    base: int = 8
    cap: int = 100
    escape_penalty: int = 400
    turn_timeout_s: int = 20
    claim_timeout_s: int = 10
    auto_trustee_after: int = 2

    def __post_init__(self) -> None:
        least = {
            "base": 1,
            "cap": 0,
            "escape_penalty": 0,
            "turn_timeout_s": 1,
            "claim_timeout_s": 1,
            "auto_trustee_after": 1,
        }
        for name, low in least.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"option {name} must be a whole number ≥ {low}, not {value!r}")


class XiamenPhase(FamilyPhase):
    """xiamen's own phases."""

    OPENING = "opening"
    """R-2.3: the opening window before the first discard (三金倒/抢金胡)."""
    YOU_CHOICE = "you_choice"
    """R-2.9.2: a player in the 游 chain drew a gold: win now or discard it."""
    LAST_DRAW = "last_draw"
    """R-2.9.4: the opponent's single draw of the 三游 test."""


class XiamenData(FamilyData):
    """The per-hand data of a xiamen hand (``state.data``): the wild tiles (R-1.7) and the 游
    chain (R-2.9)."""

    __slots__ = ("gold", "indicator", "indicator_taken", "phys", "you_level")

    def __init__(self) -> None:
        self.gold = -1
        """The gold kind (-1 before the reveal)."""
        self.indicator = -1
        """The face-up indicator's kind (the gold kind)."""
        self.indicator_taken = False
        """The indicator went into a 抢金胡 winner's hand."""
        self.you_level = [0, 0]
        """Each seat's 游 level: 0, 1 游金, 2 双游, 3 三游."""
        self.phys: list[int] | None = None
        """The functional-to-physical map of natural tiles (a White plays as the gold kind);
        ``None`` when White is the gold."""

    def clone(self) -> XiamenData:
        new = XiamenData()
        new.gold, new.indicator = self.gold, self.indicator
        new.indicator_taken = self.indicator_taken
        new.you_level = list(self.you_level)
        new.phys = self.phys  # never changed once set
        return new

    def fingerprint(self) -> tuple[object, ...]:
        return (self.gold, self.indicator, self.indicator_taken, tuple(self.you_level))

    def view(self) -> XiamenView:
        """What both seats see of it: the gold, whether the indicator was taken, the 游
        levels."""
        return XiamenView(
            gold=TILES[self.gold] if self.gold >= 0 else None,
            indicator_taken=self.indicator_taken,
            you_level=(self.you_level[0], self.you_level[1]),
        )


def xiamen_data(state: State) -> XiamenData:
    """The xiamen data of a xiamen hand."""
    data = state.data
    assert isinstance(data, XiamenData), "not a xiamen hand"
    return data


# ---------------------------------------------------------------------------- hand tests
def functional(hand: list[int], gold: int) -> tuple[list[int], int]:
    """``(counts, golds)``: the natural tiles by functional kind and the golds (R-1.8, R-3.3)."""
    return golds.functional_counts(hand, gold)


def complete(hand: list[int], gold: int) -> bool:
    """R-3.3: the concealed part (3n+2 tiles, by physical kind) is complete, golds wild."""
    return golds.complete(*golds.functional_counts(hand, gold))


def you_ready(hand: list[int], gold: int) -> bool:
    """R-3.5: the 3n+1 part (by physical kind) is 游金-ready."""
    return golds.you_ready(*golds.functional_counts(hand, gold))


def natural_of(d: XiamenData, kind: int) -> int:
    """The physical kind of the natural tiles of functional ``kind``."""
    phys = d.phys
    return kind if phys is None else phys[kind]


def func_kind(d: XiamenData, tile: int) -> int:
    """The functional kind of a natural tile (a White plays as the gold kind)."""
    return d.gold if tile == WHITE and d.gold != WHITE else tile
