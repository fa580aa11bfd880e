"""The hot-path hooks a family overrides, bound once per family (:attr:`Family.overrides
<erren.engine.family.Family.overrides>`): the state calls a bound hook, or runs the shared
behaviour inline where the family left the hook at its default."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from erren.engine.actions import Action
    from erren.engine.state import AnyWinHow, State

__all__ = ["Overrides"]


@dataclass(frozen=True, slots=True)
class Overrides:
    """The hooks of the hot path a family overrides, bound (``None``: the shared behaviour,
    which the state runs inline)."""

    can_win: Callable[[State, int, int, AnyWinHow], bool] | None
    turn_actions: Callable[[State, int], list[Action]] | None
    claim_options: Callable[[State, int, int], list[Action]] | None
    chow_tiles: Callable[[State, int], tuple[int, int, int]] | None
    playing_flower: Callable[[State], int] | None
    after_discard: Callable[[State, int, int], None] | None
    after_draw: Callable[[State, int], None] | None
    before_draw: Callable[[State, int], bool] | None
    on_exhausted: Callable[[State], bool] | None
    perform: Callable[[State, Action, bool], bool] | None
    default_move: Callable[[State, int], Action] | None
    auto_move: Callable[[State, int], Action | None] | None
    accepts: Callable[[State, Action], bool] | None
