"""arcade's options, stage parameters, phases and per-hand data."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from erren.engine.family import Options
from erren.engine.state import FamilyData, FamilyPhase
from erren.families.arcade.game.view import ArcadeView
from erren.tiles import NUM_KINDS, Tile

if TYPE_CHECKING:
    from erren.engine.state import State

__all__ = [
    "ALL_KINDS",
    "DEAL_POSITIONS",
    "GREEN",
    "INDICATOR",
    "LIVE",
    "RED",
    "RESERVE",
    "TILES",
    "WHITE",
    "ArcadeData",
    "ArcadeOptions",
    "ArcadePhase",
    "arcade_data",
    "stage_options",
]

LIVE = 71
"""``live_wall_tiles`` (R1.3): stock positions 0..70."""
INDICATOR = 71
RESERVE = 72
WHITE, RED = 31, 33
GREEN = frozenset((19, 20, 21, 23, 25, 32))
TILES = tuple(Tile(i) for i in range(42))
ALL_KINDS = tuple(range(NUM_KINDS))
DEAL_POSITIONS = (
    (*range(0, 4), *range(8, 12), *range(16, 20), 24, 26),  # the dealer's 14 (R1.14)
    (*range(4, 8), *range(12, 16), *range(20, 24), 25),  # the non-dealer's 13
)


@dataclass(frozen=True)
class ArcadeOptions(Options):
    """§8 parameters that act inside a hand; the defaults are versus mode (R2.24)."""

    base_points: int = 1
    escape_penalty_points: int = 13
    opening_exchange: bool = True
    pung_offer_prob: float = 0.03
    pick_any_prob: float = 0.05
    haidi_draws: int = 3
    human_seat: int | None = None
    haidi_draws_human: int | None = None
    bleed_normal_prob: float = 0.0
    bleed_yakuman_prob: float = 0.0
    bleed_normal_gap: int = 1
    bleed_yakuman_gap: int = 2
    flower_replacement_is_kong: bool = True
    turn_timeout_s: int = 20
    claim_timeout_s: int = 10
    exchange_timeout_s: int = 20
    auto_trustee_after: int = 2

    def __post_init__(self) -> None:
        for name in ("opening_exchange", "flower_replacement_is_kong"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"option {name} must be true or false")
        for name in ("pung_offer_prob", "pick_any_prob", "bleed_normal_prob", "bleed_yakuman_prob"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise ValueError(f"option {name} must be a probability 0..1, not {value!r}")
        if self.bleed_normal_prob + self.bleed_yakuman_prob > 1:
            raise ValueError("bleed_normal_prob + bleed_yakuman_prob must be ≤ 1")
        least = {
            "base_points": 1,
            "escape_penalty_points": 0,
            "haidi_draws": 0,
            "bleed_normal_gap": 0,
            "bleed_yakuman_gap": 0,
            "turn_timeout_s": 1,
            "claim_timeout_s": 1,
            "exchange_timeout_s": 1,
            "auto_trustee_after": 1,
        }
        if self.haidi_draws_human is not None:
            least["haidi_draws_human"] = 0
        for name, low in least.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"option {name} must be a whole number ≥ {low}, not {value!r}")
        for name in ("bleed_normal_gap", "bleed_yakuman_gap"):
            if getattr(self, name) > 12:
                raise ValueError(f"option {name} must be ≤ 12")
        if self.human_seat not in (None, 0, 1):
            raise ValueError(f"option human_seat must be 0, 1 or null, not {self.human_seat!r}")
        if self.human_seat is None and (self.bleed_normal_prob or self.bleed_yakuman_prob):
            raise ValueError("the big-bleed deal is a stage feature: set human_seat (R3.10)")


def stage_options(stage: int, *, human_seat: int = 0) -> dict[str, Any]:
    """The in-hand options of stage ``stage`` (1–4) of stage mode (R3.1, §8)."""
    if stage not in (1, 2, 3, 4):
        raise ValueError("stages are 1..4")
    return {
        "human_seat": human_seat,
        "opening_exchange": stage >= 2,
        "pung_offer_prob": 0.0,
        "pick_any_prob": 0.05 if stage >= 3 else 0.0,
        "haidi_draws": 3,
        "haidi_draws_human": 5 if stage >= 2 else 3,
        "bleed_normal_prob": 0.20 if stage >= 3 else 0.0,
        "bleed_yakuman_prob": 0.05 if stage >= 4 else 0.0,
    }


class ArcadePhase(FamilyPhase):
    """arcade's own phases."""

    EXCHANGE = "exchange"
    """R2.21: a player's opening exchange, after the opening flowers."""
    PICK = "pick"
    """R2.23: pick-any (搓牌) offered before a normal draw."""
    HAIDI = "haidi"
    """R2.19: the 海底 player decides on a post-draw draw that completes the hand."""


