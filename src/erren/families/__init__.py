"""The families: each one a package that owns everything about itself.

A family package holds its game (``game``: the :class:`~erren.engine.family.Family` with its
data, phases, hooks, its own verbs and event kinds and its view), its scoring, its computer
strategy (``bot``) and its terminal scorer, and registers all of it on import.  Nothing outside
a family's package imports its modules: the engine loads the families named here —

* :data:`BUILT_IN`, the one list of the families erren ships;
* every entry point of the group ``erren.families`` (a family published as its own
  distribution: ``[project.entry-points."erren.families"] toy = "toy_family"``);
* the modules named in the ``ERREN_FAMILIES`` environment variable, separated by commas (a
  family under development, or the tests' toy family: ``ERREN_FAMILIES=erren.testing.toy.plugin``).

Loading is lazy (the first :func:`~erren.engine.find_family`, an unknown verb, the list of
event kinds) and idempotent.
"""

from __future__ import annotations

import importlib
import os
from importlib.metadata import entry_points

__all__ = ["BUILT_IN", "ENV", "GROUP", "load_built_in", "plug_ins"]

BUILT_IN: tuple[str, ...] = (
    "erren.families.guobiao.game",
    "erren.families.arcade.game",
    "erren.families.xiamen.game",
)
"""The modules that register the built-in families (guobiao-2p, arcade, xiamen)."""

GROUP = "erren.families"
"""The entry-point group of families published on their own."""
ENV = "ERREN_FAMILIES"
"""The environment variable naming more family modules (comma-separated)."""

_loaded = False


def plug_ins() -> tuple[str, ...]:
    """The family modules beyond the built-in ones: entry points, then ``ERREN_FAMILIES``."""
    found = [point.value for point in entry_points(group=GROUP)]
    found += [name.strip() for name in os.environ.get(ENV, "").split(",") if name.strip()]
    return tuple(found)


def load_built_in() -> None:
    """Import every family (built-in and plugged in), so each registers itself; once."""
    global _loaded  # noqa: PLW0603 - loading happens once per process
    if _loaded:
        return
    _loaded = True
    for module in (*BUILT_IN, *plug_ins()):
        importlib.import_module(module)
