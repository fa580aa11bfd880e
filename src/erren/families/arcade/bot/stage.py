"""The computer of stage mode (关卡模式, arcade §3): it plays for the stage's objective.

In stage mode the human alone is paid (R3.4): his win pays ``m × f × (f + 1) × 50`` (10 and more
times the stake from 4 fan on), the computer's win costs him only the stake ``m × 100`` whatever
its hand (「电脑胡牌不计番」), and a draw returns it.  The computer gains nothing from the value of
its own hand: what makes a stage hard is that the human does not win.  So the value play that
makes 大师 strong at a versus table only slows it down here, and the stage computer plays instead
for these objectives, each level (:data:`STAGE_PLAY`) for more of them:

* **win fast** — a win ends the hand before the human's: every win is taken, tiles are played
  for speed (lowest shanten, then most unseen effective tiles: the efficiency bot's order) and
  claims are taken when they bring the hand closer to ready;
* **take the 海底 seat** — the first to declare 报听 is the 海底 player (R2.18): a computer that
  declares when ready (with three unseen winning tiles or more, or on a short wall) keeps the
  human's five post-draw draws (R3.8) out of play;
* **block the human** — once the human has declared 报听 his hand is locked and wins at the first
  chance (R2.12–R2.13), so a kind he has let pass since cannot win for him
  (:func:`certainly_safe`): among the discards that keep its hand as close to ready, the
  computer throws such a kind first, and it declares no 报听 of its own then (a locked hand
  throws whatever it draws).

The stages (the computer's level in each is :data:`~erren.families.arcade.campaign.params.
STAGE_LEVELS`):

=====  ======  =====================================================================
stage  level   objective
=====  ======  =====================================================================
1      入门    a sparring partner: it throws its 财神 first (a discarded wild is dead),
               then tiles the player seems to collect (a kind he has not thrown, of the
               suit — or the honors — he has thrown least, at random among them); no hand
               of its own, no claims, no 报听: it hardly ever wins
2      普通    a concealed 混一色 of its longest suit, played by tile efficiency; no
               claims, no 报听
3      高手    the same 混一色 while three or more tiles from ready, then win fast and
               take the 海底 seat; peng and kong within its 混一色, never chi
4      大师    win fast with every claim, take the 海底 seat, block the 报听 human
=====  ======  =====================================================================

Measured (``python -m benchmarks.bench_campaign``, 1,000 hands per stage, every stage on the
same deals, seed 1), the human's win rate in stages 1–4: played by 普通 92.7 / 83.5 / 71.7 /
64.3 %, by 大师 79.7 / 76.2 / 77.0 / 70.4 %.  The spec's stage features help the human more at
every stage (with one and the same computer, R3.7–R3.8 raise the 普通 human's win rate by 9
points at stage 2 and R3.9–R3.10 by 7 more; the 大师 human's by 13 and 18), so each stage's
computer must be that much stronger than the last.  For the 普通 human the fall is more than 5
points at each step.  For the 大师 human, who plays slowly for value, the range is too narrow:
even a stage-1 computer that feeds him the tiles his hand needs (told his hand) leaves him 80 %
(he runs out the wall in a fifth of the hands), and the strongest stage-4 computer here still
loses 70 % to him, so three falls of 5 points (15 in all) do not fit.  Folding against a 报听
human (the least dangerous tile whatever it costs) was tried and lost: the human, ready with
wilds, wins by self-draw instead, and more often (his win rate rose 9 points at stage 3).

The play applies only to the computer's seat of a stage-mode table (the bound ruleset's
``human_seat`` is set and is not the bot's seat): versus tables and the human's own seat (the
adviser, 托管) are untouched.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from erren.analysis.shapes import ARCADE
from erren.analysis.waits import DiscardOption, discard_table
from erren.bots.base import Bot
from erren.bots.common import by_tile, choose_discard, kong_keeping_shanten
from erren.bots.expert import ExpertBot
from erren.bots.levels import Level, bot_level
from erren.bots.novice import NoviceBot
from erren.engine import Action, ActionKind, Family, Observation
from erren.engine.phases import Phase
from erren.families.arcade.bot.efficiency import arcade_choice, ting_choice, wild_counts
from erren.families.arcade.game.family import ArcadeFamily
from erren.families.arcade.game.view import ArcadeView

__all__ = [
    "STAGE_PLAY",
    "STAGE_STYLE",
    "Block",
    "Claims",
    "Hunt",
    "StagePlay",
    "Words",
    "certainly_safe",
    "feeding",
    "level_of",
    "stage_choice",
    "stage_computer",
    "stage_move",
]

AK = ActionKind
_CLAIMS = frozenset({AK.CHI, AK.PENG, AK.MING_GANG})


class Claims(Enum):
    """Which claims the computer makes (a kong always keeps the shanten)."""

    NONE = "none"
    """A concealed hand: no chi, peng or kong of a discard."""
    PENG = "peng"
    """Peng and kong when they bring the hand closer to ready, never chi."""
    ALL = "all"
    """Chi, peng and kong when they bring the hand closer to ready."""


class Hunt(Enum):
    """A hand of its own the computer plays for instead of speed."""

    NONE = "none"
    """Speed alone."""
    HALF_FLUSH = "half_flush"
    """混一色: its longest suit and the honors; the other suits go first."""
    FLUSH = "flush"
    """清一色: its longest suit; the honors and the other suits go first."""


class Block(Enum):
    """How the computer keeps its discards off the 报听 human's winning tiles."""

    NONE = "none"
    """Plays for speed alone."""
    SAFE = "safe"
    """Among the discards that keep it as close to ready, a certainly-safe one first."""


