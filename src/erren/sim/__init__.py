"""Batch simulation of bots against each other, and saved playthrough transcripts.

* :mod:`~erren.sim.simulator` — :func:`simulate` N hands (or matches) between two bots, seeded,
  optionally writing every record as JSON lines; returns :class:`Stats`;
* :mod:`~erren.sim.arena` — :func:`arena`: duplicate matches (every deal twice, seats swapped)
  between two bots; returns :class:`ArenaResult` (A − B points per hand with a 95 % interval);
* :mod:`~erren.sim.transcript` — every player's observation at every step as text;
* :mod:`~erren.sim.oracle` — hidden facts for measuring ceilings (:func:`deals_in`), never for
  a bot that plays.
"""

from __future__ import annotations

from erren.sim.arena import ArenaResult, arena
from erren.sim.simulator import Progress, Stats, play_hand, simulate
from erren.sim.transcript import render_observation, transcript

__all__ = [
    "ArenaResult",
    "Progress",
    "Stats",
    "arena",
    "play_hand",
    "render_observation",
    "simulate",
    "transcript",
]
