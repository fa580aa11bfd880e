"""The xiamen family: its hooks on the shared state machine (the refusals live in
:mod:`~erren.families.xiamen.game.refusals`, the settlement glue in
:mod:`~erren.families.xiamen.game.scoring`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from erren.engine.actions import Action, ActionKind
from erren.engine.events import EventKind
from erren.engine.family import Family
from erren.engine.registry import register_family
from erren.engine.state import (
    AnyWinHow,
    FamilyPhase,
    HandResult,
    Origin,
    Phase,
    ResultKind,
    WinClaim,
    WinHow,
)
from erren.families.xiamen.game import refusals
from erren.families.xiamen.game import resample as resampling
from erren.families.xiamen.game.data import (
    CHAIN,
    KINDS,
    TILES,
    WHITE,
    WIN_TYPES,
    XiamenData,
    XiamenOptions,
    XiamenPhase,
    XiamenWinHow,
    complete,
    func_kind,
    natural_of,
    xiamen_data,
    you_ready,
)
from erren.families.xiamen.game.scoring import score_hand
from erren.families.xiamen.game.vocabulary import XiamenEvent, XiamenVerb
from erren.hand import Hand
from erren.scoring.detail import ScoreUnit
from erren.tiles import NUM_KINDS

if TYPE_CHECKING:
    import random

    from erren.engine.observation import Observation
    from erren.engine.resample import Unseen
    from erren.engine.state import State
    from erren.errors import IllegalActionError
    from erren.families.xiamen.game.view import XiamenView

__all__ = ["XiamenFamily"]

AK = ActionKind


class XiamenFamily(Family):
    """xiamen: 1m..9m + honors + 8 flowers; golds; 跟打; the 游 chain; 水."""

    name: ClassVar[str] = "xiamen"
    parts: ClassVar[Mapping[str, str]] = {
        "rules_page": "erren.families.xiamen.rules:PAGE",
        "terminal_scorer": "erren.families.xiamen.cli:SCORER",
        "conformance": "erren.families.xiamen.conformance:ADAPTER",
        "strategy": "erren.families.xiamen.bot.strategy:STRATEGY",
        "mjai": "erren.families.xiamen.mjai:MJAI",
        "terminal_menu": "erren.families.xiamen.menu:MENU",
        "rl": "erren.families.xiamen.rl:RL",
    }
    listing_order: ClassVar[int] = 1
    web_module: ClassVar[Path | None] = Path(__file__).resolve().parents[1] / "web" / "family.js"
    options: XiamenOptions
    chance_plan = (ActionKind.SHUFFLE, ActionKind.DICE)
    uses_streak: ClassVar[bool] = True
    window_phases: ClassVar[frozenset[FamilyPhase]] = frozenset({XiamenPhase.LAST_DRAW})
    drawn_tile_phases: ClassVar[frozenset[FamilyPhase]] = frozenset(
        {XiamenPhase.YOU_CHOICE, XiamenPhase.LAST_DRAW}
    )
    score_unit: ClassVar[ScoreUnit] = ScoreUnit.WATER
    review_bad_loss: ClassVar[float] = 4.0
    """A bad move in the review gives away more than 4 points (水) in expectation: about an
    eighth of a median win (30 in self-play)."""
    win_names: ClassVar[Mapping[AnyWinHow, str]] = WIN_TYPES
    win_words: ClassVar[Mapping[AnyWinHow, str]] = {
        WinHow.ZIMO: "自摸 self-drawn",
        WinHow.DISCARD: "平和 on a discard",
        WinHow.ROBBING: "抢杠胡",
        XiamenWinHow.YOUJIN: "游金 swimming gold",
        XiamenWinHow.SHUANGYOU: "双游 double swim",
        XiamenWinHow.SANYOU: "三游 triple swim",
        XiamenWinHow.QIANGJIN: "抢金胡 robbing the gold",
        XiamenWinHow.SANJINDAO: "三金倒 three golds",
    }
    draw_note: ClassVar[str] = "(xiamen: after 荒庄 the same dealer deals again, 连庄数 unchanged)"

    def __init__(self, **options: Any) -> None:
        opts = XiamenOptions.parse(self.name, options)
        self.options = opts
        self.kinds = KINDS
        self.tiles = tuple([k for k in KINDS for _ in range(4)] + list(range(34, 42)))
        self._use_clocks(opts)

    # ------------------------------------------------------------------ setup
    def new_data(self) -> XiamenData:
        return XiamenData()

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
                state.emit(EventKind.FLOWER, state.dealer, t, data={"during": "gold_reveal"})
                continue
            break
        d = xiamen_data(state)
        d.indicator = d.gold = t
        if t != WHITE:
            phys = list(range(NUM_KINDS))
            phys[t] = WHITE
            d.phys = phys
        state.emit(XiamenEvent.GOLD, -1, t)

    def first_dealer(self, rng: random.Random, first_ready: int) -> int:
        """R-1.2: seat 0 throws two dice; an odd sum makes seat 0 the dealer."""
        return 0 if (rng.randint(1, 6) + rng.randint(1, 6)) % 2 else 1

    def next_dealer(self, dealer: int, streak: int, result: HandResult) -> tuple[int, int]:
        """R-4.8: the dealer wins → same, w + 1; the non-dealer wins → it deals, 0; 荒庄 →
        unchanged."""
        if result.kind is ResultKind.WIN:
            if result.winner == dealer:
                return dealer, streak + 1
            return 1 - dealer, 0
        return dealer, streak

    def escape_penalty(self) -> int:
        return self.options.escape_penalty

    # ------------------------------------------------------------------ opening window
    def _opening_options(self, state: State, p: int) -> list[Action]:
        h = state.hands[p]
        g = xiamen_data(state).gold
        out: list[Action] = []
        if h[g] == 3:
            out.append(Action.make(XiamenVerb.SANJINDAO, p))
        if p == state.dealer:
            for t in KINDS:
                if h[t]:
                    h[t] -= 1
                    h[g] += 1
                    ok = complete(h, g)
                    h[g] -= 1
                    h[t] += 1
                    if ok:
                        out.append(Action.make(XiamenVerb.QIANGJIN, p, t))
        else:
            h[g] += 1
            ok = complete(h, g)
            h[g] -= 1
            if ok:
                out.append(Action.make(XiamenVerb.QIANGJIN, p))
        out.append(Action.make(AK.PASS, p))
        return out

    def _open(self, state: State, p: int) -> None:
        """Offer ``p`` the opening window (R-2.2, R-2.3).  It opens for both seats in turn even
        when ``pass`` is the only choice, so that the table never learns from its skipping
        that a hand could have declared."""
        state.enter(XiamenPhase.OPENING, p)
        state.run_auto()

    def _opening_passed(self, state: State, p: int) -> None:
        if p == state.dealer:
            self._open(state, 1 - p)
            return
        if you_ready(state.hands[p], xiamen_data(state).gold):  # last line, D-10
            self._raise_level(state, p)
        state.start_play()

    # ------------------------------------------------------------------ legality
    def phase_actions(self, state: State, player: int) -> list[Action]:
        phase = state.phase
        if phase is XiamenPhase.OPENING:
            return self._opening_options(state, player)
        if phase is XiamenPhase.YOU_CHOICE:
            return [
                Action.make(XiamenVerb.WIN, player),
                Action.make(XiamenVerb.DISCARD_GOLD, player),
            ]
        if phase is XiamenPhase.LAST_DRAW:  # pass-only under claim_privacy when the draw misses
            if complete(state.hands[player], xiamen_data(state).gold):
                return [Action.make(AK.ZIMO, player), Action.make(AK.PASS, player)]
            return [Action.make(AK.PASS, player)]
        return []

    def is_ready(self, state: State, p: int) -> bool:
        """R-3.3: the 3n+1 part is ready when a gold (a wild: any tile) would complete it."""
        h, g = state.hands[p], xiamen_data(state).gold
        if g < 0 or sum(h) % 3 != 1:
            return False
        h[g] += 1
        try:
            return complete(h, g)
        finally:
            h[g] -= 1

    def can_win(self, state: State, p: int, tile: int, how: AnyWinHow) -> bool:
        """R-3.6: 自摸 at level 0 after a draw (golds allowed, D-09; no heavenly win, D-17);
        平和 and 抢杠胡 at level 0, holding no gold, not on a gold."""
        d = xiamen_data(state)
        if d.you_level[p]:
            return False
        h = state.hands[p]
        g = d.gold
        if tile < 0:
            return state.origin is not Origin.DEAL and complete(h, g)
        if tile == g or h[g]:
            return False
        h[tile] += 1
        ok = complete(h, g)
        h[tile] -= 1
        return ok

    def claim_options(self, state: State, q: int, x: int) -> list[Action]:
        """R-2.6: nothing on a gold or for a player in the 游 chain; chows through Whites: the
        shared hu, 明杠 and peng (natural tiles of x's functional kind are physical x, R-1.8),
        the chows by functional kind."""
        d = xiamen_data(state)
        if x == d.gold or d.you_level[q]:
            return []
        out = [
            a
            for a in state.base_claim_options(q, x)
            if a.kind is not AK.CHI and a.kind is not AK.PASS
        ]
        if state.head <= state.tail:
            h = state.hands[q]
            fx = func_kind(d, x)
            if fx < 9:
                for start in (fx - 2, fx - 1, fx):
                    if 0 <= start <= 6:
                        others = [k for k in (start, start + 1, start + 2) if k != fx]
                        if all(h[natural_of(d, k)] for k in others):
                            out.append(Action.make(AK.CHI, q, start))
        if out:
            out.append(Action.make(AK.PASS, q))
        return out

    def chow_tiles(self, state: State, start: int) -> tuple[int, int, int]:
        """The natural tiles of a chow of functional kinds (a White plays as the gold kind)."""
        d = xiamen_data(state)
        a, b, c = sorted(natural_of(d, t) for t in (start, start + 1, start + 2))
        return (a, b, c)

    def follow_kinds(self, state: State, p: int) -> list[int]:
        """R-2.5: the physical tiles ``p`` must choose among (empty: no obligation)."""
        d = xiamen_data(state)
        g = d.gold
        h = state.hands[p]
        seen: set[int] = set()
        out: list[int] = []
        for t in state.discards[1 - p]:
            if t == g or t in seen:
                continue
            seen.add(t)
            if func_kind(d, t) < 27:
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
        """Why the acting seat's ``action`` is refused (:func:`refusals.diagnose`)."""
        return refusals.diagnose(self, state, action)

    # ------------------------------------------------------------------ transitions
    def after_discard(self, state: State, p: int, x: int) -> None:
        """R-2.4 / R-2.9.1: a discard that leaves the hand 游金-ready enters level 1."""
        d = xiamen_data(state)
        if d.you_level[p] == 0 and you_ready(state.hands[p], d.gold):
            self._raise_level(state, p)

    def _raise_level(self, state: State, p: int) -> None:
        d = xiamen_data(state)
        d.you_level[p] += 1
        level = d.you_level[p]
        state.emit(XiamenEvent.YOU, p, data={"level": level})

    def after_draw(self, state: State, p: int) -> None:
        """R-2.9.2: at level 1 or 2 a non-gold draw wins at once; a gold offers the choice."""
        d = xiamen_data(state)
        level = d.you_level[p]
        if not level:
            return
        t = state.last_added[p]
        if t != d.gold:
            self._win(state, p, CHAIN[level - 1], t, in_hand=True, auto=True)
            return
        state.enter(XiamenPhase.YOU_CHOICE, p)

    def perform(self, state: State, action: Action, auto: bool) -> bool:
        kind, p = action.kind, action.player
        phase = state.phase
        d = xiamen_data(state)
        if phase is XiamenPhase.OPENING:
            if kind is AK.PASS:
                state.emit(EventKind.PASS, p, auto=auto)
                self._opening_passed(state, p)
            elif kind is XiamenVerb.SANJINDAO:
                self._win(state, p, XiamenWinHow.SANJINDAO, -1, in_hand=False, auto=auto)
            else:  # QIANGJIN
                if action.tile is not None:  # the dealer lays out t
                    t = int(action.tile)
                    state.hands[p][t] -= 1
                    state.discards[p].append(t)
                    state.n_discards[p] += 1
                    state.emit(EventKind.DISCARD, p, t, auto=auto, data={"why": "qiangjin"})
                d.indicator_taken = True
                state.hands[p][d.gold] += 1
                self._win(state, p, XiamenWinHow.QIANGJIN, d.gold, in_hand=True, auto=auto)
            return True
        if phase is XiamenPhase.YOU_CHOICE:
            level = d.you_level[p]
            if kind is XiamenVerb.WIN:
                self._win(state, p, CHAIN[level - 1], d.gold, in_hand=True, auto=auto)
            else:
                self._discard_gold(state, p, auto)
            return True
        if phase is XiamenPhase.LAST_DRAW:
            if kind is AK.ZIMO:
                self._win(state, p, WinHow.ZIMO, state.last_added[p], in_hand=True, auto=auto)
            else:
                state.emit(EventKind.PASS, p, auto=auto)
                self._win(state, 1 - p, XiamenWinHow.SANYOU, -1, in_hand=False, auto=True)
            return True
        return False

    def _discard_gold(self, state: State, p: int, auto: bool) -> None:
        """R-2.9.2 ``DISCARD_GOLD``: the drawn gold goes (dead, no claim), one level up."""
        d = xiamen_data(state)
        g = d.gold
        state.hands[p][g] -= 1
        state.discards[p].append(g)
        state.visible[g] += 1
        state.n_discards[p] += 1
        state.emit(EventKind.DISCARD, p, g, auto=auto, data={"why": "gold"})
        self._raise_level(state, p)
        o = 1 - p
        if d.you_level[p] == 2:
            state.next_draw(o)  # a normal turn for the opponent
            return
        # the single draw; an empty wall, a miss or a pass give 三游
        if not state.draw(o, back=False, kong=False, exhaust=False):
            self._win(state, p, XiamenWinHow.SANYOU, -1, in_hand=False, auto=True)
            return
        if self.claim_privacy or complete(state.hands[o], g):  # 鸣牌保护: the window always
            state.enter(XiamenPhase.LAST_DRAW, o, Origin.DRAW)
            return
        self._win(state, p, XiamenWinHow.SANYOU, -1, in_hand=False, auto=True)

    def _win(
        self, state: State, p: int, how: AnyWinHow, tile: int, *, in_hand: bool, auto: bool
    ) -> None:
        """End the hand with ``p``'s win of type ``how``; ``tile`` is the winning tile (already
        in the hand when ``in_hand``), -1 for the types without one (三金倒, 三游)."""
        h = list(state.hands[p])
        if tile >= 0 and in_hand:
            h[tile] -= 1
        concealed = tuple(TILES[k] for k in range(NUM_KINDS) for _ in range(h[k]))
        flowers = tuple(TILES[f] for f in sorted(state.flowers[p]))
        hand = Hand(concealed, tuple(state.melds[p]), None if tile < 0 else TILES[tile], flowers)
        claim = WinClaim(p, how, hand, p == state.dealer, last_tile=state.head > state.tail)
        result = self.score_win(state, claim)
        state.emit(EventKind.HU, p, tile, auto=auto, data={"how": how.value})
        state.end(result)

    # ------------------------------------------------------------------ timeouts, 托管
    def default_move(self, state: State, p: int) -> Action:
        """R-2.11: the default action of a timeout, and every move under 托管."""
        phase = state.phase
        legal = state.legal_actions(p)
        if phase is XiamenPhase.OPENING:
            return self._opening_default(state, p, legal)
        if phase is XiamenPhase.YOU_CHOICE:
            return Action.make(XiamenVerb.WIN, p)
        if phase is XiamenPhase.LAST_DRAW:
            return legal[0]  # 自摸 when the draw completes the hand, else pass
        for action in legal:
            if action.kind in (AK.ZIMO, AK.HU):
                return action
        if phase is Phase.TURN:
            return Action.make(AK.DISCARD, p, self.auto_discard(state, p))
        return Action.make(AK.PASS, p)

    def auto_move(self, state: State, p: int) -> Action | None:
        """R-2.11: 托管 plays the default move (xiamen has no 报听)."""
        return self.default_move(state, p)

    def auto_discard(self, state: State, p: int) -> int:
        """R-2.11: the drawn tile if legal and not a gold, else the legal non-gold tile of the
        highest functional kind, a gold only if nothing else is legal."""
        h = state.hands[p]
        d = xiamen_data(state)
        g = d.gold
        legal = self.discard_filter(state, p, [k for k in KINDS if h[k]])
        last = state.last_added[p]
        if state.origin is not Origin.CLAIM and last in legal and last != g and h[last]:
            return last
        naturals = [k for k in legal if k != g]
        if naturals:
            return max(naturals, key=lambda k: func_kind(d, k))
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
            is_rob = action.kind is XiamenVerb.QIANGJIN
            t = -1 if action.tile is None else int(action.tile)
            d = xiamen_data(state)
            rank = (-1 if t == d.gold else func_kind(d, t)) if t >= 0 else 0
            key = (pay, int(is_rob), rank)
            if best is None or key > best:
                best, choice = key, action
        return choice

    # ------------------------------------------------------------------ determinization
    def phase_named(self, name: str) -> Phase | FamilyPhase:
        names = {p.value: p for p in XiamenPhase}
        return names[name] if name in names else Phase(name)

    def resample_data(
        self, state: State, observation: Observation, rng: random.Random, unseen: Unseen
    ) -> None:
        """The gold, indicator and 游 levels of the view (:mod:`.resample`)."""
        resampling.lay_data(state, observation, unseen)

    def draw_hidden_hand(
        self, state: State, p: int, pool: list[int], size: int, rng: random.Random
    ) -> list[int]:
        """游金-ready while ``p`` is in the 游 chain (:mod:`.resample`)."""
        return resampling.hidden_hand(state, p, pool, size, rng)

    def finish_resample(
        self, state: State, observation: Observation, rng: random.Random, unseen: Unseen
    ) -> None:
        """An opponent deciding on a drawn gold drew it (:mod:`.resample`)."""
        resampling.finish(state, observation)

    # ------------------------------------------------------------------ scoring
    def score_win(self, state: State, claim: WinClaim) -> HandResult:
        return score_hand(state, claim, self.options)

    def view(self, state: State, player: int) -> XiamenView:
        """The gold, whether the indicator was taken, and both seats' 游 levels."""
        return xiamen_data(state).view()


def _factory(**options: Any) -> XiamenFamily:
    return XiamenFamily(**options)


register_family("xiamen", _factory)
