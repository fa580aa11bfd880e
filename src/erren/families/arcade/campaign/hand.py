"""A hand of a stage-mode run (arcade §3) as values: how it starts (:class:`HandStart`, the
stake taken), how it ended (:class:`Outcome`) and how it was booked (:class:`Settlement`, every
figure and its explanation), with the run's errors and statuses and the stage formula
(:func:`stage_base`, R3.4).  The run that makes them is :class:`~erren.families.arcade.campaign.
run.Run`."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from erren.errors import ErrenError

if TYPE_CHECKING:
    from erren.families.arcade.campaign.params import StageFeatures
    from erren.families.arcade.scoring import ArcadeResult

__all__ = [
    "COMPUTER",
    "FAN_CAP",
    "HUMAN",
    "SEATS",
    "YAKUMAN_BASE",
    "CampaignError",
    "HandStart",
    "Outcome",
    "OutcomeKind",
    "Settlement",
    "StakeError",
    "Status",
    "stage_base",
]

HUMAN, COMPUTER = 0, 1
"""The human is seat 0 and the computer seat 1 in every hand of a run."""
FAN_CAP = 13
"""``fan_cap`` (§8), applied before the stage formula (§7 item 24)."""
YAKUMAN_BASE = 10000
"""The stage base of one yakuman (R3.4)."""
SEATS = ("you", "the computer")
"""How the explanations name each seat."""


class CampaignError(ErrenError):
    """A transition the run's state does not allow (settling with no hand, playing on after
    game over, ...)."""


class StakeError(CampaignError, ValueError):
    """A stake multiplier out of range or more than the bankroll covers (R3.3)."""


class Status(Enum):
    READY = "ready"
    """Between hands: the next hand may start."""
    IN_HAND = "in_hand"
    """A hand is being played; its stake has been taken."""
    GAME_OVER = "game_over"
    """游戏失败: the bankroll cannot cover one unit stake (R3.3)."""
    COMPLETE = "complete"
    """通关: stage 4 is cleared (R3.6)."""


class OutcomeKind(Enum):
    PLAYER_WIN = "player_win"
    COMPUTER_WIN = "computer_win"
    DRAW = "draw"


def stage_base(fan: int = 0, yakuman: int = 0) -> int:
    """The payout at ``m = 1`` (R3.4, R5.8): ``N × 10000`` with ``N ≥ 1`` yakuman, otherwise
    ``f × (f + 1) × 50`` with ``f = min(13, fan)``.

    >>> stage_base(3), stage_base(15), stage_base(yakuman=3)
    (600, 9100, 30000)
    """
    if yakuman < 0 or fan < 0:
        raise ValueError("fan and yakuman are ≥ 0")
    if yakuman:
        return yakuman * YAKUMAN_BASE
    f = min(FAN_CAP, fan)
    return f * (f + 1) * 50


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a hand ended, as stage mode sees it.  For a player win, ``fan`` (``F_total``,
    uncapped) and ``yakuman`` (``N``) of the scored hand and its ``description``; a computer
    win carries no fan (「电脑胡牌不计番」)."""

    kind: OutcomeKind
    fan: int = 0
    yakuman: int = 0
    description: str = ""

    def __post_init__(self) -> None:
        if self.kind is OutcomeKind.PLAYER_WIN:
            if self.yakuman < 0 or self.fan < 0 or (self.yakuman == 0 and self.fan < 1):
                raise ValueError("a player win has at least 1 fan or 1 yakuman")
        elif self.fan or self.yakuman:
            raise ValueError(f"{self.kind.value} carries no fan")

    @classmethod
    def player_win(cls, fan: int = 0, *, yakuman: int = 0, description: str = "") -> Outcome:
        return cls(OutcomeKind.PLAYER_WIN, fan, yakuman, description)

    @classmethod
    def from_result(cls, result: ArcadeResult) -> Outcome:
        """The player's win scored by :func:`erren.families.arcade.scoring.score_arcade`."""
        return cls.player_win(result.fan, yakuman=result.yakuman, description=str(result))

    @classmethod
    def computer_win(cls) -> Outcome:
        return cls(OutcomeKind.COMPUTER_WIN)

    @classmethod
    def draw(cls) -> Outcome:
        """An exhaustive draw, including a 海底捞月 phase that ends without a win."""
        return cls(OutcomeKind.DRAW)

    @property
    def base(self) -> int:
        """The payout at ``m = 1`` (0 unless the player won)."""
        if self.kind is not OutcomeKind.PLAYER_WIN:
            return 0
        return stage_base(self.fan, self.yakuman)

    def __str__(self) -> str:
        if self.kind is OutcomeKind.COMPUTER_WIN:
            return "the computer wins"
        if self.kind is OutcomeKind.DRAW:
            return "exhaustive draw"
        if self.description:
            return f"you win: {self.description}"
        if self.yakuman:
            return f"you win: {self.yakuman}倍役满" if self.yakuman > 1 else "you win: 役满"
        capped = f" → 封顶 {FAN_CAP}" if self.fan > FAN_CAP else ""
        return f"you win: {self.fan} fan{capped}"


