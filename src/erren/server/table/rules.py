"""The rules a table is given beside its family's: whether the players' ``ready`` deals the
next hand, what the store keeps of the table, what a called-off hand's record shows, and what a
settled hand adds to its settlement event.

An ordinary table plays by :class:`PlainRules`.  A family's own kind of table is given its
rules by the family's desk (:mod:`erren.server.extension`): the arcade campaign's table, for
one, has its hands dealt by the run's stake (a :class:`~erren.server.table.commands.Deal` of
the :class:`HandPlan` the run made), never by ``ready``, and each settled hand books the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from erren.bots import Level
    from erren.engine import Family, State
    from erren.server.fairness import Commitment

__all__ = ["HandPlan", "PlainRules", "TableRules"]


@dataclass(frozen=True, slots=True)
class HandPlan:
    """A hand dealt by the table's rules rather than by the players' ``ready``: its rules,
    commitment, dealer and number, and the computer's level at each seat that changes."""

    ruleset: Family
    fair: Commitment
    dealer: int
    hand: int
    levels: tuple[tuple[int, Level], ...] = ()
    """``(seat, level)``: the computer at ``seat`` plays ``level`` from this hand on."""


class TableRules(Protocol):
    """What a table's own rules decide (:class:`PlainRules` for every table but the
    campaign's)."""

    @property
    def deals_on_ready(self) -> bool:
        """Whether the next hand is dealt once every seat is ready (otherwise only a
        :class:`~erren.server.table.commands.Deal` deals one)."""
        ...

    def table_json(self, table: dict[str, Any], ruleset: Family) -> dict[str, Any]:
        """What the store keeps of the table (its spec's JSON) beside a game played with
        ``ruleset``."""
        ...

    def called_off(self, record: dict[str, Any]) -> dict[str, Any]:
        """The record a called-off hand is stored with, from the hand's full record."""
        ...

    async def settled(self, state: State, table_id: str) -> dict[str, Any]:
        """What the settlement event of the hand just settled at ``table_id`` adds (awaited
        after the beans and the record are written)."""
        ...


class PlainRules:
    """An ordinary table's: ``ready`` deals, the spec is stored as it is, a called-off hand
    keeps its whole record, and a settlement adds nothing."""

    @property
    def deals_on_ready(self) -> bool:
        return True

    def table_json(self, table: dict[str, Any], ruleset: Family) -> dict[str, Any]:
        return table

    def called_off(self, record: dict[str, Any]) -> dict[str, Any]:
        return record

    async def settled(self, state: State, table_id: str) -> dict[str, Any]:
        return {}