@dataclass(frozen=True, slots=True)
class StagePlay:
    """What a level plays for in stage mode (module docstring)."""

    claims: Claims = Claims.ALL
    hunt: Hunt = Hunt.NONE
    hunt_from: int = 0
    """The hunt's discards are played while the hand is at least this many tiles from ready
    (its best discard's shanten), speed's nearer; its claims stay within the hunted hand."""
    ting: bool = True
    """Declare 报听 with a ready discard (the efficiency rule: enough waits, or a short
    wall)."""
    block: Block = Block.NONE
    feed: bool = False
    """Throw the tiles the player seems to collect instead of playing a hand (:func:`feeding`,
    at random from the generator the caller passes) — 入门's teaching play."""
    ting_min_waits: int = 3
    """Unseen winning tiles a 报听 needs…"""
    ting_late_wall: int = 8
    """…unless the live wall is this short."""


@dataclass(frozen=True, slots=True)
class Words:
    """A line a player reads, in both languages."""

    zh: str
    en: str


STAGE_STYLE: dict[Level, Words] = {
    Level.NOVICE: Words(
        "陪练：先打出财神，再打你像是在收的牌，不吃不碰，几乎不胡。",
        "A sparring partner: it throws its wilds (财神) first, then the tiles you seem to "
        "collect; no claims, and it hardly ever wins.",
    ),
    Level.NORMAL: Words(
        "门清做混一色：不吃不碰，也不报听。",
        "Plays a concealed 混一色: no chi, no peng, no 报听.",
    ),
    Level.STRONG: Words(
        "先做混一色，离听牌近了就求快；报听抢海底，只碰不吃。",
        "Starts on a 混一色 and races once close to ready; declares 报听 for the 海底 seat; "
        "pengs, never chis.",
    ),
    Level.MASTER: Words(
        "全力求快：能吃就吃、能碰就碰，报听抢海底；你报听后先打你胡不了的牌。",
        "All speed: every chi and peng, 报听 for the 海底 seat, and once you declare, the tiles "
        "you cannot win on first.",
    ),
}
"""How each level plays in stage mode, as the campaign's screens say it (the browser's
campaign screen, ``erren arcade``)."""

STAGE_PLAY: dict[Level, StagePlay] = {
    Level.NOVICE: StagePlay(claims=Claims.NONE, ting=False, feed=True),
    Level.NORMAL: StagePlay(claims=Claims.NONE, hunt=Hunt.HALF_FLUSH, ting=False),
    Level.STRONG: StagePlay(claims=Claims.PENG, hunt=Hunt.HALF_FLUSH, hunt_from=3),
    Level.MASTER: StagePlay(block=Block.SAFE),
}
"""What each level plays for in stage mode (module docstring)."""


