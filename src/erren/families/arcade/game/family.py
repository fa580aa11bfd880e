"""The arcade family: its hooks on the shared state machine (the flow helpers live in
:mod:`~erren.families.arcade.game.flow`, the auto-play and timeout moves in
:mod:`~erren.families.arcade.game.autoplay`, the refusals in
:mod:`~erren.families.arcade.game.refusals`, the settlement glue in
:mod:`~erren.families.arcade.game.scoring`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from erren.analysis.shanten import is_complete
from erren.analysis.shapes import ARCADE
from erren.engine.actions import Action, ActionKind
from erren.engine.events import EventKind
from erren.engine.family import Family
from erren.engine.registry import register_family
from erren.engine.state import AnyWinHow, FamilyPhase, HandResult, Origin, Phase, ResultKind, WinHow
from erren.families.arcade.game import autoplay, flow, refusals, scoring
from erren.families.arcade.game import resample as resampling
from erren.families.arcade.game.bleed import bleed_deal
from erren.families.arcade.game.options import (
    ALL_KINDS,
    GREEN,
    INDICATOR,
    LIVE,
    TILES,
    ArcadeData,
    ArcadeOptions,
    ArcadePhase,
    arcade_data,
)
from erren.families.arcade.game.vocabulary import ArcadeEvent, ArcadeVerb
from erren.melds import MeldKind
from erren.tiles import NUM_KINDS

if TYPE_CHECKING:
    from erren.engine.observation import Observation
    from erren.engine.resample import Unseen
    from erren.engine.state import State, WinClaim
    from erren.errors import IllegalActionError
    from erren.families.arcade.game.view import ArcadeView

__all__ = ["ArcadeFamily"]

AK = ActionKind


class ArcadeFamily(Family):
    """arcade: 136 tiles, 71 live; 财神; White/Red flowers; 报听; events; 海底捞月."""

    name: ClassVar[str] = "arcade"
    review_bad_loss: ClassVar[float] = 0.4
    """A bad move in the review gives away more than 0.4 points in expectation: about an
    eighth of a median win (3 in self-play)."""
    parts: ClassVar[Mapping[str, str]] = {
        "rules_page": "erren.families.arcade.rules:PAGE",
        "terminal_scorer": "erren.families.arcade.cli:SCORER",
        "conformance": "erren.families.arcade.conformance:ADAPTER",
        "strategy": "erren.families.arcade.bot.strategy:STRATEGY",
        "mjai": "erren.families.arcade.mjai:MJAI",
        "terminal_menu": "erren.families.arcade.menu:MENU",
        "rl": "erren.families.arcade.rl:RL",
        "cli_commands": "erren.families.arcade.commands:COMMANDS",
        "server_extension": "erren.families.arcade.campaign.service.routes:SERVICE",
    }
    listing_order: ClassVar[int] = 2
    web_module: ClassVar[Path | None] = Path(__file__).resolve().parents[1] / "web" / "family.js"
    options: ArcadeOptions
    chance_plan = (ActionKind.SHUFFLE, ActionKind.DICE, ActionKind.SEED)
    ting_enabled = True
    ting_auto_hu = False
    window_phases: ClassVar[frozenset[FamilyPhase]] = frozenset({ArcadePhase.HAIDI})
    drawn_tile_phases: ClassVar[frozenset[FamilyPhase]] = frozenset({ArcadePhase.HAIDI})
    draw_note: ClassVar[str] = "(arcade: 流局 — the same dealer deals again, R1.17)"

    def __init__(self, **options: Any) -> None:
        opts = ArcadeOptions.parse(self.name, options)
        self.options = opts
        self.kinds = ALL_KINDS
        self.tiles = tuple(k for k in range(NUM_KINDS) for _ in range(4))
        self._use_clocks(opts)
        self.exchange_timeout_s = opts.exchange_timeout_s
        self.flower_replacement_is_kong = opts.flower_replacement_is_kong

    # ------------------------------------------------------------------ chance and setup
    def sample_chance(self, state: State, kind: ActionKind, rng: random.Random) -> Action:
        if kind is AK.DICE:  # R1.8: the dealer's roll, then the second roller's
            return Action.dice(*(rng.randint(1, 6) for _ in range(4)))
        if kind is AK.SEED:
            return Action.seed(rng.getrandbits(63))
        return super().sample_chance(state, kind, rng)

    def new_data(self) -> ArcadeData:
        return ArcadeData()

    def after_chance(self, state: State, action: Action, step: int) -> None:
        if step == 1:  # R1.3: cut the stock, reveal the indicator, fix W and F
            state.tail = LIVE - 1
            d = arcade_data(state)
            d.reveal(state.wall[INDICATOR])
            state.emit(ArcadeEvent.WILD, -1, d.wild, data={"flower": str(TILES[d.flower])})
        elif step == 3:
            d = arcade_data(state)
            d.rng = random.Random(action.data[0])
            human = self.options.human_seat
            if human is not None and (
                self.options.bleed_normal_prob or self.options.bleed_yakuman_prob
            ):
                bleed_deal(state, d, human, self.options)
            state.deal_tiles()  # R1.14: the deal and the opening flowers from the tail
            self.next_exchange(state, state.dealer)

    def _events_for(self, state: State, p: int) -> bool:
        """R2.20, R3.2: events go to a player not in 报听 or 托管 (in stage mode: the human)."""
        human = self.options.human_seat
        return (human is None or p == human) and not state.ting[p] and not state.trustee[p]

    def next_exchange(self, state: State, p: int) -> None:
        """R1.14 step 3 / R2.21: the dealer's exchange, then the non-dealer's, then play."""
        if self.options.opening_exchange:
            order = (state.dealer, 1 - state.dealer)
            for seat in order[order.index(p) :]:
                if self._events_for(state, seat) and not arcade_data(state).exchanged[seat]:
                    state.enter(ArcadePhase.EXCHANGE, seat)
                    state.run_auto()
                    return
        state.start_play()

    def playing_flower(self, state: State) -> int:
        """R1.10: ``F``, the flower kind of the hand."""
        return arcade_data(state).flower

    def decision_timer(self, state: State, actor: int) -> tuple[str, int]:
        if state.phase is ArcadePhase.EXCHANGE:
            return "exchange", self.exchange_timeout_s
        return super().decision_timer(state, actor)

    def escape_penalty(self) -> int:
        """R2.25: the points an escaping player pays in versus mode,
        ``escape_penalty_points × base_points`` (13 × 1 by default; a bean table multiplies by
        its stake, once, in the server).  Stage mode (``human_seat`` set) has no such rule
        (R3.11 leaves R2.25 out): leaving a run costs the stake in play, as the campaign books
        it, so the escape there is worth 0 points."""
        opts = self.options
        if opts.human_seat is not None:
            return 0
        return opts.escape_penalty_points * opts.base_points

    def first_dealer(self, rng: random.Random, first_ready: int) -> int:
        """R1.17: random."""
        return rng.randrange(2)

    def next_dealer(self, dealer: int, streak: int, result: HandResult) -> tuple[int, int]:
        """R1.17: the winner deals (连庄 when it is the dealer); a draw keeps the dealer."""
        if result.kind is ResultKind.WIN and result.winner is not None:
            if result.winner == dealer:
                return dealer, streak + 1
            return result.winner, 0
        return dealer, streak

    # ------------------------------------------------------------------ hand tests
    def hand_complete(self, state: State, p: int, h: list[int]) -> bool:
        """R5.1: ``h`` (a 14-form, physical kinds) with ``p``'s melds is complete."""
        w = arcade_data(state).wild
        k = h[w]
        counts = h
        if k:
            counts = list(h)
            counts[w] = 0
        melds = state.melds[p]
        held = state.meld_counts[p] if melds else None
        if is_complete(counts, wilds=k, shapes=ARCADE, max_copies=4, held=held):
            return True
        # free-form 绿一色 (L14): every natural tile, melds included, green
        if any(counts[t] for t in range(NUM_KINDS) if t not in GREEN):
            return False
        return all(int(t) in GREEN for m in melds for t in m.tiles)

    def ready(self, state: State, p: int, h: list[int]) -> bool:
        """R2.26: the 13-form ``h`` is ready — completed by some kind, so by a wild."""
        w = arcade_data(state).wild
        h[w] += 1
        try:
            return self.hand_complete(state, p, h)
        finally:
            h[w] -= 1

    def is_ready(self, state: State, p: int) -> bool:
        """R2.26: the 3n+1 part is ready (:meth:`ready`, which a wild would complete)."""
        h = state.hands[p]
        return sum(h) % 3 == 1 and self.ready(state, p, h)

    def can_win(self, state: State, p: int, tile: int, how: AnyWinHow) -> bool:
        h = state.hands[p]
        if tile < 0:
            return self.hand_complete(state, p, h)
        h[tile] += 1
        try:
            return self.hand_complete(state, p, h)
        finally:
            h[tile] -= 1

    # ------------------------------------------------------------------ legal moves
    def turn_actions(self, state: State, p: int) -> list[Action]:
        """R2.4: the shared 自摸, 暗杠 (never of wilds, R1.9c), 加杠 and discards; 报听 any time
        with wilds (R2.12, R2.26) in place of the shared one; the pung offer (R2.22)."""
        d = arcade_data(state)
        w = d.wild
        out = [
            a
            for a in state.base_turn_actions(p)
            if a.kind is not AK.TING and not (a.kind is AK.AN_GANG and a.tile == w)
        ]
        if d.giving:  # R2.22: the answer to the pung offer is under way
            return self.gives(state, p)
        if state.ting[p]:  # R2.13: frozen; the drawn tile goes unless the win is taken
            return out
        h = state.hands[p]
        held = [k for k in ALL_KINDS if h[k]]
        for k in held:
            h[k] -= 1
            ok = self.ready(state, p, h)
            h[k] += 1
            if ok:
                out.append(Action.make(AK.TING, p, k))
        if d.offer[p] >= 0:  # R2.22: accepting starts with the first of three tiles
            out += self.gives(state, p)
        return out

    def gives(self, state: State, p: int) -> list[Action]:
        """The next tile ``p`` may give up (R2.21, R2.22): any concealed tile not given yet,
        in canonical order (never below the last one given), so each choice of tiles is made
        in exactly one way; for the pung offer, only a tile that leaves enough tiles (at or
        after it) to make up the three."""
        given = arcade_data(state).giving
        h = state.hands[p]
        low = given[-1] if given else 0
        more = 2 - len(given) if state.phase is Phase.TURN else 0  # still to give after this
        free = [h[k] - given.count(k) if k >= low else 0 for k in ALL_KINDS]
        out: list[Action] = []
        left = sum(free)  # tiles at or after k not given yet
        for k in ALL_KINDS:
            if free[k] and left - 1 >= more:
                out.append(Action.make(ArcadeVerb.GIVE, p, k))
            left -= free[k]
        return out

    def claim_options(self, state: State, q: int, x: int) -> list[Action]:
        """R2.6–R2.7: the shared claims, nothing on a wild, no wild in a chow (R1.9c)."""
        w = arcade_data(state).wild
        if x == w:
            return []
        out = [
            a for a in state.base_claim_options(q, x) if a.kind is not AK.CHI or w not in _run(a)
        ]
        if len(out) == 1 and out[0].kind is AK.PASS:  # no claim is left
            return []
        return out

    def phase_actions(self, state: State, player: int) -> list[Action]:
        phase = state.phase
        if phase is ArcadePhase.HAIDI:  # pass-only under claim_privacy when the draw misses
            if self.hand_complete(state, player, state.hands[player]):
                return [Action.make(AK.ZIMO, player), Action.make(AK.PASS, player)]
            return [Action.make(AK.PASS, player)]
        if phase is ArcadePhase.EXCHANGE:  # R2.21: end the exchange, or give one more tile
            return [Action.make(ArcadeVerb.EXCHANGE, player), *self.gives(state, player)]
        if phase is ArcadePhase.PICK:
            seen = flow.seen_counts(self, state, player)
            out = [Action.make(ArcadeVerb.PICK, player, k) for k in ALL_KINDS if seen[k] < 4]
            out.append(Action.make(AK.PASS, player))
            return out
        return []

    def steps_of(self, state: State, action: Action) -> tuple[Action, ...]:
        """Records made before ``give`` hold the exchange and the pung-offer answer as one
        action, ``exchange:tiles`` and ``takepung:abc``: replayed as their ``give`` steps (in
        canonical order) and, for the exchange, the closing ``exchange`` (out of place, the
        composite is refused as it always was)."""
        kind, p = action.kind, action.player
        if kind is ArcadeVerb.TAKE_PUNG and state.phase is Phase.TURN and state.actor == p:
            offered = arcade_data(state).offer[p] >= 0
        else:
            offered = False
        exchanging = state.phase is ArcadePhase.EXCHANGE and state.actor == p
        if offered or (kind is ArcadeVerb.EXCHANGE and action.data and exchanging):
            steps = tuple(Action.make(ArcadeVerb.GIVE, p, t) for t in action.data)
            return (
                (*steps, Action.make(ArcadeVerb.EXCHANGE, p))
                if kind is ArcadeVerb.EXCHANGE
                else steps
            )
        return (action,)

    # ------------------------------------------------------------------ pool helpers
    # ------------------------------------------------------------------ transitions
    def before_draw(self, state: State, q: int) -> bool:
        """R2.23: with ``pick_any_prob`` the player may name the kind of his normal draw."""
        prob = self.options.pick_any_prob
        if prob <= 0 or not self._events_for(state, q):
            return False
        if arcade_data(state).rng.random() >= prob:
            return False
        state.enter(ArcadePhase.PICK, q)
        state.emit(ArcadeEvent.PICK_OFFER, q)
        return True

    def after_draw(self, state: State, p: int) -> None:
        """R2.22: after a normal draw, the pung offer with ``pung_offer_prob``."""
        d = arcade_data(state)
        d.pung_kind[p] = -1  # a new tile: no pung taken in this turn yet
        prob = self.options.pung_offer_prob
        if (
            prob <= 0
            or state.origin is not Origin.DRAW
            or state.drew_back
            or not self._events_for(state, p)
        ):
            return
        if d.rng.random() >= prob:
            return
        pool = [0] * 42
        wall = state.wall
        for i in range(state.head, state.tail + 1):
            pool[wall[i]] += 1
        for i in range(d.reserve, len(wall)):
            pool[wall[i]] += 1
        eligible = [k for k in ALL_KINDS if k not in (d.wild, d.flower) and pool[k] >= 3]
        if not eligible:
            return
        k = d.rng.choice(eligible)
        d.offer[p] = k
        state.emit(ArcadeEvent.PUNG_OFFER, p, k, private=True)

    def after_discard(self, state: State, p: int, x: int) -> None:
        """R2.12: record the 报听 declaration (sequence number and kind)."""
        d = arcade_data(state)
        d.discard_no += 1
        d.offer[p] = -1
        pung, d.pung_kind[p] = d.pung_kind[p], -1
        if state.ting[p] and d.baoting_seq[p] < 0:
            d.baoting_seq[p] = d.discard_no
            interrupted = bool(state.melds[0] or state.melds[1])
            tian = state.tianting[p] and (p == state.dealer or not interrupted)
            if pung >= 0 and p != state.dealer:
                # R2.15 after an accepted pung offer (R2.22): the discard is the tile drawn
                # (``last_added``, checked by the state), and the dealt 13 must have been ready
                # — the 13 left are not the dealt ones, the swap changed three of them
                tian = tian and d.dealt_ready[p]
            state.tianting[p] = tian
            if tian:
                d.baoting_kind[p] = "tianting"
            elif any(m.kind is not MeldKind.AN_GANG for m in state.melds[p]):
                d.baoting_kind[p] = "open"
            else:
                d.baoting_kind[p] = "menqing"

    def perform(self, state: State, action: Action, auto: bool) -> bool:
        kind, p = action.kind, action.player
        d = arcade_data(state)
        phase = state.phase
        if kind is ArcadeVerb.GIVE:  # R2.21, R2.22: one more tile chosen; the third takes the pung
            tile = action.tile_kind()
            d.giving.append(tile)
            state.emit(ArcadeEvent.GIVE, p, tile, private=True, auto=auto)
            if phase is Phase.TURN and len(d.giving) == 3:
                give, d.giving = d.giving, []
                flow.take_pung(self, state, p, give, auto)
            return True
        if phase is ArcadePhase.EXCHANGE:  # a timeout or 托管 exchanges nothing (R2.16, R2.17)
            give, d.giving = ([] if auto else d.giving), []
            flow.exchange(self, state, p, give, auto)
            return True
        if phase is ArcadePhase.PICK:
            flow.pick(self, state, p, -1 if kind is AK.PASS else action.tile_kind(), auto)
            return True
        if phase is ArcadePhase.HAIDI:
            if kind is AK.ZIMO:
                state.win(p, -1, WinHow.ZIMO, auto)
            else:
                state.emit(EventKind.PASS, p, auto=auto)
                flow.haidi_discard(self, state, p, auto=True)
                flow.haidi_next(self, state)
            return True
        if phase is Phase.TURN and kind is not AK.ZIMO:
            d.offer[p] = -1  # any other move of the turn declines the offer
            d.giving = []  # a timeout or 托管 in the middle of the answer declines it too
        return False

    def on_exhausted(self, state: State) -> bool:
        """R2.18: the 海底 player (the 报听 player, the first to declare if both) draws."""
        d = arcade_data(state)
        ready = [p for p in (0, 1) if state.ting[p]]
        if not ready:
            return False
        w = min(ready, key=lambda p: d.baoting_seq[p])
        human = self.options.human_seat
        n = self.options.haidi_draws
        if human is not None and w == human and self.options.haidi_draws_human is not None:
            n = self.options.haidi_draws_human
        d.haidi_player = w
        d.haidi_left = n
        state.pending = -1
        state.emit(ArcadeEvent.HAIDI, w, data={"draws": n})
        flow.haidi_next(self, state)
        return True

    # ------------------------------------------------------------------ timeouts, 托管
    def auto_move(self, state: State, p: int) -> Action | None:
        """R2.13 (报听) and R2.17 (托管): see :func:`autoplay.auto_move`."""
        return autoplay.auto_move(self, state, p)

    def default_move(self, state: State, p: int) -> Action:
        """R2.16: see :func:`autoplay.default_move`."""
        return autoplay.default_move(self, state, p)

    def auto_discard(self, state: State, p: int) -> int:
        """R2.16: the drawn tile, else the rightmost (:func:`autoplay.auto_discard`)."""
        return autoplay.auto_discard(state, p)

    # ------------------------------------------------------------------ determinization
    def phase_named(self, name: str) -> Phase | FamilyPhase:
        names = {p.value: p for p in ArcadePhase}
        return names[name] if name in names else Phase(name)

    def resample_data(
        self, state: State, observation: Observation, rng: random.Random, unseen: Unseen
    ) -> None:
        """The view's facts, the reserve drawn (:mod:`.resample`)."""
        resampling.lay_data(state, observation, rng, unseen)

    def draw_hidden_hand(
        self, state: State, p: int, pool: list[int], size: int, rng: random.Random
    ) -> list[int]:
        """Uniform, three copies of an offered kind left to the stock (:mod:`.resample`)."""
        return resampling.hidden_hand(state, p, pool, size, rng)

    def finish_resample(
        self, state: State, observation: Observation, rng: random.Random, unseen: Unseen
    ) -> None:
        """The stock: live wall, indicator, reserve (:mod:`.resample`)."""
        resampling.finish(state, unseen)

    def may_hide_kong(self, state: State, kind: int) -> bool:
        """No 暗杠 of wilds (R1.9c) nor of the flower kind, nor of a kind offered to a seat: an
        offer needs three copies of its kind in the stock (R2.22)."""
        d = arcade_data(state)
        return kind not in (d.wild, d.flower) and kind not in d.offer

    # ------------------------------------------------------------------ refusals, scoring
    def diagnose(self, state: State, action: Action) -> IllegalActionError | None:
        """Why the acting seat's ``action`` is refused (:func:`refusals.diagnose`)."""
        return refusals.diagnose(self, state, action)

    def score_win(self, state: State, claim: WinClaim) -> HandResult:
        """R2.25 through :func:`erren.families.arcade.scoring.score_arcade`
        (:func:`scoring.score_hand`)."""
        return scoring.score_hand(self, state, claim)

    def view(self, state: State, player: int) -> ArcadeView:
        """The wild, the flower kind, the reserve, this player's offer, 报听 kinds, 海底, and
        this player's big-bleed template."""
        return arcade_data(state).view(state, player)


def _factory(**options: Any) -> ArcadeFamily:
    return ArcadeFamily(**options)


register_family("arcade", _factory)


def _run(chow: Action) -> tuple[int, int, int]:
    start = chow.tile_kind()
    return (start, start + 1, start + 2)
