"""The expert's xiamen play: the efficiency bot's, but for the decisions where the 游 chain's
payments (xiamen.md R-4.6) make the efficiency bot throw points away.

* **The race.**  A player at a 游 level wins on its next own draw unless it draws a gold
  (R-2.9.2): 游金 pays ``min((底 + 水) × 4, cap) + 50``.  While the opponent is at a 游
  level, the expert takes a 自摸 (or, itself at a 游 level with a gold drawn, the 游 win) at
  once, where the efficiency bot, with the wall long enough, would throw into 游金-ready (or
  climb to 双游) and hand the opponent its winning draw; and it passes a chi or peng of the
  opponent's discard, which would spend the one draw that might still win first (a claim
  never wins at once; a 明杠 with its replacement draw stays the efficiency bot's call).
* **The opening.**  A non-dealer whose 13 tiles are 游金-ready passes 三金倒/抢金胡 (×4, no
  bonus): it enters 游金 when the window closes (R-2.3) and the dealer cannot win before its
  draw (the dealer's first action has no 自摸).  A dealer passes when one of its 14 tiles can
  be thrown into 游金-ready (the efficiency bot's first discard then enters 游金).  Otherwise
  it declares the opening win that pays most (played out on a resampled state), where the
  efficiency bot declares the first one offered.

All are :class:`XiamenKnobs` switches, on because the arena said so (``erren arena --rules
xiamen --bots expert,efficiency --deals 4000``: +1.02 ± 0.26 points per hand, seed 1, +1.07 ±
0.28, seed 2; the race's wins +0.37, its passed claims +0.6, the opening pass +0.06, the best
opening win +0.01).

Tried and dropped: discarding towards 游金-ready while holding a gold (a shanten with one
gold swapped for a borrowed 1p, −0.06 to +0.02), passing a chi/peng that leaves the hand 2+
from ready (−0.05) or 1+ (−1.7), never claiming a chow (−1.0), claiming only what lowers the
shanten (−3.0), claiming whatever keeps it (−2.3): the efficiency bot's claims stay.

Then, with both players at 游 level 0 (and at level 1 with a gold drawn), the value model
(:mod:`.master`, :mod:`.value`; ``expert[value_model=false]`` turns it off, the 大师 before
it): ready discards by the 水 payments their waits lead to (游金 against 自摸), 自摸 against
a discard into 游金 at any wall that leaves a draw, chi/peng into a ready hand against the
draw, 游金 against 双游.  Everything else is the efficiency bot's:
:func:`xiamen_expert_choice` returns ``None`` there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from erren.analysis.golds import you_ready
from erren.bots.efficiency import EfficiencyBot
from erren.bots.strategy import family_ruleset
from erren.engine import Action, ActionKind, Observation
from erren.engine.phases import Phase
from erren.engine.resample import resample
from erren.families.xiamen.bot.efficiency import gold_counts
from erren.families.xiamen.bot.master import payments_of, value_choice
from erren.families.xiamen.game.data import XiamenPhase
from erren.families.xiamen.game.view import XiamenView
from erren.families.xiamen.game.vocabulary import XiamenVerb
from erren.tiles import Tile

if TYPE_CHECKING:
    from erren.bots.expert import ExpertBot

__all__ = ["STRONG", "XiamenKnobs", "configure", "xiamen_expert_choice", "you_ready_opening"]

AK = ActionKind
_WHITE = int(Tile.WHITE)
_WINS_NOW = (AK.ZIMO, XiamenVerb.WIN)


@dataclass(frozen=True, slots=True)
class XiamenKnobs:
    """Which xiamen decisions the expert makes differently from the efficiency bot."""

    race: bool = True
    """While the opponent is at a 游 level, take a 自摸 or a 游 win at once."""
    race_pass: bool = True
    """While the opponent is at a 游 level, pass a chi or peng (it spends the draw that might
    win before the opponent's)."""
    open_you: bool = True
    """Pass 三金倒 and 抢金胡 with a 游金-ready opening hand (the dealer: one discard away)."""
    open_best: bool = True
    """Otherwise declare the opening win that pays most (三金倒 or 抢金胡, the dealer's best
    tile to lay out), where the efficiency bot declares the first one offered."""


STRONG = XiamenKnobs(race_pass=False, open_you=False, open_best=False)
"""高手 (``ExpertBot(strong=True)``) wins at once while the opponent is at a 游 level, but
still claims then and takes the opening wins as 普通 does."""

_KNOBS: WeakKeyDictionary[ExpertBot, XiamenKnobs] = WeakKeyDictionary()


def configure(bot: ExpertBot, knobs: XiamenKnobs) -> None:
    """Make ``bot`` play xiamen with ``knobs`` (default :class:`XiamenKnobs`)."""
    _KNOBS[bot] = knobs


def knobs_of(bot: ExpertBot) -> XiamenKnobs:
    """The xiamen knobs ``bot`` plays with."""
    return _KNOBS.get(bot) or (STRONG if bot.strong else XiamenKnobs())


def xiamen_expert_choice(
    bot: ExpertBot, observation: Observation, legal: Sequence[Action]
) -> Action | None:
    """The expert's choice in a xiamen hand, or ``None`` to let the efficiency policy decide."""
    view = observation.view
    if not isinstance(view, XiamenView) or view.gold is None or len(legal) < 2:
        return None
    knobs = knobs_of(bot)
    if observation.phase is XiamenPhase.OPENING:
        if knobs.open_you and you_ready_opening(observation, int(view.gold)):
            return next((a for a in legal if a.kind is AK.PASS), None)
        return best_opening_win(bot, observation, legal) if knobs.open_best else None
    if knobs.race and view.you_level[observation.opponent] >= 1:
        if observation.phase is Phase.CLAIM and knobs.race_pass:
            return _no_chow_or_pung(bot, observation, legal)
        return next((a for a in legal if a.kind in _WINS_NOW), None)
    if bot.knobs.value_model and not bot.strong:
        payments = payments_of(observation, bot.ruleset)
        return value_choice(observation, int(view.gold), view.you_level, payments, legal)
    return None


def _no_chow_or_pung(
    bot: ExpertBot, observation: Observation, legal: Sequence[Action]
) -> Action | None:
    """The pass, where the efficiency bot would chi or peng; ``None`` otherwise."""
    chosen = EfficiencyBot.choose(bot, observation, legal)
    if chosen.kind in (AK.CHI, AK.PENG):
        return next((a for a in legal if a.kind is AK.PASS), None)
    return None


def you_ready_opening(observation: Observation, gold: int) -> bool:
    """Whether the opening hand is 游金-ready (13 tiles) or one discard from it (14)."""
    counts, golds, _ = gold_counts(observation, gold)
    if golds < 1:
        return False
    if len(observation.hand) % 3 == 1:
        return you_ready(counts, golds)
    for tile in {int(t) for t in observation.hand}:
        if tile == gold:
            if you_ready(counts, golds - 1):
                return True
            continue
        kind = gold if tile == _WHITE else tile
        counts[kind] -= 1
        ready = you_ready(counts, golds)
        counts[kind] += 1
        if ready:
            return True
    return False


def best_opening_win(
    bot: ExpertBot, observation: Observation, legal: Sequence[Action]
) -> Action | None:
    """The 三金倒 or 抢金胡 (with the tile laid out) that pays the player most, played out on a
    state consistent with the observation (the payment reads only public facts and the
    player's own tiles); ``None`` when fewer than two are offered."""
    wins = [a for a in legal if a.kind is not AK.PASS]
    if len(wins) < 2:
        return None
    state = resample(
        family_ruleset(observation, bot.ruleset), observation, bot.decision_rng(observation)
    )
    best: tuple[int, int] | None = None
    choice: Action | None = None
    for order, action in enumerate(wins):
        twin = state.clone()
        twin.apply(action)
        result = twin.result
        pay = 0 if result is None else result.deltas[observation.player]
        if best is None or (pay, -order) > best:
            best, choice = (pay, -order), action
    return choice
