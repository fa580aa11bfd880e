"""The stage-mode parameters of arcade §8 and the features of each stage (R3.1, R3.5).

:class:`CampaignParams` holds every ``stage_*`` parameter with its default; a run keeps the
parameters it started with (they are saved with it).  :meth:`CampaignParams.features` gives
the in-hand features a stage hands to the engine as :class:`StageFeatures`.

The in-hand defaults are the engine's: each stage's options are
:func:`erren.families.arcade.game.stage_options` (the one place they are written), the big-bleed
gaps
the ``arcade`` ruleset's defaults; this module adds only what the run itself needs (bankroll,
stake, purses, the three-streak bonus).

>>> params = CampaignParams()
>>> params.stake(3), params.purse(2)
(300, 20000)
>>> params.features(1).haidi_draws_human, params.features(2).haidi_draws_human
(3, 5)
>>> params.features(4).bleed_yakuman_prob
0.05
>>> stage_level(1).chinese, stage_level(4).chinese
('入门', '大师')
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from erren.bots.levels import Level
from erren.families.arcade.game import ArcadeOptions, stage_options

__all__ = ["STAGES", "STAGE_LEVELS", "CampaignParams", "StageFeatures", "stage_level"]

STAGES = 4
"""A run has four stages (R3.1)."""

STAGE_LEVELS = (Level.NOVICE, Level.NORMAL, Level.STRONG, Level.MASTER)
"""The computer's level in stages 1..4: it grows stronger from stage to stage (入门, 普通,
高手, 大师), each level playing for its stage's objective in stage mode
(:mod:`erren.families.arcade.bot.stage`).  The one place this is written: the terminal's
``erren arcade`` and the server's campaign table both read :func:`stage_level`."""


def stage_level(stage: int) -> Level:
    """The computer's level in ``stage`` (1..4; a later stage plays as the last)."""
    if stage < 1:
        raise ValueError(f"stages count from 1, not {stage}")
    return STAGE_LEVELS[min(stage, len(STAGE_LEVELS)) - 1]


_STAGE_OPTIONS = tuple(stage_options(stage) for stage in range(1, STAGES + 1))
"""The engine's in-hand options of stages 1..4: the defaults below are read from them."""


def _per_stage(name: str) -> tuple[Any, ...]:
    """The engine's default of option ``name`` in each stage."""
    return tuple(options[name] for options in _STAGE_OPTIONS)


def _every_stage(name: str) -> Any:
    """The engine's default of option ``name``, the same in every stage."""
    (value,) = set(_per_stage(name))
    return value


