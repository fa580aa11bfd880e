"""Hidden information for measurements only: what the engine knows and no player sees.

:func:`deals_in` tells whether a discard would let the opponent win on it, from the state being
played (a ceiling for a reader of hands, as in ``benchmarks.bench_xiamen_defence``).  No bot
that plays a person may call it: its answer depends on the opponent's concealed tiles.
"""

from __future__ import annotations

from erren.engine import Action, ActionKind, State

__all__ = ["deals_in"]


def deals_in(state: State, discard: Action) -> bool:
    """Whether the opponent may win on ``discard`` if the actor of ``state`` throws it: the
    engine offers him a win (``hu``) on it, by the family's own rules (any family)."""
    twin = state.clone()
    twin.apply(discard)
    return not twin.is_terminal and any(a.kind is ActionKind.HU for a in twin.legal_actions())