class ArcadeData(FamilyData):
    """The per-hand data of an arcade hand (``state.data``): ``wild`` and ``flower`` are set
    when the indicator is revealed (after the shuffle)."""

    __slots__ = (
        "baoting_kind",
        "baoting_seq",
        "bleed",
        "bleed_seat",
        "dealt_ready",
        "discard_no",
        "exchanged",
        "flower",
        "giving",
        "haidi_left",
        "haidi_player",
        "haidi_replaced",
        "offer",
        "pung_kind",
        "reserve",
        "rng",
        "wild",
    )

    def __init__(self) -> None:
        self.wild = -1
        """``W``, the indicator's kind (R1.9a)."""
        self.flower = -1
        """``F``: White, or Red when White is wild (R1.10)."""
        self.rng = random.Random(0)
        self.reserve = RESERVE
        """The front of the reserve: ``wall[reserve:]`` is what is left of it."""
        self.offer = [-1, -1]
        self.pung_kind = [-1, -1]
        """The kind of a pung offer ``p`` accepted this turn: a self-drawn win's winning tile
        (R2.4); ``-1``: none.  ``last_added`` stays the tile drawn (R2.15, R2.16)."""
        self.dealt_ready = [False, False]
        """Whether the 13 ``p`` held before that turn's draw were ready (R2.15's dealt 13)."""
        self.exchanged = [False, False]
        self.giving: list[int] = []
        """The tiles the seat to act has given up so far (``give``, in canonical order) in its
        opening exchange (R2.21) or its answer to a pung offer (R2.22); empty otherwise."""
        self.baoting_seq = [-1, -1]
        self.baoting_kind = ["", ""]
        self.discard_no = 0
        self.haidi_player = -1
        self.haidi_left = 0
        self.haidi_replaced = False
        self.bleed = ""
        self.bleed_seat = -1

    def reveal(self, indicator: int) -> None:
        """R1.9a, R1.10: ``W`` is the indicator's kind, ``F`` White (Red when White is wild)."""
        self.wild = indicator
        self.flower = RED if indicator == WHITE else WHITE

    def clone(self) -> ArcadeData:
        new = object.__new__(ArcadeData)
        for name in self.__slots__:
            setattr(new, name, getattr(self, name))
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.offer = list(self.offer)
        new.pung_kind = list(self.pung_kind)
        new.dealt_ready = list(self.dealt_ready)
        new.exchanged = list(self.exchanged)
        new.giving = list(self.giving)
        new.baoting_seq = list(self.baoting_seq)
        new.baoting_kind = list(self.baoting_kind)
        return new

    def view(self, state: State, player: int) -> ArcadeView:
        """What ``player`` sees of it: the wild, the flower kind, the reserve, his own offer,
        the 报听 kinds, 海底, and his own big-bleed template (nothing before the indicator is
        revealed)."""
        if self.wild < 0:
            return ArcadeView()
        return ArcadeView(
            wild=TILES[self.wild],
            flower_kind=TILES[self.flower],
            reserve_count=len(state.wall) - self.reserve,
            offer=TILES[self.offer[player]] if self.offer[player] >= 0 else None,
            baoting=(self.baoting_kind[0], self.baoting_kind[1]),
            haidi_player=self.haidi_player if self.haidi_player >= 0 else None,
            haidi_left=self.haidi_left,
            bleed=self.bleed if player == self.bleed_seat else "",
            giving=tuple(TILES[k] for k in self.giving) if player == state.actor else (),
        )

    def fingerprint(self) -> tuple[object, ...]:
        return (
            self.wild,
            self.reserve,
            tuple(self.offer),
            tuple(self.pung_kind),
            tuple(self.dealt_ready),
            tuple(self.exchanged),
            tuple(self.baoting_seq),
            tuple(self.baoting_kind),
            self.discard_no,
            self.haidi_player,
            self.haidi_left,
            self.bleed,
            self.rng.getstate(),
        ) + ((tuple(self.giving),) if self.giving else ())  # only while a choice is open


def arcade_data(state: State) -> ArcadeData:
    """The arcade data of an arcade hand."""
    data = state.data
    assert isinstance(data, ArcadeData), "not an arcade hand"
    return data
