"""Rulesets: a family's fixed facts (tiles, options) plus a few hooks, found by name.

A :class:`Ruleset` is what OpenSpiel calls the *Game*: it never changes during play.  The turn
flow shared by the families lives in :mod:`erren.engine.state`; a family subclasses
:class:`Ruleset`, sets its data and overrides the hooks below (python-chess's variants, without
the deep chains).  Hooks the guobiao family leaves at their defaults are where the other families
plug in:

* ``wild_kinds`` / ``can_win``: wild tiles (xiamen's 金, arcade's 财神) change the shape test;
* ``chance_plan``: a reserve stock, extra dice (the gold reveal), random events;
* ``discard_filter``: the 跟打 obligation (xiamen R-2.5) restricts which tiles may be discarded;
* ``opening_window``: xiamen's 三金倒/抢金胡 and arcade's opening exchange run before the first
  discard (``None`` here: play starts at once);
* ``score_win`` / ``settle``: the family's fan table and payments.

Families register a factory with :func:`register_ruleset`; :func:`find_ruleset` builds one with
options (``find_ruleset("guobiao-2p", suit="p", flowers=True)``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from erren.engine.actions import Action, ActionKind
from erren.engine.winning import is_complete

if TYPE_CHECKING:
    from erren.engine.state import HandResult, State, WinClaim

__all__ = [
    "Options",
    "Ruleset",
    "find_ruleset",
    "register_ruleset",
    "ruleset_names",
]


@dataclass(frozen=True)
class Options:
    """Base of a family's options: a frozen dataclass validated on construction."""

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


class Ruleset:
    """A family's data and hooks.  Subclasses set the class data and ``options``."""

    name: ClassVar[str] = ""
    options: Options
    tiles: tuple[int, ...]
    """The physical tiles shuffled into the wall (kind ids, flowers 34..41)."""
    kinds: tuple[int, ...]
    """The playing kinds in use (no flowers)."""
    chance_plan: tuple[ActionKind, ...] = (ActionKind.SHUFFLE, ActionKind.DICE)
    """The chance actions of the setup, in order."""
    ting_enabled: bool = False
    ting_auto_hu: bool = True
    min_fan: int = 0
    turn_timeout_s: int = 20
    claim_timeout_s: int = 10
    auto_trustee_after: int = 2

    # ------------------------------------------------------------------ chance
    def sample_chance(self, state: State, kind: ActionKind, rng: random.Random) -> Action:
        """Draw the outcome of the next chance action from ``rng``."""
        if kind is ActionKind.SHUFFLE:
            wall = list(self.tiles)
            rng.shuffle(wall)
            return Action.shuffle(tuple(wall))
        if kind is ActionKind.DICE:
            return Action.dice(rng.randint(1, 6), rng.randint(1, 6))
        raise ValueError(f"{kind} is not a chance action")

    # ------------------------------------------------------------------ hooks
    complete: Callable[[list[int], int], bool] = staticmethod(is_complete)
    """Whether a concealed part (14-form, counts of the 34 kinds) is a winning shape; wild-tile
    families replace it."""

    def win_value(self, state: State, claim: WinClaim) -> int | None:
        """The fan total toward ``min_fan`` (flowers excluded) of a possible win, or ``None``
        when the family has no minimum."""
        return None

    def discard_filter(self, state: State, player: int, kinds: list[int]) -> list[int]:
        """The kinds ``player`` may discard among those he holds (xiamen: 跟打)."""
        return kinds

    def score_win(self, state: State, claim: WinClaim) -> HandResult:
        """The finished hand's result: fan list, total, points and payments."""
        raise NotImplementedError

    def options_dict(self) -> dict[str, Any]:
        return self.options.to_dict()

    def __repr__(self) -> str:
        changed = {
            k: v
            for k, v in self.options_dict().items()
            if v != getattr(type(self.options)(), k, object())
        }
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"find_ruleset({self.name!r}{args})"


_REGISTRY: dict[str, Callable[..., Ruleset]] = {}


def register_ruleset(name: str, factory: Callable[..., Ruleset]) -> None:
    """Make ``find_ruleset(name, **options)`` call ``factory(**options)``."""
    _REGISTRY[name] = factory


def ruleset_names() -> tuple[str, ...]:
    _load_families()
    return tuple(sorted(_REGISTRY))


def find_ruleset(name: str, options: Mapping[str, Any] | None = None, **kw: Any) -> Ruleset:
    """The ruleset ``name`` with options (``find_ruleset("guobiao-2p", fan_table="gb")``).
    Unknown names and invalid options raise :class:`ValueError`."""
    _load_families()
    factory = _REGISTRY.get(name)
    if factory is None:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown ruleset {name!r} (known: {known})")
    merged = dict(options or {})
    merged.update(kw)
    return factory(**merged)


def _load_families() -> None:
    # Families register themselves on import; import the built-in ones lazily.
    import erren.engine.guobiao  # noqa: F401, PLC0415
