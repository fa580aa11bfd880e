"""The seat's decisions in a record and what the level's bot would have done at each.

:func:`decision_points` replays a record and yields every decision of the seat: a move he
chose himself among two or more legal ones (a discard, 报听, 吃/碰/杠, a win or a pass, a
family's own verb) — never 托管's moves nor 报听's auto-play (the engine makes those while
``trustee`` is on or the hand is locked; the record holds only the switch), nor a timeout's
default (a system action) — with the seat's observation at that moment.  :func:`review_hand`
asks the bot from that observation alone (never the hidden state), categorises the decision
(:func:`category_of`) and, where the two moves differ, values both with
:func:`erren.review.estimate.estimate`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from erren.analysis.waits import improving
from erren.bots.base import Bot
from erren.bots.expert import ExpertBot
from erren.bots.hints import hand_view, reason
from erren.engine import Action, ActionKind, Family, Observation, Record, find_family
from erren.engine.actions import AnyActionKind
from erren.engine.record import replay_moves
from erren.errors import AnalysisError
from erren.review.estimate import DEFAULT_ROLLOUTS, estimate
from erren.review.model import Category, Decision, HandReview, Move
from erren.server.protocol import action_text
from erren.tiles import Tile

__all__ = [
    "DecisionPoint",
    "TickClock",
    "category_of",
    "decision_points",
    "deterministic",
    "move_of",
    "review_decision",
    "review_hand",
]

AK = ActionKind
_CLAIMS = frozenset((AK.CHI, AK.PENG, AK.MING_GANG))


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """One decision of the seat: ``step`` the index of his move in the record's actions, the
    ``observation`` he decided from and the ``move`` he made."""

    step: int
    observation: Observation
    move: Action


def decision_points(record: Record, seat: int) -> Iterator[DecisionPoint]:
    """Every decision of ``seat`` in ``record``, in the order played."""
    before: Observation | None = None
    step = -1
    actions = record.actions
    cursor = 0
    for state, move in replay_moves(record):
        if move is not None:
            # the player's or system's action is the first non-chance action from the cursor
            while cursor < len(actions) and actions[cursor].startswith("c:"):
                cursor += 1
            step = cursor
            cursor += 1
        if (
            before is not None
            and move is not None
            and move.player == seat
            and not move.kind.is_system
            and not before.trustee[seat]  # 托管's (the engine plays them; a guard)
            and len(before.legal_actions) > 1
        ):
            yield DecisionPoint(step, before, move)
        before = None
        if not state.is_terminal and state.actor == seat:
            before = state.observe(seat)


def _family_verb(kind: AnyActionKind) -> bool:
    return not isinstance(kind, ActionKind) and not kind.is_system and not kind.is_chance


def _shape(obs: Observation, action: Action) -> tuple[int, int] | None:
    """``(shanten, useful tiles)`` the throw ``action`` leaves (0 shanten: ready, useful the
    waits' unseen copies), from ``obs`` alone; ``None`` for a move that throws nothing."""
    if not action.kind.throws or action.tile is None:
        return None
    try:
        view = hand_view(obs)
        counts, wilds = view.without(int(action.tile))
        found = view.waits(counts, wilds)
        if found:
            return (0, sum(n for _, n in found))
        now, kinds = improving(counts, wilds=wilds, shapes=view.shapes)
    except AnalysisError:
        return None
    extra = view.wilds_left if view.wild is not None else 0
    return (now, sum(view.unseen(k) for k in kinds) + extra)


def category_of(obs: Observation, player: Action, bot: Action) -> Category:
    """What the decision at ``obs`` was about (``docs/review.md``): a family's own verb made
    by the player or the bot is ``family``; then a win on offer ``win``; 报听 on offer ``ting``; a
    claim on offer ``claim``; otherwise a discard or kong: ``defence`` against a declared 报听,
    ``value`` where the bot's move leaves a slower hand than the player's (it gave up speed on
    purpose), ``efficiency`` else."""
    legal = obs.legal_actions
    if _family_verb(player.kind) or _family_verb(bot.kind):
        return Category.FAMILY
    if any(a.kind.is_win for a in legal):
        return Category.WIN
    if any(a.kind is AK.TING for a in legal):
        return Category.TING
    if obs.pending is not None and any(a.kind in _CLAIMS for a in legal):
        return Category.CLAIM
    if obs.ting[obs.opponent]:
        return Category.DEFENCE
    mine, theirs = _shape(obs, player), _shape(obs, bot)
    if mine is not None and theirs is not None and theirs[0] > mine[0]:
        return Category.VALUE
    if mine is not None and theirs is not None and theirs[0] == mine[0] and theirs[1] < mine[1]:
        return Category.VALUE
    return Category.EFFICIENCY


def move_of(action: Action) -> Move:
    """The wire text of ``action`` and the tiles it names."""
    tiles: tuple[str, ...] = ()
    if action.kind is AK.CHI and action.tile is not None:
        t = int(action.tile)
        tiles = (str(Tile(t)), str(Tile(t + 1)), str(Tile(t + 2)))
    elif action.tile is not None:
        tiles = (str(action.tile),)
    elif action.data:
        tiles = tuple(str(Tile(t)) for t in action.data)
    return Move(action_text(action), tiles)


def _reasons(obs: Observation, player: Action, bot: Action) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for who, action in (("player", player), ("bot", bot)):
        why = reason(obs, action)
        if why.code != "other":
            out[who] = {"code": why.code, "params": dict(why.params)}
    return out


class TickClock:
    """A clock that advances ``step`` seconds per reading: a searching bot given it stops
    after the same number of readings on every run (its choice is then deterministic).  The
    step is a power of two so that every reading is exact: ``now + budget`` compares the
    same way whatever the clock read before."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.ticks = 0

    def __call__(self) -> float:
        self.ticks += 1
        return self.ticks * self.step


SEARCH_TICK_S = 2.0**-8
"""The :class:`TickClock` step given to a searching bot (3.9 ms): 大师's 150 ms budget reads
38 ticks, more than its search's own cap of 24 samples, without reading the real time."""


def deterministic(bot: Bot) -> Bot:
    """``bot`` with a :class:`TickClock` if it searches against a clock."""
    if isinstance(bot, ExpertBot):
        bot.clock = TickClock(SEARCH_TICK_S)
    return bot


def review_hand(
    record: Record,
    seat: int,
    bot: Bot,
    *,
    hand: int = 0,
    rollouts: int = DEFAULT_ROLLOUTS,
    seed: int = 0,
) -> HandReview:
    """The review of ``seat``'s decisions in ``record`` (the game's hand number ``hand``)
    against ``bot`` (bound to the record's rules here), each differing decision valued over
    ``rollouts`` worlds seeded from ``seed`` and the decision's step."""
    ruleset = find_family(record.ruleset, record.options)
    bot.bind(ruleset)
    decisions = [
        review_decision(
            ruleset,
            point.observation,
            point.move,
            bot,
            hand=hand,
            step=point.step,
            rollouts=rollouts,
            seed=seed,
        )
        for point in decision_points(record, seat)
    ]
    return HandReview(
        hand=hand,
        ruleset=record.ruleset,
        seat=seat,
        threshold=ruleset.review_bad_loss,
        decisions=tuple(decisions),
        result=record.result,
    )


def review_decision(
    ruleset: Family,
    observation: Observation,
    move: Action,
    bot: Bot,
    *,
    hand: int = 0,
    step: int = 0,
    rollouts: int = DEFAULT_ROLLOUTS,
    seed: int = 0,
) -> Decision:
    """One decision: ``move`` made at ``observation`` (the seat's own, with its legal
    actions), ``bot``'s move asked from that observation alone, the category, and where the
    two differ both valued over ``rollouts`` worlds seeded from ``seed``, ``hand`` and
    ``step`` (a hand-built position for a drill, or a record's decision)."""
    obs = observation
    advice = bot.choose(obs, obs.legal_actions)
    category = category_of(obs, move, advice)
    agreed = Decision(
        hand=hand,
        step=step,
        seat=obs.player,
        category=category,
        player=move_of(move),
        bot=move_of(advice),
        reasons=_reasons(obs, move, advice),
    )
    if agreed.matches:
        return agreed
    world_seed = seed * 1_000_003 + hand * 10_007 + step
    found = estimate(ruleset, obs, [move, advice], rollouts=rollouts, seed=world_seed)
    ev_player, ev_bot = found.means
    loss = max(0.0, ev_bot - ev_player)
    return replace(
        agreed,
        ev_player=ev_player,
        ev_bot=ev_bot,
        loss=loss,
        stderr=found.stderr,
        bad=loss > ruleset.review_bad_loss,
    )
