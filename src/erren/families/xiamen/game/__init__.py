"""The ``xiamen`` family (厦门二人麻将, ``xiamen.md``): golds, 跟打, the 游 chain, 水 scoring.

The shared state machine runs the turn flow; this package supplies the family's data and hooks
(:mod:`.data`: options, phases, per-hand data and hand tests; :mod:`.family`: the hooks;
:mod:`.refusals`; :mod:`.scoring`):

* the 72 tiles (R-1.1); the setup (R-1.3..R-1.6): the deal and opening 补花 follow the shuffle,
  the gold reveal follows the dealer's dice (both recorded chance actions);
* golds as wild tiles and the White as fake gold (R-1.7, R-1.8): hands are stored by physical
  kind; :func:`functional` turns them into the counts of R-3.3 plus the number of golds;
* the opening window (R-2.3, phase ``OPENING``): ``sanjindao``, ``qiangjin[:t]``, ``pass``;
* 跟打 (R-2.5) as a discard filter whose refusal names the honor to follow;
* claims (R-2.6): nothing on a gold, nothing by a player in the 游 chain, 平和 only without
  golds, chows through Whites;
* the 游 chain (R-2.9): automatic entry after a discard, forced wins on a non-gold draw,
  ``YOU_CHOICE`` (``win``/``discardgold``) on a gold, the single draw of ``LAST_DRAW``;
* timeouts and 托管 (R-2.11), escape (R-2.12), next dealer and streak (R-4.8);
* the settlement through :func:`score_hand`, the one place that calls the 水 scorer.

>>> from erren.engine import State, find_family
>>> from erren.families.xiamen.game import xiamen_data
>>> state = State.new(find_family("xiamen"), seed=3)
>>> len(state.ruleset.tiles), 0 <= xiamen_data(state).gold < 34
(72, True)
"""

from __future__ import annotations

from erren.families.xiamen.game.data import (
    BONUS,
    MULTIPLIER,
    WIN_TYPES,
    XiamenData,
    XiamenOptions,
    XiamenPhase,
    XiamenWinHow,
    complete,
    functional,
    xiamen_data,
    you_ready,
)
from erren.families.xiamen.game.family import XiamenFamily
from erren.families.xiamen.game.scoring import score_hand

__all__ = [
    "BONUS",
    "MULTIPLIER",
    "WIN_TYPES",
    "XiamenData",
    "XiamenFamily",
    "XiamenOptions",
    "XiamenPhase",
    "XiamenWinHow",
    "complete",
    "functional",
    "score_hand",
    "xiamen_data",
    "you_ready",
]
