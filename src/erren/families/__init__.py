"""The families: each one a package that owns everything about itself.

A family package holds its game (``game``: the :class:`~erren.engine.family.Family` with its
data, phases and hooks), its scoring, its computer strategy (``bot``) and its terminal scorer,
and registers its :class:`~erren.engine.family.Family` factory on import.  :data:`BUILT_IN` is
the one list that names them; nothing outside a family's package imports its modules through
another path than this list and the family object it registers.
"""

from __future__ import annotations

import importlib

__all__ = ["BUILT_IN", "load_built_in"]

BUILT_IN: tuple[str, ...] = (
    "erren.families.guobiao.game",
    "erren.families.arcade.game",
    "erren.families.xiamen.game",
)
"""The modules that register the built-in families (guobiao-2p, arcade, xiamen)."""


def load_built_in() -> None:
    """Import every built-in family, so each registers itself (idempotent, cheap after the
    first)."""
    for module in BUILT_IN:
        importlib.import_module(module)
