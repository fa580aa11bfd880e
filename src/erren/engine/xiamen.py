"""The ``xiamen`` family (厦门二人麻将, ``xiamen.md``): golds, 跟打, the 游 chain, 水 scoring.

The shared state machine runs the turn flow; this module supplies the family's data and hooks:

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

>>> from erren.engine import State, find_ruleset
>>> state = State.new(find_ruleset("xiamen"), seed=3)
>>> len(state.ruleset.tiles), 0 <= state.gold < 34
(72, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from erren.analysis import golds
from erren.engine.actions import Action, ActionKind
from erren.engine.events import EventKind
from erren.engine.ruleset import Options, Ruleset, register_ruleset
from erren.engine.state import HandResult, Origin, Phase, WinClaim
from erren.engine.views import XiamenView
from erren.errors import IllegalActionError
from erren.hand import Hand
from erren.tiles import NUM_KINDS, Tile

if TYPE_CHECKING:
    import random

    from erren.engine.state import State

__all__ = [
    "MULTIPLIER",
    "WIN_TYPES",
    "XiamenOptions",
    "XiamenRuleset",
    "functional",
    "score_hand",
    "you_ready",
]

AK = ActionKind
WHITE = 31
"""``5z``, the fake gold (R-1.8)."""
_TILES = tuple(Tile(i) for i in range(42))
_KINDS = (*range(9), *range(27, 34))

WIN_TYPES = {
    "discard": "平和",
    "zimo": "自摸",
    "robbing": "抢杠胡",
    "youjin": "游金",
    "qiangjin": "抢金胡",
    "sanjindao": "三金倒",
    "shuangyou": "双游",
    "sanyou": "三游",
}
"""The win types of R-3.6 by the ``how`` the engine records."""
MULTIPLIER = {
    "discard": 1,
    "zimo": 2,
    "robbing": 2,
    "youjin": 4,
    "qiangjin": 4,
    "sanjindao": 4,
    "shuangyou": 8,
    "sanyou": 16,
}
"""R-4.6: ``M`` by win type."""
BONUS = {"youjin": 50, "shuangyou": 100, "sanyou": 150}
"""R-4.6: 和牌奖励, outside the cap."""
_CHAIN = ("youjin", "shuangyou", "sanyou")
_LEVEL_WORD = ("", "游金", "双游", "三游")


@dataclass(frozen=True)
class XiamenOptions(Options):
    """R-4.10 room settings and R-2.11 timers."""

    base: int = 8
    cap: int = 100
    escape_penalty: int = 400
    turn_timeout_s: int = 20
    claim_timeout_s: int = 10
    auto_trustee_after: int = 2

    def __post_init__(self) -> None:
        least = {
            "base": 1,
            "cap": 0,
            "escape_penalty": 0,
            "turn_timeout_s": 1,
            "claim_timeout_s": 1,
            "auto_trustee_after": 1,
        }
        for name, low in least.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"option {name} must be a whole number ≥ {low}, not {value!r}")


# ---------------------------------------------------------------------------- hand tests
def functional(hand: list[int], gold: int) -> tuple[list[int], int]:
    """``(counts, golds)``: the natural tiles by functional kind and the golds (R-1.8, R-3.3)."""
    return golds.functional_counts(hand, gold)


def complete(hand: list[int], gold: int) -> bool:
    """R-3.3: the concealed part (3n+2 tiles, by physical kind) is complete, golds wild."""
    return golds.complete(*golds.functional_counts(hand, gold))


def you_ready(hand: list[int], gold: int) -> bool:
    """R-3.5: the 3n+1 part (by physical kind) is 游金-ready."""
    return golds.you_ready(*golds.functional_counts(hand, gold))


def _natural_of(state: State, kind: int) -> int:
    """The physical kind of the natural tiles of functional ``kind``."""
    phys = state.phys
    return kind if phys is None else phys[kind]


def _func_kind(state: State, tile: int) -> int:
    """The functional kind of a natural tile (a White plays as the gold kind)."""
    return state.gold if tile == WHITE and state.gold != WHITE else tile


# ---------------------------------------------------------------------------- the ruleset
class XiamenRuleset(Ruleset):
    """xiamen: 1m..9m + honors + 8 flowers; golds; 跟打; the 游 chain; 水."""

    name: ClassVar[str] = "xiamen"
    options: XiamenOptions
    chance_plan = (ActionKind.SHUFFLE, ActionKind.DICE)
    uses_streak: ClassVar[bool] = True

    def __init__(self, **options: Any) -> None:
        opts = XiamenOptions.parse(self.name, options)
        self.options = opts
        self.kinds = _KINDS
        self.tiles = tuple([k for k in _KINDS for _ in range(4)] + list(range(34, 42)))
        self._use_clocks(opts)

    # ------------------------------------------------------------------ setup
    def after_chance(self, state: State, action: Action, step: int) -> None:
        if step == 1:  # 72 tiles never run out while dealing
            state.deal_tiles()
        elif step == 2:
            self._reveal(state)
            self._open(state, state.dealer)

    def _reveal(self, state: State) -> None:
        """R-1.6: live-wall index 7 + 2s; flowers to the dealer, the next tile revealed."""
        s = sum(state.dice)
        pos = state.head + 7 + 2 * s
        wall = state.wall
        while True:
            t = wall.pop(pos)
            state.tail -= 1
            if t >= NUM_KINDS:
                state.flowers[state.dealer].append(t)
                state._event(EventKind.FLOWER, state.dealer, t, data={"during": "gold_reveal"})
                continue
            break
        state.indicator = state.gold = t
        if t != WHITE:
            phys = list(range(NUM_KINDS))
            phys[t] = WHITE
            state.phys = phys
        state._event(EventKind.GOLD, -1, t)

    def first_dealer(self, rng: random.Random, first_ready: int) -> int:
        """R-1.2: seat 0 throws two dice; an odd sum makes seat 0 the dealer."""
        return 0 if (rng.randint(1, 6) + rng.randint(1, 6)) % 2 else 1

    def next_dealer(self, dealer: int, streak: int, result: HandResult) -> tuple[int, int]:
        """R-4.8: the dealer wins → same, w + 1; the non-dealer wins → it deals, 0; 荒庄 →
        unchanged."""
        if result.kind == "win":
            if result.winner == dealer:
                return dealer, streak + 1
            return 1 - dealer, 0
        return dealer, streak

    def escape_penalty(self) -> int:
        return self.options.escape_penalty

    # ------------------------------------------------------------------ opening window
    def _opening_options(self, state: State, p: int) -> list[Action]:
        h = state.hands[p]
        g = state.gold
        out: list[Action] = []
        if h[g] == 3:
            out.append(Action.make(AK.SANJINDAO, p))
        if p == state.dealer:
            for t in _KINDS:
                if h[t]:
                    h[t] -= 1
                    h[g] += 1
                    ok = complete(h, g)
                    h[g] -= 1
                    h[t] += 1
                    if ok:
                        out.append(Action.make(AK.QIANGJIN, p, t))
        else:
            h[g] += 1
            ok = complete(h, g)
            h[g] -= 1
            if ok:
                out.append(Action.make(AK.QIANGJIN, p))
        out.append(Action.make(AK.PASS, p))
        return out

    def _open(self, state: State, p: int) -> None:
        """Offer ``p`` the opening window (R-2.2, R-2.3).  It opens for both seats in turn even
        when ``pass`` is the only choice, so that the table never learns from its skipping
        that a hand could have declared."""
        state.phase = Phase.OPENING
        state.actor = p
        state.origin = None
        state._legal = None
        state._run_auto()

    def _opening_passed(self, state: State, p: int) -> None:
        if p == state.dealer:
            self._open(state, 1 - p)
            return
        if you_ready(state.hands[p], state.gold):  # last line, D-10
            self._raise_level(state, p)
        state.start_play()

    # ------------------------------------------------------------------ legality
    def phase_actions(self, state: State, player: int) -> list[Action]:
        phase = state.phase
        if phase is Phase.OPENING:
            return self._opening_options(state, player)
        if phase is Phase.YOU_CHOICE:
            return [Action.make(AK.WIN, player), Action.make(AK.DISCARD_GOLD, player)]
        if phase is Phase.LAST_DRAW:  # pass-only under claim_privacy when the draw misses
            if complete(state.hands[player], state.gold):
                return [Action.make(AK.ZIMO, player), Action.make(AK.PASS, player)]
            return [Action.make(AK.PASS, player)]
        return []

    def can_win(self, state: State, p: int, tile: int, how: str) -> bool:
        """R-3.6: 自摸 at level 0 after a draw (golds allowed, D-09; no heavenly win, D-17);
        平和 and 抢杠胡 at level 0, holding no gold, not on a gold."""
        if state.you_level[p]:
            return False
        h = state.hands[p]
        g = state.gold
        if tile < 0:
            return state.origin is not Origin.DEAL and complete(h, g)
        if tile == g or h[g]:
            return False
        h[tile] += 1
        ok = complete(h, g)
        h[tile] -= 1
        return ok

    def claim_options(self, state: State, q: int, x: int) -> list[Action]:
        """R-2.6: nothing on a gold or for a player in the 游 chain; chows through Whites."""
        g = state.gold
        if x == g or state.you_level[q]:
            return []
        out: list[Action] = []
        if self.can_win(state, q, x, "discard"):
            out.append(Action.make(AK.HU, q))
        if state.head <= state.tail:
            h = state.hands[q]
            c = h[x]  # natural tiles of x's functional kind are physical x
            if c == 3:
                out.append(Action.make(AK.MING_GANG, q))
            if c >= 2:
                out.append(Action.make(AK.PENG, q))
            fx = _func_kind(state, x)
            if fx < 9:
                for start in (fx - 2, fx - 1, fx):
                    if 0 <= start <= 6:
                        others = [k for k in (start, start + 1, start + 2) if k != fx]
                        if all(h[_natural_of(state, k)] for k in others):
                            out.append(Action.make(AK.CHI, q, start))
        if out:
            out.append(Action.make(AK.PASS, q))
        return out

    def follow_kinds(self, state: State, p: int) -> list[int]:
        """R-2.5: the physical tiles ``p`` must choose among (empty: no obligation)."""
        g = state.gold
        h = state.hands[p]
        seen: set[int] = set()
        out: list[int] = []
        for t in state.discards[1 - p]:
            if t == g or t in seen:
                continue
            seen.add(t)
            if _func_kind(state, t) < 27:
                continue
            # the natural tiles of that functional kind are physical t
            if h[t] == 1:
                out.append(t)
        return out

    def discard_filter(self, state: State, player: int, kinds: list[int]) -> list[int]:
        follow = self.follow_kinds(state, player)
        if not follow:
            return kinds
        return [k for k in kinds if k in follow]

    def diagnose(self, state: State, action: Action) -> IllegalActionError | None:
        """Why the acting seat's ``action`` is refused, from its own tiles and choices (the
        state answers a seat that is not to act)."""
        kind, p = action.kind, action.player
        phase = state.phase
        g = state.gold
        h = state.hands[p]
        t = -1 if action.tile is None else int(action.tile)
        if kind in (AK.SANJINDAO, AK.QIANGJIN):
            if phase is not Phase.OPENING:
                return IllegalActionError(
                    "opening-closed",
                    f"{action}: 三金倒 and 抢金胡 exist only in the opening window (R-2.3)",
                )
            if kind is AK.SANJINDAO:
                return IllegalActionError(
                    "not-three-golds", f"{action}: 三金倒 needs all three golds (R-2.3)"
                )
            return IllegalActionError(
                "not-ready-for-gold",
                f"{action}: the hand plus the indicator is not complete (R-2.3)",
            )
        if kind in (AK.WIN, AK.DISCARD_GOLD):
            return IllegalActionError(
                "no-gold-choice",
                f"{action}: only a player in the 游 chain who drew a gold chooses (R-2.9.2)",
            )
        if phase in (Phase.YOU_CHOICE, Phase.LAST_DRAW, Phase.OPENING):
            legal = ", ".join(str(a) for a in state.legal_actions(p))
            return IllegalActionError(
                "not-now", f"{action}: you may only choose among {legal} now (R-2.1)"
            )
        if kind in (AK.PENG, AK.CHI, AK.MING_GANG, AK.HU):
            last = state.discards[1 - p][-1] if state.discards[1 - p] else -1
            if phase is not Phase.CLAIM and last == g:
                return IllegalActionError(
                    "dead-gold", f"{action}: a discarded gold can never be claimed (R-2.8)"
                )
            if phase is Phase.CLAIM:
                x = state.pending
                if kind is AK.HU and h[g]:
                    return IllegalActionError(
                        "gold-holder-no-pinghu",
                        f"{action}: a player holding a gold cannot win on a discard (R-2.6)",
                    )
                if kind in (AK.PENG, AK.MING_GANG) and h[x] + h[g] >= (2 if kind is AK.PENG else 3):
                    return IllegalActionError(
                        "gold-in-meld", f"{action}: a gold is never part of a meld (R-1.7)"
                    )
                if kind is AK.CHI and t >= 0:
                    need = [k for k in (t, t + 1, t + 2) if k != _func_kind(state, x)]
                    if len(need) == 2 and all(h[_natural_of(state, k)] or k == g for k in need):
                        return IllegalActionError(
                            "gold-in-meld", f"{action}: a gold is never part of a chow (R-1.7)"
                        )
            if phase is Phase.ROB and kind is AK.HU and h[g]:
                return IllegalActionError(
                    "gold-holder-no-pinghu",
                    f"{action}: a player holding a gold cannot rob a kong (R-2.7)",
                )
            return None
        if phase is not Phase.TURN:
            return None
        if kind is AK.DISCARD and t >= 0 and h[t]:
            follow = self.follow_kinds(state, p)
            if follow and t not in follow:
                names = " or ".join(str(_TILES[k]) for k in follow)
                return IllegalActionError(
                    "follow-discard",
                    f"{action}: 跟打 — the opponent discarded {names} and you hold exactly one; "
                    f"discard {names} (R-2.5)",
                )
        if kind in (AK.AN_GANG, AK.JIA_GANG) and t == g:
            return IllegalActionError(
                "gold-in-meld", f"{action}: golds are never used in a kong (R-1.7)"
            )
        if kind is AK.ZIMO and state.origin is Origin.DEAL:
            return IllegalActionError(
                "no-heavenly-win",
                f"{action}: the dealer's complete opening hand is 抢金胡, not 自摸 (R-2.2, D-17)",
            )
        return None

    # ------------------------------------------------------------------ transitions
    def after_discard(self, state: State, p: int, x: int) -> None:
        """R-2.4 / R-2.9.1: a discard that leaves the hand 游金-ready enters level 1."""
        if state.you_level[p] == 0 and you_ready(state.hands[p], state.gold):
            self._raise_level(state, p)

    def _raise_level(self, state: State, p: int) -> None:
        state.you_level[p] += 1
        level = state.you_level[p]
        state._event(EventKind.YOU, p, data={"level": level})

    def after_draw(self, state: State, p: int) -> None:
        """R-2.9.2: at level 1 or 2 a non-gold draw wins at once; a gold offers the choice."""
        level = state.you_level[p]
        if not level:
            return
        t = state.last_added[p]
        if t != state.gold:
            self._win(state, p, _CHAIN[level - 1], t, in_hand=True, auto=True)
            return
        state.phase = Phase.YOU_CHOICE
        state.origin = None
        state._legal = None

    def perform(self, state: State, action: Action, auto: bool) -> bool:
        kind, p = action.kind, action.player
        phase = state.phase
        if phase is Phase.OPENING:
            if kind is AK.PASS:
                state._event(EventKind.PASS, p, auto=auto)
                self._opening_passed(state, p)
            elif kind is AK.SANJINDAO:
                self._win(state, p, "sanjindao", -1, in_hand=False, auto=auto)
            else:  # QIANGJIN
                if action.tile is not None:  # the dealer lays out t
                    t = int(action.tile)
                    state.hands[p][t] -= 1
                    state.discards[p].append(t)
                    state.n_discards[p] += 1
                    state._event(EventKind.DISCARD, p, t, auto=auto, data={"why": "qiangjin"})
                state.indicator_taken = True
                state.hands[p][state.gold] += 1
                self._win(state, p, "qiangjin", state.gold, in_hand=True, auto=auto)
            return True
        if phase is Phase.YOU_CHOICE:
            level = state.you_level[p]
            if kind is AK.WIN:
                self._win(state, p, _CHAIN[level - 1], state.gold, in_hand=True, auto=auto)
            else:
                self._discard_gold(state, p, auto)
            return True
        if phase is Phase.LAST_DRAW:
            if kind is AK.ZIMO:
                self._win(state, p, "zimo", state.last_added[p], in_hand=True, auto=auto)
            else:
                state._event(EventKind.PASS, p, auto=auto)
                self._win(state, 1 - p, "sanyou", -1, in_hand=False, auto=True)
            return True
        return False

    def _discard_gold(self, state: State, p: int, auto: bool) -> None:
        """R-2.9.2 ``DISCARD_GOLD``: the drawn gold goes (dead, no claim), one level up."""
        g = state.gold
        state.hands[p][g] -= 1
        state.discards[p].append(g)
        state.visible[g] += 1
        state.n_discards[p] += 1
        state._event(EventKind.DISCARD, p, g, auto=auto, data={"why": "gold"})
        self._raise_level(state, p)
        o = 1 - p
        if state.you_level[p] == 2:
            state._after_pass(o)  # a normal turn for the opponent
            return
        # the single draw; an empty wall, a miss or a pass give 三游
        if not state._draw(o, back=False, kong=False, exhaust=False):
            self._win(state, p, "sanyou", -1, in_hand=False, auto=True)
            return
        if self.claim_privacy or complete(state.hands[o], g):  # 鸣牌保护: the window always
            state.phase = Phase.LAST_DRAW
            state.actor = o
            state.origin = Origin.DRAW
            state._legal = None
            return
        self._win(state, p, "sanyou", -1, in_hand=False, auto=True)

    def _win(self, state: State, p: int, how: str, tile: int, *, in_hand: bool, auto: bool) -> None:
        """End the hand with ``p``'s win of type ``how``; ``tile`` is the winning tile (already
        in the hand when ``in_hand``), -1 for the types without one (三金倒, 三游)."""
        h = list(state.hands[p])
        if tile >= 0 and in_hand:
            h[tile] -= 1
        concealed = tuple(_TILES[k] for k in range(NUM_KINDS) for _ in range(h[k]))
        flowers = tuple(_TILES[f] for f in sorted(state.flowers[p]))
        hand = Hand(concealed, tuple(state.melds[p]), None if tile < 0 else _TILES[tile], flowers)
        claim = WinClaim(p, how, hand, p == state.dealer, last_tile=state.head > state.tail)
        state.result = self.score_win(state, claim)
        state._event(EventKind.HU, p, tile, auto=auto, data={"how": how})
        state._finish()

    # ------------------------------------------------------------------ timeouts, 托管
    def default_move(self, state: State, p: int) -> Action:
        """R-2.11: the default action of a timeout, and every move under 托管."""
        phase = state.phase
        legal = state.legal_actions(p)
        if phase is Phase.OPENING:
            return self._opening_default(state, p, legal)
        if phase is Phase.YOU_CHOICE:
            return Action.make(AK.WIN, p)
        if phase is Phase.LAST_DRAW:
            return legal[0]  # 自摸 when the draw completes the hand, else pass
        for action in legal:
            if action.kind in (AK.ZIMO, AK.HU):
                return action
        if phase is Phase.TURN:
            return Action.make(AK.DISCARD, p, self.auto_discard(state, p))
        return Action.make(AK.PASS, p)

    def auto_discard(self, state: State, p: int) -> int:
        """R-2.11: the drawn tile if legal and not a gold, else the legal non-gold tile of the
        highest functional kind, a gold only if nothing else is legal."""
        h = state.hands[p]
        g = state.gold
        legal = self.discard_filter(state, p, [k for k in _KINDS if h[k]])
        last = state.last_added[p]
        if state.origin is not Origin.CLAIM and last in legal and last != g and h[last]:
            return last
        naturals = [k for k in legal if k != g]
        if naturals:
            return max(naturals, key=lambda k: _func_kind(state, k))
        return g

    def _opening_default(self, state: State, p: int, legal: list[Action]) -> Action:
        """The declared win with the larger payment (抢金胡 on a tie; for ``qiangjin:t`` the
        best ``t``, ties to the non-gold ``t`` of the highest functional kind), else pass."""
        best: tuple[int, int, int] | None = None
        choice = Action.make(AK.PASS, p)
        for action in legal:
            if action.kind is AK.PASS:
                continue
            twin = state.clone()
            twin.trustee = [False, False]
            self.perform(twin, action, True)
            result = twin.result
            pay = result.points if result is not None else 0
            is_rob = action.kind is AK.QIANGJIN
            t = -1 if action.tile is None else int(action.tile)
            rank = (-1 if t == state.gold else _func_kind(state, t)) if t >= 0 else 0
            key = (pay, int(is_rob), rank)
            if best is None or key > best:
                best, choice = key, action
        return choice

    # ------------------------------------------------------------------ scoring
    def score_win(self, state: State, claim: WinClaim) -> HandResult:
        return score_hand(state, claim, self.options)

    def view(self, state: State, player: int) -> XiamenView:
        """The gold, whether the indicator was taken, and both seats' 游 levels."""
        return XiamenView(
            gold=_TILES[state.gold] if state.gold >= 0 else None,
            indicator_taken=state.indicator_taken,
            you_level=(state.you_level[0], state.you_level[1]),
        )