def level_of(bot: Bot) -> Level | None:
    """The level ``bot`` plays (高手 is the expert with ``strong``); ``None`` for a bot no level
    uses."""
    level = bot_level(bot.name)
    if isinstance(bot, ExpertBot) and bot.strong:
        return Level.STRONG
    return level


def stage_move(bot: Bot, observation: Observation, legal: Sequence[Action]) -> Action | None:
    """The stage computer's move when ``bot`` plays the computer's seat of a stage-mode hand
    at a level (:data:`STAGE_PLAY`), else ``None`` (its own play)."""
    if not stage_computer(bot.ruleset, observation):
        return None
    level = level_of(bot)
    if level is None:
        return None
    rng = bot.rng if isinstance(bot, NoviceBot) else None
    return stage_choice(STAGE_PLAY[level], observation, legal, rng)


def stage_computer(rules: Family | None, observation: Observation) -> bool:
    """Whether ``observation`` is the computer's seat of a stage-mode hand played by ``rules``
    (the bound ruleset: ``human_seat`` set and not this seat)."""
    if not isinstance(rules, ArcadeFamily):
        return False
    human = rules.options.human_seat
    return human is not None and human != observation.player


def certainly_safe(observation: Observation) -> frozenset[int]:
    """The kinds the 报听 opponent cannot win on now (empty before his 报听): his hand is locked
    (R2.12) and wins at every chance (R2.13), so a kind he threw after his 报听 discard
    (``ting_at``) did not complete it, nor did a kind the player threw since (the seats alternate
    one discard a turn: the player's last ``k`` discards followed the opponent's ``k``)."""
    opp, me = observation.opponent, observation.player
    at = observation.ting_at[opp]
    if not observation.ting[opp] or at < 0:
        return frozenset()
    theirs = observation.discards[opp][at + 1 :]
    mine = observation.discards[me]
    k = min(len(theirs), len(mine))
    return frozenset(int(t) for t in (*theirs, *mine[len(mine) - k :]))


def stage_choice(
    play: StagePlay,
    observation: Observation,
    legal: Sequence[Action],
    rng: random.Random | None = None,
) -> Action | None:
    """The stage computer's move (module docstring), or ``None`` outside an arcade hand with
    its wild turned (the caller's own play then)."""
    view = observation.view
    if not isinstance(view, ArcadeView) or view.wild is None:
        return None
    for action in legal:
        if action.kind in (AK.HU, AK.ZIMO):
            return action
    if len(legal) == 1:
        return legal[0]
    w = int(view.wild)
    phase = observation.phase
    if phase is Phase.TURN and not view.giving and any(a.kind is AK.DISCARD for a in legal):
        return _turn(play, observation, view, w, legal, rng=rng)
    if phase is Phase.CLAIM:
        legal = _claimable(play, observation, w, legal)
        if len(legal) == 1:
            return legal[0]
    return arcade_choice(
        observation,
        view,
        w,
        legal,
        ting_min_waits=play.ting_min_waits,
        ting_late_wall=play.ting_late_wall,
    )


def _turn(
    play: StagePlay,
    obs: Observation,
    view: ArcadeView,
    w: int,
    legal: Sequence[Action],
    *,
    rng: random.Random | None,
) -> Action:
    """A discard (or 报听, or kong): fed to the player, or for the hunted hand, or for speed,
    kept off the 报听 human's tiles as ``play.block`` says."""
    discards = by_tile(legal, AK.DISCARD)
    if play.feed:
        return discards[feeding(obs, w, discards, rng)]
    c, k, visible = wild_counts(obs, view, w)
    tings = by_tile(legal, AK.TING)
    rows = discard_table(c, wilds=k, shapes=ARCADE, visible=visible)
    keyed, tile = choose_discard(rows, discards, w)
    if tile is None:
        return next(iter(discards.values()), legal[0])
    best = keyed[0][0]
    threat = obs.ting[obs.opponent] and play.block is not Block.NONE
    if not threat and play.claims is not Claims.NONE:
        kong = kong_keeping_shanten(legal, c, wilds=k, shapes=ARCADE, target=best.shanten)
        if kong is not None:
            return kong
    if tings and play.ting and best.shanten == 0 and not threat:
        need = play.ting_min_waits if obs.wall_count > play.ting_late_wall else 1
        declared = ting_choice(keyed, tings, need=need, wilds=k)
        if declared is not None:
            return declared
    if play.hunt is not Hunt.NONE and best.shanten >= play.hunt_from:
        tile = _hunting(play.hunt, obs, w, keyed, tile)
    elif threat:
        tile = _blocking(obs, keyed, tile)
    return discards[tile]


