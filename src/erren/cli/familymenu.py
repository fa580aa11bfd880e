"""A family's part of ``erren play``'s menu: keys for its own verbs, the answers typed with
tiles after a key, and the question each of its phases asks.

The shared menu (:mod:`erren.cli.menu`) lists the shared moves (和, 自摸, kongs, 碰, 吃, the
discards, 报听, pass) and asks the family's :class:`FamilyMenu` (``Family.terminal_menu()``)
for the rest, in two places: ``early`` (right after the shared wins: a family's wins and
risks) and late (after the discards, before pass).  A family without one has its verbs listed
by their words (:attr:`~erren.engine.actions.VerbRule.words`) under the keys ``m1``, ``m2``…
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from erren.display import Palette
from erren.engine import Action, Observation
from erren.engine.actions import AnyActionKind

__all__ = ["Choice", "FamilyMenu"]


@dataclass
class Choice:
    """One line of the menu: the key to type, what it does in words, and the action."""

    key: str
    label: str
    action: Action


class FamilyMenu(Protocol):
    """A family's part of the terminal menu."""

    typed: tuple[str, ...]
    """Keys whose action needs tiles typed after the key (``e 1 5 9``)."""

    def choices(
        self,
        obs: Observation,
        by_kind: Mapping[AnyActionKind, Sequence[Action]],
        pal: Palette,
        *,
        early: bool,
    ) -> list[Choice]:
        """The lines of the family's own verbs among the legal ones: ``early`` those shown
        right after the shared wins, else those shown after the discards."""
        ...

    def free_choice(self, obs: Observation, answer: str) -> Action | None:
        """The action of a typed answer (``e 1 5 9``), ``None`` if it is not one."""
        ...

    def situation(self, obs: Observation, pal: Palette) -> str | None:
        """What a phase of the family asks the player, in a line; ``None``: the shared words."""
        ...