# ---------------------------------------------------------------------------- scoring glue
_WIN_TYPE_ID = {"discard": "pinghu", "robbing": "qianggang"}
"""The engine's ``how`` to the scorer's :class:`~erren.scoring.xiamen.WinType` id."""


def score_hand(state: State, claim: WinClaim, options: XiamenOptions) -> HandResult:
    """The settlement of a win (R-4): the one call into the 水 scorer
    (:func:`erren.scoring.xiamen.score_xiamen`, then :func:`~erren.scoring.xiamen.settle_xiamen`).

    ``fans`` holds the 水 items as ``(id name, 水, 1)`` rows, ``fan_total`` the 水, ``points``
    the total paid (bonus included) and ``detail`` a :class:`XiamenScore` (the 水 rows and the
    settlement, whose ``steps`` explain every figure)."""
    from erren.scoring.xiamen import (  # noqa: PLC0415 - scoring imports the engine's deps
        WinType,
        XiamenContext,
        XiamenScore,
        XiamenSettings,
        score_xiamen,
        settle_xiamen,
    )

    hand = claim.hand
    ctx = XiamenContext(
        gold=Tile(state.gold),
        win_type=WinType(_WIN_TYPE_ID.get(claim.how, claim.how)),
        flowers=hand.flowers,
        dealer=claim.dealer,
        streak=state.streak,
        settings=XiamenSettings(
            base=options.base,
            cap=options.cap,
            escape_penalty=options.escape_penalty,
        ),
    )
    result = score_xiamen(hand, ctx)
    settlement = settle_xiamen(result, winner=claim.winner)
    items = tuple((f"{item.id} {item.name}", item.value, 1) for item in result.items)
    return HandResult(
        "win",
        winner=claim.winner,
        loser=1 - claim.winner,
        how=claim.how,
        hand=hand,
        claim=claim,
        fans=items,
        fan_total=result.water,
        points=settlement.total,
        deltas=settlement.deltas,
        detail=XiamenScore(result, settlement),
    )


def _factory(**options: Any) -> XiamenRuleset:
    return XiamenRuleset(**options)


register_ruleset("xiamen", _factory)
