"""Stage mode (关卡模式, arcade §3): a run of four stages against the computer.

:mod:`~erren.families.arcade.campaign.params` holds the §8 parameters and each stage's features,
:mod:`~erren.families.arcade.campaign.run` the pure, seeded model of a run (bankroll, stake,
settlement, the
three-streak bonus, purses, stage clear, game over), :mod:`~erren.families.arcade.campaign.save`
the save file.
The terminal command is :mod:`erren.cli.arcade`; the tiles are played by the ``arcade`` engine.
"""

from __future__ import annotations

from erren.families.arcade.campaign.params import (
    STAGE_LEVELS,
    STAGES,
    CampaignParams,
    StageFeatures,
    stage_level,
)
from erren.families.arcade.campaign.run import (
    COMPUTER,
    HUMAN,
    CampaignError,
    HandStart,
    Outcome,
    OutcomeKind,
    Run,
    Settlement,
    StakeError,
    Status,
    stage_base,
)

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
