"""How likely each kind is to win for a 报听 opponent, from the observation alone.

A :class:`RiskModel` answers ``chances(observation)``: for each of the 34 kinds, the chance that
a discard of it now is one of the opponent's winning tiles.  Whatever the model, the kinds
:func:`certainly_safe` names are 0: with ``ting_auto_hu`` (the default) a 报听 hand is locked and
takes every win it is offered, so

* every kind he threw **after** his 报听 discard (``Observation.ting_at``) cannot win for him
  (his drawn tile would have won), and
* every kind the player threw after that discard cannot either (his discard would have won).

In two-player play the seats alternate one discard per turn (a claim or a kong still ends with
one discard), so in the player's turn his last ``k`` discards are the ones made after the
opponent's 报听, ``k`` the opponent's discards after it.

:func:`risk_model` gives the wait reader of :mod:`erren.bots.waitreader` when that package is
installed (its figures, with the certainly-safe kinds set to 0), else :class:`PriorRisk`, a rule
of thumb measured in self-play (see there).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Protocol

from erren.bots.efficiency import seen_counts
from erren.engine import Observation
from erren.tiles import NUM_KINDS, Tile, suit_of

__all__ = [
    "PRIOR_CHANCE",
    "PRIOR_HONOR_SEEN",
    "PRIOR_THROWN",
    "PriorRisk",
    "ReaderRisk",
    "RiskModel",
    "TableReader",
    "certainly_safe",
    "risk_model",
]


class RiskModel(Protocol):
    """Each kind's chance to win for the opponent now (34 figures, 0 on safe kinds)."""

    def chances(self, observation: Observation) -> Sequence[float]: ...


def certainly_safe(observation: Observation) -> set[int]:
    """The kinds that cannot win for the 报听 opponent now (empty when he has not declared)."""
    opp, me = observation.opponent, observation.player
    at = observation.ting_at[opp]
    if not observation.ting[opp] or at < 0:
        return set()
    theirs = observation.discards[opp][at + 1 :]
    safe = {int(t) for t in theirs}
    mine = observation.discards[me]
    k = min(len(theirs), len(mine))
    if k:
        safe.update(int(t) for t in mine[len(mine) - k :])
    return safe


class PriorRisk:
    """A rule of thumb, used while no wait reader is installed: each kind not certainly safe
    (of the suits the player has seen a tile of: the family's) wins for the opponent with the
    share measured for its class — :data:`PRIOR_CHANCE`, 大师 against 大师, 300 guobiao-2p
    hands (seeds 1000–1299), every 报听 position in the player's turn — much lower when the
    opponent threw the kind before his 报听 (:data:`PRIOR_THROWN`), and for an honor, lower
    once the player sees a copy (:data:`PRIOR_HONOR_SEEN`)."""

    def chances(self, observation: Observation) -> Sequence[float]:
        safe = certainly_safe(observation)
        _, visible = seen_counts(observation)
        suits = {suit_of(k) for k in range(NUM_KINDS) if visible[k]}
        before = {int(t) for t in observation.discards[observation.opponent]}
        out = [0.0] * NUM_KINDS
        for kind in range(NUM_KINDS):
            if kind in safe or suit_of(kind) not in suits:
                continue
            tile = Tile(kind)
            honor = tile.is_honor
            if kind in before:
                out[kind] = 0.0 if honor else PRIOR_THROWN
            elif honor:
                out[kind] = PRIOR_HONOR_SEEN if visible[kind] else PRIOR_CHANCE[0]
            else:
                out[kind] = PRIOR_CHANCE[min(tile.number, 10 - tile.number)]
        return out


PRIOR_CHANCE = (0.10, 0.30, 0.25, 0.28, 0.40, 0.40)
"""By class: an honor none of whose copies the player sees, then the suited numbers 1/9, 2/8,
3/7, 4/6 and 5 (measured 0.10, 0.30, 0.25, 0.28, 0.40 over 300 to 1,100 positions each)."""
PRIOR_HONOR_SEEN = 0.005
"""An honor the player sees a copy of (measured 0.007 over 422 positions, 0 beyond)."""
PRIOR_THROWN = 0.04
"""A suited kind the opponent threw before his 报听 (measured 0 to 0.12, 0.04 overall)."""


class TableReader(Protocol):
    """A wait reader: each kind's chance to win for the opponent on a table's fan table."""

    def chances(self, observation: Observation, *, fan_table: str) -> Sequence[float]: ...


class ReaderRisk:
    """A wait reader's figures for ``fan_table``, 0 on :func:`certainly_safe` kinds."""

    def __init__(self, reader: TableReader, fan_table: str = "2p") -> None:
        self.reader = reader
        self.fan_table = fan_table

    def chances(self, observation: Observation) -> Sequence[float]:
        out = [float(x) for x in self.reader.chances(observation, fan_table=self.fan_table)]
        for kind in certainly_safe(observation):
            out[kind] = 0.0
        return out


_MODELS: dict[str, RiskModel] = {}


def risk_model(fan_table: str = "2p") -> RiskModel:
    """The wait reader for ``fan_table`` when :mod:`erren.bots.waitreader` is installed with its
    weights, else :class:`PriorRisk` (chosen once per process and table)."""
    found = _MODELS.get(fan_table)
    if found is None:
        try:
            module = importlib.import_module("erren.bots.waitreader")
            found = ReaderRisk(module.load_reader(), fan_table)
        except (ImportError, OSError):  # not installed, or its weights not shipped
            found = PriorRisk()
        _MODELS[fan_table] = found
    return found
