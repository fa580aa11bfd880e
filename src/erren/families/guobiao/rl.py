"""guobiao-2p's part of the RL encodings (:mod:`erren.rl.layout`): its ``family`` column alone
(its view has no facts of its own); part of layout version 1."""

from __future__ import annotations

from erren.rl.layout import FamilyLayout

__all__ = ["RL"]

RL = FamilyLayout(version=1)
"""guobiao-2p's ``rl`` part."""