def feeding(
    obs: Observation, w: int, discards: Mapping[int, Action], rng: random.Random | None
) -> int:
    """入门's discard: its 财神 (kind ``w``) while it holds one, else one at random (the
    lowest without ``rng``) among the kinds the player has not thrown, of the suit (or the
    honors) he has thrown least — the tiles he seems to collect; any kind held when he has
    thrown them all."""
    if w in discards:
        return w
    thrown = [int(t) for t in obs.discards[obs.opponent]]
    per_suit = [0] * 4
    for t in thrown:
        per_suit[_suit(t)] += 1
    kinds = sorted(discards)
    seen = frozenset(thrown)
    open_kinds = [t for t in kinds if t not in seen] or kinds
    least = min(per_suit[_suit(t)] for t in open_kinds)
    options = [t for t in open_kinds if per_suit[_suit(t)] == least]
    return rng.choice(options) if rng is not None else options[0]


def _suit(kind: int) -> int:
    """0 m, 1 p, 2 s, 3 the honors."""
    return min(kind // 9, 3)


def _blocking(obs: Observation, keyed: Sequence[tuple[DiscardOption, int]], fastest: int) -> int:
    """The first certainly-safe discard (:func:`certainly_safe`) among those that keep the hand
    as close to ready as the fastest (``keyed`` is the fastest first), else the fastest."""
    safe = certainly_safe(obs)
    for row, t in keyed:
        if row.shanten != keyed[0][0].shanten:
            break
        if t in safe:
            return t
    return fastest


def _target_suit(obs: Observation, w: int) -> int:
    """The suit (0 m, 1 p, 2 s) of most of the player's tiles, melds included (wilds left
    out); the lowest on a tie."""
    per = [0, 0, 0]
    tiles = [int(t) for t in obs.hand] + [int(t) for m in obs.melds[obs.player] for t in m.tiles]
    for t in tiles:
        if t < 27 and t != w:
            per[t // 9] += 1
    return max(range(3), key=lambda s: (per[s], -s))


def _off_hunt(hunt: Hunt, suit: int, kind: int) -> bool:
    """Whether ``kind`` has no place in the hunted hand."""
    if kind >= 27:
        return hunt is Hunt.FLUSH
    return kind // 9 != suit


def _hunting(
    hunt: Hunt,
    obs: Observation,
    w: int,
    keyed: Sequence[tuple[DiscardOption, int]],
    fastest: int,
) -> int:
    """The fastest discard off the hunted hand (:class:`Hunt`), else the fastest."""
    suit = _target_suit(obs, w)
    off = [t for _, t in keyed if t != w and _off_hunt(hunt, suit, t)]
    return off[0] if off else fastest


def _claimable(
    play: StagePlay, obs: Observation, w: int, legal: Sequence[Action]
) -> Sequence[Action]:
    """``legal`` without the claims ``play`` does not make."""
    x = obs.pending
    off = x is not None and play.hunt is not Hunt.NONE
    if off and x is not None:
        off = _off_hunt(play.hunt, _target_suit(obs, w), int(x))
    out = []
    for action in legal:
        if action.kind in _CLAIMS:
            if play.claims is Claims.NONE or off:
                continue
            if play.claims is Claims.PENG and action.kind is AK.CHI:
                continue
        out.append(action)
    return out