def _whole(name: str, value: object, least: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise ValueError(f"{name} must be a whole number ≥ {least}, not {value!r}")


def _probability(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError(f"{name} must be a probability in [0, 1], not {value!r}")


@dataclass(frozen=True, slots=True)
class StageFeatures:
    """What one stage turns on for the human (R3.1, R3.5); the computer never gets any of it
    (R3.2).  Each stage keeps every feature of the stages before it."""

    stage: int
    streak_bonus: bool
    """三连庄拍分 (R3.5), from stage 1."""
    opening_exchange: bool
    """起始换牌 (R3.7), from stage 2."""
    haidi_draws_human: int
    """五张海底摸牌 (R3.8): the human's post-draw draws, 3 in stage 1, 5 from stage 2."""
    haidi_draws: int
    """The computer's post-draw draws (``haidi_draws``, always 3)."""
    pick_any_prob: float
    """随机摸任意牌 (R3.9), 0.05 from stage 3."""
    pung_offer_prob: float
    """The pung offer belongs to no stage (R3.2): 0 by default."""
    bleed_normal_prob: float
    """平常番配牌大出血 (R3.10), 0.20 from stage 3."""
    bleed_yakuman_prob: float
    """役满型配牌大出血 (R3.10), 0.05 in stage 4."""
    bleed_normal_gap: int
    bleed_yakuman_gap: int

    def names(self) -> tuple[str, ...]:
        """The stage's features in words, in the order they were added (R3.1)."""
        out = ["三连庄拍分 three-streak bonus"] if self.streak_bonus else []
        if self.opening_exchange:
            out.append("起始换牌 opening exchange")
        if self.haidi_draws_human > self.haidi_draws:
            out.append(
                f"{self.haidi_draws_human}张海底摸牌 {self.haidi_draws_human} sea-bottom draws"
            )
        if self.pick_any_prob:
            out.append(f"随机摸任意牌 pick-any ({self.pick_any_prob:.0%} of draws)")
        if self.pung_offer_prob:
            out.append(f"游戏中换牌 pung offer ({self.pung_offer_prob:.0%} of draws)")
        if self.bleed_normal_prob:
            out.append(f"平常番配牌大出血 normal big-bleed deal ({self.bleed_normal_prob:.0%})")
        if self.bleed_yakuman_prob:
            out.append(f"役满型配牌大出血 yakuman big-bleed deal ({self.bleed_yakuman_prob:.0%})")
        return tuple(out)


@dataclass(frozen=True, slots=True)
class CampaignParams:
    """The ``stage_*`` parameters of arcade §8, with their defaults.  Per-stage values are
    tuples indexed by stage − 1."""

    initial_bankroll: int = 1000
    stake_unit: int = 100
    max_multiplier: int = 10
    purses: tuple[int, ...] = (10000, 20000, 40000, 80000)
    streak_length: int = 3
    streak_multiplier: int = 2
    haidi_draws: int = _every_stage("haidi_draws")
    haidi_draws_human: tuple[int, ...] = _per_stage("haidi_draws_human")
    pick_any_prob: tuple[float, ...] = _per_stage("pick_any_prob")
    pung_offer_prob: float = _every_stage("pung_offer_prob")
    bleed_normal_prob: tuple[float, ...] = _per_stage("bleed_normal_prob")
    bleed_yakuman_prob: tuple[float, ...] = _per_stage("bleed_yakuman_prob")
    bleed_normal_gap: int = ArcadeOptions.bleed_normal_gap
    bleed_yakuman_gap: int = ArcadeOptions.bleed_yakuman_gap
    opening_exchange_from: int = _per_stage("opening_exchange").index(True) + 1
    """The first stage with the opening exchange (R3.1: stage 2)."""

    def __post_init__(self) -> None:
        for name in ("initial_bankroll", "stake_unit", "max_multiplier", "streak_length"):
            _whole(name, getattr(self, name), 1)
        for name in ("streak_multiplier", "haidi_draws", "bleed_normal_gap", "bleed_yakuman_gap"):
            _whole(name, getattr(self, name), 1)
        _whole("opening_exchange_from", self.opening_exchange_from, 1)
        _probability("pung_offer_prob", self.pung_offer_prob)
        for name in (
            "purses",
            "haidi_draws_human",
            "pick_any_prob",
            "bleed_normal_prob",
            "bleed_yakuman_prob",
        ):
            values = getattr(self, name)
            if not isinstance(values, tuple) or len(values) != STAGES:
                raise ValueError(f"{name} needs one value per stage ({STAGES}), not {values!r}")
            for i, value in enumerate(values):
                if name in ("purses", "haidi_draws_human"):
                    _whole(f"{name}[{i}]", value, 1)
                else:
                    _probability(f"{name}[{i}]", value)
        for i in range(STAGES):
            if self.bleed_normal_prob[i] + self.bleed_yakuman_prob[i] > 1:
                raise ValueError(f"stage {i + 1}: the big-bleed probabilities add up to over 1")

    # ------------------------------------------------------------------ derived
    def stake(self, multiplier: int) -> int:
        """``m × stage_stake_unit`` (R3.3)."""
        return multiplier * self.stake_unit

    def purse(self, stage: int) -> int:
        """The computer purse of ``stage`` (R3.6)."""
        return self.purses[_index(stage)]

    def features(self, stage: int) -> StageFeatures:
        """The features of ``stage`` (R3.1, R3.5)."""
        i = _index(stage)
        return StageFeatures(
            stage=stage,
            streak_bonus=True,
            opening_exchange=stage >= self.opening_exchange_from,
            haidi_draws_human=self.haidi_draws_human[i],
            haidi_draws=self.haidi_draws,
            pick_any_prob=self.pick_any_prob[i],
            pung_offer_prob=self.pung_offer_prob,
            bleed_normal_prob=self.bleed_normal_prob[i],
            bleed_yakuman_prob=self.bleed_yakuman_prob[i],
            bleed_normal_gap=self.bleed_normal_gap,
            bleed_yakuman_gap=self.bleed_yakuman_gap,
        )

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CampaignParams:
        """The parameters of ``data``; missing names take their defaults, unknown names and bad
        values raise :class:`ValueError`."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown campaign parameter(s): {', '.join(unknown)}")
        values: dict[str, Any] = {
            k: tuple(v) if isinstance(v, list) else v for k, v in data.items()
        }
        return cls(**values)


def _index(stage: int) -> int:
    if isinstance(stage, bool) or not isinstance(stage, int) or not 1 <= stage <= STAGES:
        raise ValueError(f"stage must be 1..{STAGES}, not {stage!r}")
    return stage - 1
