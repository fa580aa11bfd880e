"""Stage mode (关卡模式, arcade §3): a run of four stages against the computer.

:mod:`~erren.families.arcade.campaign.params` holds the §8 parameters and each stage's features,
:mod:`~erren.families.arcade.campaign.run` the pure, seeded model of a run (bankroll, stake,
settlement, the three-streak bonus, purses, stage clear, game over) and
:mod:`~erren.families.arcade.campaign.hand` the values of its hands (start, outcome,
settlement), :mod:`~erren.families.arcade.campaign.save`
the save file.
The terminal command ``erren arcade`` is :mod:`~erren.families.arcade.campaign.command` (its
screens :mod:`~erren.families.arcade.campaign.terminal`), the server's campaign is
:mod:`~erren.families.arcade.campaign.service`; the tiles are played by the ``arcade`` engine.
"""

from __future__ import annotations

from erren.families.arcade.campaign.hand import (
    COMPUTER,
    HUMAN,
    CampaignError,
    HandStart,
    Outcome,
    OutcomeKind,
    Settlement,
    StakeError,
    Status,
    stage_base,
)
from erren.families.arcade.campaign.params import (
    STAGE_LEVELS,
    STAGES,
    CampaignParams,
    StageFeatures,
    stage_level,
)
from erren.families.arcade.campaign.run import Run

__all__ = [
    "COMPUTER",
    "HUMAN",
    "STAGES",
    "STAGE_LEVELS",
    "CampaignError",
    "CampaignParams",
    "HandStart",
    "Outcome",
    "OutcomeKind",
    "Run",
    "Settlement",
    "StageFeatures",
    "StakeError",
    "Status",
    "stage_base",
    "stage_level",
]