@dataclass(frozen=True, slots=True)
class HandStart:
    """A hand about to be played: the stake taken, who deals and the stage's features."""

    hand: int
    """Hands started in the run, this one included."""
    stage: int
    stage_hand: int
    multiplier: int
    stake: int
    bankroll_before: int
    bankroll: int
    """The bankroll once the stake is taken."""
    purse: int
    dealer: int
    streak: int
    seed: int
    """The seed of the hand's generator (R1.7)."""
    features: StageFeatures

    @property
    def player_deals(self) -> bool:
        return self.dealer == HUMAN

    def lines(self) -> list[str]:
        deals = "you deal" if self.player_deals else "the computer deals"
        unit = self.stake // self.multiplier
        return [
            f"Stage {self.stage}, hand {self.stage_hand} (hand {self.hand} of the run): {deals}.",
            f"Stake m × {unit} = {self.multiplier} × {unit} = {self.stake:,}, taken from the "
            f"bankroll: "
            f"{self.bankroll_before:,} → {self.bankroll:,}.",
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "stage": self.stage,
            "stage_hand": self.stage_hand,
            "multiplier": self.multiplier,
            "stake": self.stake,
            "bankroll_before": self.bankroll_before,
            "bankroll": self.bankroll,
            "purse": self.purse,
            "dealer": self.dealer,
            "streak": self.streak,
            "seed": self.seed,
        }


@dataclass(frozen=True, slots=True)
class Settlement:
    """A settled hand (R3.4–R3.6) with every number that went into it; :meth:`lines` explains
    it step by step."""

    start: HandStart
    outcome: Outcome
    base: int
    """The outcome's payout at ``m = 1`` (0 unless the player won)."""
    bonus: bool
    """三连庄拍分 was paid on this hand (R3.5)."""
    payout: int
    """``m × base``, doubled by the bonus: what the player gains beyond the stake."""
    stake_returned: int
    bankroll: int
    purse_before: int
    purse: int
    """The purse after the payout (≤ 0 when this hand cleared the stage)."""
    streak_before: int
    streak: int
    dealer: int
    """The next hand's dealer (in the next stage: chosen at random)."""
    cleared: bool
    """This hand cleared its stage (R3.6)."""
    next_stage: int | None
    """The stage the next hand belongs to; ``None`` once the run is over."""
    next_purse: int | None
    status: Status
    streak_length: int = 3
    streak_multiplier: int = 2
    explanation: tuple[str, ...] = field(default=(), compare=False)

    @property
    def game_over(self) -> bool:
        return self.status is Status.GAME_OVER

    @property
    def complete(self) -> bool:
        return self.status is Status.COMPLETE

    @property
    def gain(self) -> int:
        """The bankroll's change over the whole hand, stake included."""
        return self.bankroll - self.start.bankroll_before

    def lines(self) -> list[str]:
        return list(self.explanation)
