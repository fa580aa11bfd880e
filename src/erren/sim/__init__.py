"""Batch simulation of bots against each other, and saved playthrough transcripts.

* :mod:`~erren.sim.simulator` — :func:`simulate` N hands (or matches) between two bots, seeded,
  optionally writing every record as JSON lines; returns :class:`Stats`;
* :mod:`~erren.sim.transcript` — every player's observation at every step as text.
"""

from __future__ import annotations

from erren.sim.simulator import Progress, Stats, play_hand, simulate
from erren.sim.transcript import render_observation, transcript

__all__ = ["Progress", "Stats", "play_hand", "render_observation", "simulate", "transcript"]
