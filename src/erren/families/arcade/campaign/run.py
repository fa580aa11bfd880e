"""A stage-mode run (arcade §3) as a pure, seeded model: no tiles, no input, no files.

A :class:`Run` holds the bankroll, the stage, the computer's purse, the dealer, the
three-streak counter and the last stake multiplier.  It changes only through two transitions,
each returning a value that explains itself line by line:

* :meth:`Run.start_hand` takes the stake ``m × 100`` from the bankroll (R3.3) and returns a
  :class:`HandStart` with the hand's seed, dealer and the stage's features for the engine;
* :meth:`Run.settle` books the hand's :class:`Outcome` (R3.4): the stake back plus ``m × base``
  for a player win, nothing for a computer win, the stake back for a draw; the three-streak bonus
  (R3.5); the purse, stage clear and the end of the run (R3.6); game over (R3.3).  It returns a
  :class:`Settlement`.

Chance (each hand's seed, each stage's first dealer) comes from generators seeded with the run's
seed and a counter, so a run needs no generator state to be saved and resumes exactly::

    >>> run = Run.new(seed=7)
    >>> start = run.start_hand(1)
    >>> start.stake, run.bankroll
    (100, 900)
    >>> settlement = run.settle(Outcome.player_win(fan=3))
    >>> settlement.payout, run.bankroll, run.purse
    (600, 1600, 9400)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from erren.families.arcade.campaign.hand import (
    COMPUTER,
    FAN_CAP,
    HUMAN,
    SEATS,
    YAKUMAN_BASE,
    CampaignError,
    HandStart,
    Outcome,
    OutcomeKind,
    Settlement,
    StakeError,
    Status,
)
from erren.families.arcade.campaign.params import STAGES, CampaignParams, StageFeatures

__all__ = ["Run"]


@dataclass
class Run:
    """One stage-mode run.  Build with :meth:`Run.new`; change only with :meth:`start_hand`
    and :meth:`settle` (and :meth:`void_hand` when a hand cannot be finished)."""

    seed: int
    params: CampaignParams = field(default_factory=CampaignParams)
    stage: int = 1
    bankroll: int = 0
    purse: int = 0
    dealer: int = HUMAN
    streak: int = 0
    multiplier: int = 1
    """The last stake multiplier chosen (the interface keeps it, R3.3)."""
    hands: int = 0
    stage_hands: int = 0
    status: Status = Status.READY
    current: HandStart | None = None
    best_payout: int = 0

    @classmethod
    def new(cls, seed: int, params: CampaignParams | None = None) -> Run:
        """A fresh run: the initial bankroll, stage 1's purse and a random first dealer."""
        params = params if params is not None else CampaignParams()
        run = cls(seed=seed, params=params, bankroll=params.initial_bankroll)
        run.purse = params.purse(1)
        run.dealer = run._stage_dealer(1)
        return run

    # ------------------------------------------------------------------ queries
    @property
    def features(self) -> StageFeatures:
        return self.params.features(self.stage)

    @property
    def over(self) -> bool:
        return self.status in (Status.GAME_OVER, Status.COMPLETE)

    def affordable(self) -> int:
        """The largest multiplier the bankroll covers (0 at game over)."""
        return min(self.params.max_multiplier, self.bankroll // self.params.stake_unit)

    def default_multiplier(self) -> int:
        """What Enter chooses: the last multiplier, lowered to what the bankroll covers."""
        return max(1, min(self.multiplier, self.affordable()))

    def check_stake(self, multiplier: int) -> None:
        """Raise :class:`StakeError` unless ``multiplier`` may be staked now (R3.3)."""
        top = self.params.max_multiplier
        if isinstance(multiplier, bool) or not isinstance(multiplier, int):
            raise StakeError(f"the stake multiplier is a whole number 1..{top}")
        if not 1 <= multiplier <= top:
            raise StakeError(f"the stake multiplier is 1..{top}, not {multiplier}")
        stake = self.params.stake(multiplier)
        if stake > self.bankroll:
            raise StakeError(
                f"a stake of {multiplier} × {self.params.stake_unit} = {stake:,} is more than your "
                f"bankroll {self.bankroll:,}: choose {self.affordable()} or less"
            )

    # ------------------------------------------------------------------ transitions
    def start_hand(self, multiplier: int) -> HandStart:
        """Take the stake ``multiplier × unit`` and start the next hand (R3.3)."""
        if self.status is not Status.READY:
            raise CampaignError(f"no hand can start: the run is {self.status.value}")
        self.check_stake(multiplier)
        stake = self.params.stake(multiplier)
        self.hands += 1
        self.stage_hands += 1
        self.multiplier = multiplier
        start = HandStart(
            hand=self.hands,
            stage=self.stage,
            stage_hand=self.stage_hands,
            multiplier=multiplier,
            stake=stake,
            bankroll_before=self.bankroll,
            bankroll=self.bankroll - stake,
            purse=self.purse,
            dealer=self.dealer,
            streak=self.streak,
            seed=self._hand_seed(self.hands),
            features=self.features,
        )
        self.bankroll = start.bankroll
        self.current = start
        self.status = Status.IN_HAND
        return start

    def settle(self, outcome: Outcome) -> Settlement:
        """Book the current hand's outcome (R3.4–R3.6, R1.17, R3.3)."""
        start = self.current
        if self.status is not Status.IN_HAND or start is None:
            raise CampaignError("there is no hand in play to settle")
        p = self.params
        lines = [f"Hand {start.hand} (stage {start.stage}, hand {start.stage_hand}): {outcome}."]
        streak_before, purse_before = self.streak, self.purse
        payout = 0
        bonus = False
        returned = 0
        if outcome.kind is OutcomeKind.PLAYER_WIN:
            payout, bonus = self._book_player_win(start, outcome, lines)
            returned = start.stake
        elif outcome.kind is OutcomeKind.COMPUTER_WIN:
            self._book_computer_win(start, lines)
        else:
            returned = start.stake
            self._book_draw(start, lines)
        self.current = None
        cleared, next_stage, next_purse = self._close_hand(lines)
        return Settlement(
            start=start,
            outcome=outcome,
            base=outcome.base,
            bonus=bonus,
            payout=payout,
            stake_returned=returned,
            bankroll=self.bankroll,
            purse_before=purse_before,
            purse=purse_before - payout,
            streak_before=streak_before,
            streak=self.streak,
            dealer=self.dealer,
            cleared=cleared,
            next_stage=next_stage,
            next_purse=next_purse,
            status=self.status,
            streak_length=p.streak_length,
            streak_multiplier=p.streak_multiplier,
            explanation=tuple(lines),
        )

    def _book_player_win(
        self, start: HandStart, outcome: Outcome, lines: list[str]
    ) -> tuple[int, bool]:
        """R3.4, R3.5: the stake back plus ``m × base`` (doubled by 三连庄拍分), the purse
        paid from, the player deals next; ``(payout, bonus paid)``."""
        p = self.params
        m, stake, base = start.multiplier, start.stake, outcome.base
        streak_before, purse_before, bankroll_before = self.streak, self.purse, self.bankroll
        bonus = False
        payout = m * base
        formula = f"{self._base_formula(outcome)} = {base:,}"
        lines.append(f"Payout m × base = {m} × {base:,} = {payout:,}   (base {formula})")
        if start.player_deals:
            self.streak += 1
            lines.append(
                f"三连庄: a win as dealer, streak {streak_before} → {self.streak} "
                f"(of {p.streak_length})."
            )
            if start.features.streak_bonus and self.streak == p.streak_length:
                bonus = True
                doubled = payout * p.streak_multiplier
                lines.append(
                    f"三连庄拍分! {p.streak_length} dealer wins in a row: payout × "
                    f"{p.streak_multiplier} = {doubled:,}; the streak starts again from 0."
                )
                payout = doubled
                self.streak = 0
        else:
            self.streak = 0
            lines.append(
                f"A win as non-dealer: you deal next; streak {streak_before} → 0."
                if streak_before
                else "A win as non-dealer: you deal next; the streak starts at 0."
            )
        self.bankroll += stake + payout
        lines.append(
            f"Bankroll {bankroll_before:,} + stake {stake:,} returned + payout {payout:,} = "
            f"{self.bankroll:,}."
        )
        self.purse -= payout
        lines.append(
            f"Computer purse {purse_before:,} − {payout:,} = {self.purse:,}."
            if self.purse > 0
            else f"Computer purse {purse_before:,} − {payout:,} → 0: the purse is empty "
            "(the payout is paid in full, R3.6)."
        )
        self.dealer = HUMAN
        self.best_payout = max(self.best_payout, payout)
        return payout, bonus

    def _book_computer_win(self, start: HandStart, lines: list[str]) -> None:
        """R3.4: the computer's win costs the stake alone; the streak ends, it deals next."""
        streak_before = self.streak
        lines.append(
            f"The computer's win costs only your stake of {start.stake:,} "
            f"(「电脑胡牌不计番也不扣玩家分数」): bankroll stays {self.bankroll:,}."
        )
        self.streak = 0
        if streak_before:
            lines.append(f"三连庄: streak {streak_before} → 0.")
        self.dealer = COMPUTER
        lines.append("The computer deals next.")

    def _book_draw(self, start: HandStart, lines: list[str]) -> None:
        """R3.4, R1.17: no winner, the stake back; the same dealer deals again."""
        bankroll_before = self.bankroll
        self.bankroll += start.stake
        lines.append(
            f"No winner: stake {start.stake:,} returned, bankroll {bankroll_before:,} → "
            f"{self.bankroll:,}."
        )
        lines.append(
            f"The same dealer deals again ({SEATS[self.dealer]}); streak stays {self.streak}."
        )

    def _close_hand(self, lines: list[str]) -> tuple[bool, int | None, int | None]:
        """R3.6, R3.3 after a booked hand: the stage cleared (the next stage, or the run
        complete), game over, or ready for the next hand; ``(cleared, next stage, next
        purse)``, both ``None`` once the run is over."""
        p = self.params
        cleared = self.purse <= 0
        next_stage: int | None = self.stage
        next_purse: int | None = self.purse
        if cleared:
            lines.append(f"The purse is empty: stage {self.stage} cleared! (通过第{self.stage}关)")
            if self.stage == STAGES:
                self.status = Status.COMPLETE
                next_stage = next_purse = None
                lines.append(
                    f"通关 — the run is complete. Final bankroll (the run's score): "
                    f"{self.bankroll:,}."
                )
            else:
                self.stage += 1
                self.stage_hands = 0
                self.purse = p.purse(self.stage)
                self.streak = 0
                self.dealer = self._stage_dealer(self.stage)
                next_stage, next_purse = self.stage, self.purse
                lines.append(
                    f"Stage {self.stage} begins: the computer's purse is {self.purse:,}, "
                    f"{SEATS[self.dealer]} deal{'s' if self.dealer == COMPUTER else ''} "
                    f"first (drawn at random), streak 0; your bankroll carries over."
                )
                self.status = Status.READY
        elif self.bankroll < p.stake_unit:
            self.status = Status.GAME_OVER
            next_stage = next_purse = None
            lines.append(
                f"游戏失败 — game over: your bankroll {self.bankroll:,} cannot cover the smallest "
                f"stake ({p.stake_unit})."
            )
        else:
            self.status = Status.READY
        return cleared, next_stage, next_purse

    def void_hand(self, reason: str) -> list[str]:
        """Call off the hand in play as if it had never started: the stake goes back and
        nothing else changes (used only when a saved hand can no longer be replayed)."""
        start = self.current
        if self.status is not Status.IN_HAND or start is None:
            raise CampaignError("there is no hand in play to call off")
        self.bankroll += start.stake
        self.hands -= 1
        self.stage_hands -= 1
        self.current = None
        self.status = Status.READY
        return [f"Hand {start.hand} called off ({reason}): stake {start.stake} returned."]

    # ------------------------------------------------------------------ chance
    def _hand_seed(self, hand: int) -> int:
        return random.Random(f"erren-campaign:{self.seed}:hand:{hand}").getrandbits(63)

    def _stage_dealer(self, stage: int) -> int:
        """R1.17 / R3.6: the first dealer of a stage is random."""
        return random.Random(f"erren-campaign:{self.seed}:stage:{stage}").randrange(2)

    @staticmethod
    def _base_formula(outcome: Outcome) -> str:
        if outcome.yakuman:
            return f"{outcome.yakuman} × {YAKUMAN_BASE}"
        f = min(FAN_CAP, outcome.fan)
        cap = f", {outcome.fan} fan capped at {FAN_CAP}" if outcome.fan > FAN_CAP else ""
        return f"f × (f + 1) × 50 with f = {f}{cap}: {f} × {f + 1} × 50"

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "params": self.params.to_dict(),
            "stage": self.stage,
            "bankroll": self.bankroll,
            "purse": self.purse,
            "dealer": self.dealer,
            "streak": self.streak,
            "multiplier": self.multiplier,
            "hands": self.hands,
            "stage_hands": self.stage_hands,
            "status": self.status.value,
            "current": None if self.current is None else self.current.to_dict(),
            "best_payout": self.best_payout,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Run:
        """The run of :meth:`to_dict`; a missing or ill-typed field raises :class:`ValueError`
        (or :class:`KeyError`/:class:`TypeError`, which the save module reports)."""
        params = CampaignParams.from_dict(dict(data.get("params", {})))
        run = cls(
            seed=_int(data, "seed"),
            params=params,
            stage=_int(data, "stage"),
            bankroll=_int(data, "bankroll"),
            purse=_int(data, "purse"),
            dealer=_int(data, "dealer"),
            streak=_int(data, "streak"),
            multiplier=_int(data, "multiplier"),
            hands=_int(data, "hands"),
            stage_hands=_int(data, "stage_hands"),
            status=Status(data["status"]),
            best_payout=_int(data, "best_payout"),
        )
        if not 1 <= run.stage <= STAGES or run.dealer not in (HUMAN, COMPUTER):
            raise ValueError("stage or dealer out of range")
        if run.bankroll < 0 or run.streak < 0 or run.hands < 0 or run.stage_hands < 0:
            raise ValueError("negative bankroll, streak or hand count")
        current = data.get("current")
        if (current is None) != (run.status is not Status.IN_HAND):
            raise ValueError("a hand in play goes with status in_hand, and only then")
        if current is not None:
            run.current = HandStart(
                hand=_int(current, "hand"),
                stage=_int(current, "stage"),
                stage_hand=_int(current, "stage_hand"),
                multiplier=_int(current, "multiplier"),
                stake=_int(current, "stake"),
                bankroll_before=_int(current, "bankroll_before"),
                bankroll=_int(current, "bankroll"),
                purse=_int(current, "purse"),
                dealer=_int(current, "dealer"),
                streak=_int(current, "streak"),
                seed=_int(current, "seed"),
                features=params.features(_int(current, "stage")),
            )
        return run


def _int(data: dict[str, Any], name: str) -> int:
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    return value
