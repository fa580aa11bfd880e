"""Rulesets: a family's fixed facts (tiles, options) plus a few hooks, found by name.

A :class:`Ruleset` is what OpenSpiel calls the *Game*: it never changes during play.  The turn
flow shared by the families lives in :mod:`erren.engine.state`; a family subclasses
:class:`Ruleset`, sets its data and overrides the hooks below (python-chess's variants, without
the deep chains).  Hooks the guobiao family leaves at their defaults are where the other families
plug in:

* ``chance_plan`` / ``after_chance``: the chance actions of the setup and what follows each
  (guobiao deals after its dice; xiamen deals after the shuffle and reveals the gold after its
  dice; arcade would set its reserve stock aside here);
* ``can_win``: wild tiles (xiamen's 金, arcade's 财神) and who may win on what;
* ``claim_options``: what the opponent may do with a discard (xiamen: no claim on a gold);
* ``discard_filter`` / ``diagnose``: the 跟打 obligation (xiamen R-2.5) restricts which tiles
  may be discarded, and a refused action names its rule;
* ``after_discard`` / ``after_draw``: state changes after a discard (xiamen's 游金 entry) or a
  draw (xiamen's forced 游 wins; arcade's post-draw phase and random events);
* ``phase_actions`` / ``perform``: the family's own phases (``OPENING``, ``YOU_CHOICE``,
  ``LAST_DRAW``) and actions;
* ``default_move``: the timeout / 托管 move when the family's differs;
* ``score_win``, ``first_dealer``, ``next_dealer``: the fan table, payments and the deal.

A hook left at its default costs nothing: :meth:`Ruleset.bound_hooks` lists only the overridden
ones and the state calls nothing else on its hot path.

Families register a factory with :func:`register_ruleset`; :func:`find_ruleset` builds one with
options (``find_ruleset("guobiao-2p", suit="p", flowers=True)``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, Self

from erren.engine.actions import Action, ActionKind
from erren.engine.views import FamilyView, GuobiaoView
from erren.engine.winning import is_complete
from erren.errors import IllegalActionError

if TYPE_CHECKING:
    from erren.engine.state import HandResult, State, WinClaim

__all__ = [
    "Options",
    "Ruleset",
    "find_ruleset",
    "register_ruleset",
    "ruleset_names",
]


_SHARED = ("claim_privacy",)
"""Options every family has (declared on :class:`Options`)."""


@dataclass(frozen=True)
class Options:
    """Base of a family's options: a frozen dataclass validated on construction.

    ``claim_privacy`` (鸣牌保护, guobiao-2p §2.4, the same in every family): every discard opens
    a claim window and every 加杠 a rob window for the opponent, ``pass`` alone when he has no
    other choice, so that the discarder cannot tell from the flow of the hand whether the
    opponent could claim.  Servers turn it on at tables with a human seat."""

    claim_privacy: bool = field(default=False, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        """Every option by name, the family's own first, the shared ones last."""
        names = [f.name for f in fields(self) if f.name not in _SHARED]
        return {name: getattr(self, name) for name in (*names, *_SHARED)}

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def parse(cls, family: str, options: Mapping[str, Any]) -> Self:
        """The options of ``family`` given by name; an unknown name is a :class:`ValueError`."""
        unknown = sorted(set(options) - set(cls.field_names()))
        if unknown:
            raise ValueError(f"unknown option(s) for {family}: {', '.join(unknown)}")
        return cls(**options)


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
    claim_privacy: bool = False
    """鸣牌保护: windows open whether or not the opponent has a choice (see :class:`Options`)."""
    uses_streak: ClassVar[bool] = False
    """Whether a hand's result depends on the dealer streak (xiamen's 底); records then keep it."""

    def _use_clocks(self, opts: Any) -> None:
        """Take the settings every family's options carry: the clocks and ``claim_privacy``."""
        self.turn_timeout_s = opts.turn_timeout_s
        self.claim_timeout_s = opts.claim_timeout_s
        self.auto_trustee_after = opts.auto_trustee_after
        if not isinstance(opts.claim_privacy, bool):
            raise ValueError("option claim_privacy must be true or false")
        self.claim_privacy = opts.claim_privacy

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

    def after_chance(self, state: State, action: Action, step: int) -> None:
        """Called after the ``step``-th chance action: deal once the plan is done."""
        if step == len(self.chance_plan):
            state._deal()

    def diagnose(self, state: State, action: Action) -> IllegalActionError | None:
        """The family's reason why ``action`` (known to be illegal) is refused, or ``None``."""
        return None

    def phase_actions(self, state: State, player: int) -> list[Action]:
        """Legal actions of a family phase (``OPENING``, ``YOU_CHOICE``, ``LAST_DRAW``)."""
        return []

    # Optional hooks (not defined here; define them in a family to change the flow):
    #   can_win(state, p, tile, how) -> bool
    #   claim_options(state, q, x) -> list[Action]
    #   after_discard(state, p, x) -> None
    #   after_draw(state, p) -> None            (TURN was just entered after a draw)
    #   perform(state, action, auto) -> bool    (True: the family applied the action)
    #   default_move(state, p) -> Action        (timeouts and 托管)
    #   turn_actions(state, p) -> list[Action]  (the family's own TURN moves)
    #   before_draw(state, q) -> bool           (True: the family handles q's normal draw)
    #   on_exhausted(state) -> bool             (True: the family handles the empty wall)
    #   auto_move(state, p) -> Action | None    (报听/托管 auto-play; None: p decides)
    #   accepts(state, action) -> bool          (legal though not listed: multi-tile choices)
    _HOOKS: ClassVar[tuple[str, ...]] = (
        "can_win",
        "claim_options",
        "after_discard",
        "after_draw",
        "perform",
        "default_move",
        "turn_actions",
        "before_draw",
        "on_exhausted",
        "auto_move",
        "accepts",
    )

    def bound_hooks(self) -> dict[str, Callable[..., Any]]:
        """The optional hooks this family defines, bound to it."""
        return {name: getattr(self, name) for name in self._HOOKS if hasattr(self, name)}

    def first_dealer(self, rng: random.Random, first_ready: int) -> int:
        """The first hand's dealer of a match (guobiao: option ``first_dealer``)."""
        rule = getattr(self.options, "first_dealer", "first_ready")
        if rule == "dice":
            while True:
                a = rng.randint(1, 6) + rng.randint(1, 6)
                b = rng.randint(1, 6) + rng.randint(1, 6)
                if a != b:
                    return 0 if a > b else 1
        if rule == "random":
            return rng.randrange(2)
        return first_ready

    def next_dealer(self, dealer: int, streak: int, result: HandResult) -> tuple[int, int]:
        """``(dealer, streak)`` of the next hand (guobiao §1.3: the deal passes unless the
        dealer wins)."""
        if result.kind == "win" and result.winner == dealer:
            return dealer, streak + 1
        return 1 - dealer, 0

    def escape_penalty(self) -> int:
        """Points an escaping player pays."""
        return int(getattr(self.options, "escape_penalty_points", 0))

    def score_win(self, state: State, claim: WinClaim) -> HandResult:
        """The finished hand's result: fan list, total, points and payments."""
        raise NotImplementedError

    def options_dict(self) -> dict[str, Any]:
        return self.options.to_dict()

    def view(self, state: State, player: int) -> FamilyView:
        """The family's own facts ``player`` may see (``Observation.view``); none by default."""
        return GuobiaoView()

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
    import erren.engine.arcade  # noqa: PLC0415
    import erren.engine.guobiao  # noqa: PLC0415
    import erren.engine.xiamen  # noqa: F401, PLC0415
