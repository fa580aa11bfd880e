"""The families by name: a family registers its factory; :func:`find_family` builds one with
options (``find_family("guobiao-2p", suit="p", flowers=True)``).  The built-in families and
the plugged-in ones (:mod:`erren.families`) are loaded when the registry is first asked."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from erren.engine.family import Family

__all__ = [
    "families",
    "family_names",
    "find_family",
    "load_families",
    "register_family",
    "unregister_family",
]

_REGISTRY: dict[str, Callable[..., Family]] = {}


def register_family(name: str, factory: Callable[..., Family]) -> None:
    """Make ``find_family(name, **options)`` call ``factory(**options)``."""
    _REGISTRY[name] = factory


def unregister_family(name: str) -> None:
    """Forget the family ``name`` (a plug-in registered for a while, as the tests do)."""
    _REGISTRY.pop(name, None)


def family_names() -> tuple[str, ...]:
    load_families()
    return tuple(sorted(_REGISTRY))


def families() -> tuple[Family, ...]:
    """Every registered family with its default options, in :attr:`Family.listing_order`
    (then by name)."""
    built = [find_family(name) for name in family_names()]
    return tuple(sorted(built, key=lambda f: (f.listing_order, f.name)))


def find_family(name: str, options: Mapping[str, Any] | None = None, **kw: Any) -> Family:
    """The ruleset ``name`` with options (``find_family("guobiao-2p", fan_table="gb")``).
    Unknown names and invalid options raise :class:`ValueError`."""
    load_families()
    factory = _REGISTRY.get(name)
    if factory is None:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown ruleset {name!r} (known: {known})")
    merged = dict(options or {})
    merged.update(kw)
    return factory(**merged)


def load_families() -> None:
    """Import the built-in families (and those ``ERREN_FAMILIES`` names), once: families register
    themselves on import.  The one place the engine reaches the families' packages."""
    from erren.families import load_built_in  # noqa: PLC0415 - the families import the engine

    load_built_in()
