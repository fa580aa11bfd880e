"""Quick match's pairing rule: the closest rating, within a window that widens with the wait.

**The rule.**  Every waiting player has a *skill*: the ``mu`` of his rating in the room's
family (:mod:`erren.server.rating`; a player with no rated hand there has the model's start,
25).  ``mu`` and not the conservative ordinal ``mu − 3σ``: the ordinal of a newcomer is 0 and
would pair him with the weakest players, while his ``mu`` is the best guess of his strength.
A player who has waited ``w`` seconds accepts an opponent whose skill differs from his by at
most his *window*::

    window(w) = BASE_GAP + WIDEN_PER_S × w      while w < LONGEST_WAIT_S
    window(w) = anyone                          from LONGEST_WAIT_S on

i.e. 1.0 at once, 3.5 after 10 s, 5.75 after 19 s, anyone after 20 s (the request waits 30 s
by default, so the window has opened before it gives up).  Two players may be paired when the
gap between them is within **the wider of their two windows** — the one who waited longer
decides; so a player who has waited :data:`LONGEST_WAIT_S` is paired with the next player
who is present in the room, whatever his rating, and nobody waits much longer than that when
anyone else comes.  (Asking both windows to admit the gap would make the one who waited wait
on until a newcomer's window had opened too, and the bound would be lost.)

Among the waiting players a player may be paired with now — the gap within the window, not
held back by the repeat rule (:mod:`erren.server.pairing`), not blocked (:class:`Blocks`) —
the one whose skill is **closest** to his is chosen; ties go to the one who has waited
longest (first in the queue).  A player arriving in a room is paired at once under the rule,
or queued; while he waits, an alarm rings when the wider window of him and another present
player will admit their gap (and when a repeat hold ends), and he is then paired under the
rule as if he had just arrived (with his wait counted from when he joined the queue).  Each
pair of waiting players is so watched by the later of the two.

A player put back at the front of the queue after a dissolved pairing (nobody's fault but
the other's) has no skill in the queue (``None``): any gap is counted as 0 with him, so he is
paired with the next player who may meet him, as before the rule.

:data:`OLDEST_FIRST` is the rule quick match had before: anyone, the oldest first (the
benchmark ``benchmarks/bench_matchmaking.py`` measures both).

The seams: :class:`Skills` (where a player's skill comes from: :class:`StoreSkills`, the
store's ratings) and :class:`Blocks` (who may never be paired: :class:`NoBlocks` until there is
a block list).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from erren.server.rating import START

if TYPE_CHECKING:
    from erren.server.store import Store

__all__ = [
    "BASE_GAP",
    "LONGEST_WAIT_S",
    "OLDEST_FIRST",
    "START_SKILL",
    "WIDEN_PER_S",
    "Blocks",
    "Candidate",
    "NoBlocks",
    "Rule",
    "Skills",
    "StoreSkills",
    "Window",
    "skill_gap",
]

BASE_GAP = 1.0
"""The skill gap (rating ``mu``) a player accepts at once."""
WIDEN_PER_S = 0.25
"""How much his window widens per second of waiting."""
LONGEST_WAIT_S = 20.0
"""After this many seconds of waiting he accepts anyone."""
START_SKILL = START[0]
"""The skill of a player with no rated hand in the family (the model's start, 25)."""
PRECISION_S = 0.001
"""Windows are counted to the millisecond: one with less than that to open has opened."""


class Blocks(Protocol):
    """Who may never be paired (a player blocked the other, or the other him)."""

    def blocked(self, a: int, b: int) -> bool:
        """Whether accounts ``a`` and ``b`` may never be paired (symmetric)."""
        ...

    def barred(self, user_id: int) -> frozenset[int]:
        """Every account ``user_id`` may never be paired with (a cluster node hands the set
        to the shared queues' script)."""
        ...


class NoBlocks:
    """:class:`Blocks` while there is no block list: nobody is blocked."""

    def blocked(self, a: int, b: int) -> bool:
        return False

    def barred(self, user_id: int) -> frozenset[int]:
        return frozenset()


class Skills(Protocol):
    """Where a player's skill in a family comes from."""

    async def skill(self, user_id: int, family: str) -> float:
        """The ``mu`` of the account's rating in ``family`` (:data:`START_SKILL`: unrated)."""
        ...


class StoreSkills:
    """:class:`Skills` from the store's ratings."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def skill(self, user_id: int, family: str) -> float:
        mu = await self.store.profiles.rating_mu(user_id, family)
        return START_SKILL if mu is None else mu


def skill_gap(a: float | None, b: float | None) -> float:
    """The gap between two skills (0 when one is unknown: a player put back in the queue)."""
    return 0.0 if a is None or b is None else abs(a - b)


@dataclass(frozen=True)
class Window:
    """How wide a waiting player's window is after his wait (the module's formula)."""

    base: float = BASE_GAP
    per_s: float = WIDEN_PER_S
    longest_s: float = LONGEST_WAIT_S

    def gap(self, waited_s: float) -> float:
        """The widest gap a player accepts after ``waited_s`` seconds (``inf``: anyone)."""
        if waited_s >= self.longest_s:
            return math.inf
        return self.base + self.per_s * max(waited_s, 0.0)

    def opens_after(self, gap: float) -> float:
        """The wait after which ``gap`` is within the window."""
        if gap <= self.base:
            return 0.0
        if self.per_s <= 0:
            return self.longest_s
        return min((gap - self.base) / self.per_s, self.longest_s)

    def chance_in(self, gap: float, waited_a: float, waited_b: float) -> float:
        """Seconds until two players who have waited ``waited_a`` and ``waited_b`` seconds
        may be paired across ``gap`` (the wider window decides; ``0.0``: now)."""
        left = self.opens_after(gap) - max(waited_a, waited_b)
        return left if left >= PRECISION_S else 0.0


@dataclass(frozen=True)
class Candidate:
    """A player as the rule sees him: his skill (``None``: put back, any gap is 0) and how
    long he has waited."""

    user_id: int
    skill: float | None
    waited_s: float


@dataclass(frozen=True)
class Rule:
    """The pairing rule: the :class:`Window`, the :class:`Blocks`, and whether the closest
    skill is chosen (``by_skill``) or simply the oldest player (:data:`OLDEST_FIRST`)."""

    window: Window = field(default_factory=Window)
    blocks: Blocks = field(default_factory=NoBlocks)
    by_skill: bool = True

    def choose(
        self,
        seeker: Candidate,
        waiting: Sequence[Candidate],
        held: Callable[[int, int], float],
    ) -> int | None:
        """The index in ``waiting`` (queue order, oldest first) of the player ``seeker`` is
        paired with now: the closest skill among those the rule admits (ties: the oldest);
        ``None``: nobody.  ``held(a, b)``: the repeat rule's hold left (``0``: none)."""
        best: tuple[float, int] | None = None
        for i, other in enumerate(waiting):
            if other.user_id == seeker.user_id or self.blocks.blocked(
                seeker.user_id, other.user_id
            ):
                continue
            gap = skill_gap(seeker.skill, other.skill)
            if self.window.chance_in(gap, seeker.waited_s, other.waited_s) > 0:
                continue
            if held(seeker.user_id, other.user_id) > 0:
                continue
            key = (gap if self.by_skill else 0.0, i)
            if best is None or key < best:
                best = key
        return None if best is None else best[1]

    def next_chance(self, seeker: Candidate, waiting: Sequence[Candidate]) -> float | None:
        """Seconds until the window of ``seeker`` and another player in ``waiting`` will admit
        a gap it does not admit now (``None``: no such player; blocked ones never count)."""
        soonest: float | None = None
        for other in waiting:
            if other.user_id == seeker.user_id or self.blocks.blocked(
                seeker.user_id, other.user_id
            ):
                continue
            gap = skill_gap(seeker.skill, other.skill)
            left = self.window.chance_in(gap, seeker.waited_s, other.waited_s)
            if left > 0 and (soonest is None or left < soonest):
                soonest = left
        return soonest


OLDEST_FIRST = Rule(window=Window(base=math.inf), by_skill=False)
"""The rule before: anyone, the oldest first (still subject to the repeat rule and blocks)."""
