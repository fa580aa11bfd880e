"""One random winning hand of :mod:`erren.testing.wins` (:class:`Case`, its melds
:class:`MeldSpec`) with PyMahjongGB's arguments, and the kinds as text (:func:`kind_text`).

PyMahjongGB's conventions: tiles ``W`` 万, ``B`` 饼, ``T`` 条, ``F1..F4`` 东南西北, ``J1`` 中,
``J2`` 发, ``J3`` 白 (so 5z→J3, 6z→J2, 7z→J1); packs ``("CHI", middle tile, offer 1..3 = which
tile was claimed)``, ``("PENG"|"GANG", tile, offer)`` where offer 0 means concealed — a PENG or
CHI with offer 0 would count as concealed, so claimed melds always get 1..3; a 加杠 is a GANG with
a non-zero offer; ``isAboutKong`` is 杠上开花 when self-drawn and 抢杠和 otherwise;
``is4thTile`` is 和绝张.  A family reads a case's context its own way (guobiao-2p:
:func:`erren.families.guobiao.testing.win_context`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from erren.hand import Hand

__all__ = ["GB_NAMES", "HONORS", "SUITS", "Case", "MeldSpec", "kind_text"]

SUITS = "mps"
HONORS = tuple(range(27, 34))
GB_NAMES: tuple[str, ...] = (
    *(f"W{n}" for n in range(1, 10)),
    *(f"B{n}" for n in range(1, 10)),
    *(f"T{n}" for n in range(1, 10)),
    "F1", "F2", "F3", "F4", "J3", "J2", "J1",
)  # fmt: skip
"""PyMahjongGB's name of each kind 0..33: 5z 白 = J3, 6z 发 = J2, 7z 中 = J1."""


def kind_text(kinds: Sequence[int]) -> str:
    """``[0, 1, 2]`` → ``123m`` (sorted, one suit letter per run)."""
    out = ""
    suit = ""
    for k in sorted(kinds):
        letter = SUITS[k // 9] if k < 27 else "z"
        number = k % 9 + 1 if k < 27 else k - 26
        if suit and letter != suit:
            out += suit
        suit = letter
        out += str(number)
    return out + suit


@dataclass(frozen=True, slots=True)
class MeldSpec:
    """A meld to write: ``kind`` in chi/peng/ming/jia/an, its tiles, the claimed tile's index."""

    kind: str
    tiles: tuple[int, ...]
    claimed: int = 0

    def notation(self) -> str:
        if self.kind == "chi":
            text = kind_text(self.tiles)
            digits, suit = text[:-1], text[-1]
            i = self.claimed + 1
            return f"[{digits[:i]}'{digits[i:]}{suit}]"
        mark = {"peng": "'", "ming": "'", "jia": "+", "an": "#"}[self.kind]
        return f"[{kind_text(self.tiles)}{mark}]"

    def gb_pack(self, rng: random.Random) -> tuple[str, str, int]:
        first = self.tiles[0]
        if self.kind == "chi":
            return ("CHI", GB_NAMES[first + 1], self.claimed + 1)
        if self.kind == "peng":
            return ("PENG", GB_NAMES[first], rng.randint(1, 3))
        return ("GANG", GB_NAMES[first], 0 if self.kind == "an" else rng.randint(1, 3))


@dataclass(frozen=True, slots=True)
class Case:
    """One random win: the erren hand and context, and PyMahjongGB's arguments."""

    text: str
    family: str
    concealed: tuple[int, ...]
    melds: tuple[MeldSpec, ...]
    winning: int
    self_drawn: bool
    last_copy: bool
    last_tile: bool
    kong_replacement: bool
    robbing_kong: bool
    seat_wind: int  # 0..3
    round_wind: int  # 0..3
    flowers: int
    packs: tuple[tuple[str, str, int], ...] = field(default=())

    def hand(self) -> Hand:
        return Hand.parse(self.text)

    def gb_arguments(self) -> dict[str, object]:
        return {
            "pack": self.packs,
            "hand": tuple(GB_NAMES[k] for k in self.concealed),
            "winTile": GB_NAMES[self.winning],
            "flowerCount": self.flowers,
            "isSelfDrawn": self.self_drawn,
            "is4thTile": self.last_copy,
            "isAboutKong": self.kong_replacement or self.robbing_kong,
            "isWallLast": self.last_tile,
            "seatWind": self.seat_wind,
            "prevalentWind": self.round_wind,
            "verbose": True,
        }

    def describe(self) -> str:
        flags = [
            name
            for name in ("self_drawn", "last_copy", "last_tile", "kong_replacement", "robbing_kong")
            if getattr(self, name)
        ]
        winds = f"seat {self.seat_wind + 1}z round {self.round_wind + 1}z"
        flowers = f" flowers {self.flowers}" if self.flowers else ""
        return f"{self.text}  [{self.family}; {' '.join(flags) or 'discard'}; {winds}{flowers}]"
