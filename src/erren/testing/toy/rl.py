"""The toy's part of the RL encodings (:mod:`erren.rl.layout`), as a family added after layout
version 1 writes it: its phase, its ``family`` column, a plane of the called kind and its
``call`` moves, all appended after the built-in families' (layout version 2)."""

from __future__ import annotations

from erren.engine.views import FamilyView
from erren.rl.layout import EVERY_KIND, FamilyLayout, PlaneWriter
from erren.testing.toy.game import ToyPhase, ToyVerb, ToyView

__all__ = ["RL"]


def _encode(out: PlaneWriter, view: FamilyView) -> None:
    """The called kind."""
    if isinstance(view, ToyView):
        out.tile("toy.called", view.called)


RL = FamilyLayout(
    version=2,
    phases=tuple(phase.value for phase in ToyPhase),
    planes=(("toy.called", "toy: the kind the dealer called"),),
    moves=((ToyVerb.CALL, EVERY_KIND),),
    encode=_encode,
)
"""The toy's ``rl`` part."""
