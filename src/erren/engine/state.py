"""The hand's state machine (guobiao-2p §2): one writer, validated actions, exact replays.

Phases (§2.2): ``DEAL`` waits for the chance actions of the setup (shuffle, dice); the deal, the
initial 补花 and every draw then follow from the wall.  ``TURN`` is player ``actor`` holding a
14-form with ``origin`` (deal/draw/replacement/claim); ``CLAIM`` is ``actor`` deciding on the
opponent's discard ``pending``; ``ROB`` is ``actor`` deciding whether to rob the opponent's 加杠
of ``pending``; ``END`` holds the :class:`HandResult`.  The ``DRAW``/``REPLACE`` states of the
spec are instantaneous here: draws are not decisions.

Two doors change a hand.  ``apply`` takes what a player may choose (one of the acting seat's
``legal_actions``) and the chance outcomes of the setup; ``apply_system`` takes what only the
table decides for a seat: ``timeout``, ``trustee:on|off`` and ``escape``.  A player (or a bot)
that hands ``apply`` a system action, or a move for the seat that is not to act, gets an
:class:`~erren.errors.IllegalActionError` and the state is unchanged.  A refusal names only
the sender's own situation: a seat that is not to act always hears the same sentence ("it is not
your turn; the opponent is deciding"), the acting seat hears about its own tiles and choices.
``apply_recorded`` routes a recorded action through the right door (replays).

Moves the engine makes for a player (报听 auto-play, 托管, the default move of a timeout) are
applied inside those calls and appear as events marked ``auto``; the history holds only the
actions given to them, which is what a record stores.

With the ruleset's ``claim_privacy`` (鸣牌保护, guobiao-2p §2.4) every discard opens a claim window
and every 加杠 a rob window for the opponent, pass-only when he has no other choice, and no
pass of such a window is made by 报听 auto-play: the discarder cannot tell from the flow whether
the opponent could have claimed.  The same holds for the families' windows after a draw (xiamen's
三游 last draw, arcade's 海底 draws).

Inside, everything is ints: 34-long count arrays per player, the wall as a list of tile ids with
``head``/``tail`` pointers, interned :class:`Action` objects.
"""

from __future__ import annotations

import random
from enum import Enum
from typing import TYPE_CHECKING, Any

from erren.engine.actions import CHANCE, Action, ActionKind
from erren.engine.events import NO_DATA as NO_EVENT_DATA
from erren.engine.events import NOBODY, Event, EventData, EventKind
from erren.engine.result import HandResult, WinClaim
from erren.engine.winning import ready_discards
from erren.errors import IllegalActionError
from erren.hand import Hand
from erren.melds import Meld, MeldKind
from erren.tiles import NUM_KINDS, Tile

if TYPE_CHECKING:
    from erren.engine.observation import Observation
    from erren.engine.record import Record
    from erren.engine.ruleset import Ruleset

__all__ = [
    "NO_DATA",
    "FamilyData",
    "FamilyPhase",
    "HandResult",
    "Origin",
    "Phase",
    "State",
    "WinClaim",
]

TERMINAL = -2
"""``current_player()`` once the hand is over."""


class Phase(Enum):
    """The shared phases of a hand (§2.2)."""

    DEAL = "deal"
    TURN = "turn"
    CLAIM = "claim"
    ROB = "rob"
    END = "end"


class FamilyPhase(Enum):
    """Base of a family's own phases: each family subclasses it with its members (xiamen's
    ``XiamenPhase``, arcade's ``ArcadePhase``); ``value`` is the phase's name in observations."""


class FamilyData:
    """Base of a family's per-hand data (``state.data``, made by ``Family.new_data``): the
    family owns it and reads it through its own typed helper.  The base holds nothing."""

    __slots__ = ()

    def clone(self) -> FamilyData:
        """An independent copy (immutable data may return itself)."""
        return self

    def fingerprint(self) -> tuple[object, ...]:
        """Everything the data holds, for exact-replay checks."""
        return ()


NO_DATA = FamilyData()
"""The data of a family that keeps none (guobiao)."""


class Origin(Enum):
    """How the last tile of a ``TURN`` arrived (§2.2)."""

    DEAL = "deal"
    DRAW = "draw"
    REPLACEMENT = "replacement"
    CLAIM = "claim"


_DEAL, _TURN, _CLAIM, _ROB, _END = Phase.DEAL, Phase.TURN, Phase.CLAIM, Phase.ROB, Phase.END
_O_DEAL, _O_DRAW, _O_REPL, _O_CLAIM = Origin.DEAL, Origin.DRAW, Origin.REPLACEMENT, Origin.CLAIM

AK = ActionKind
_TILES = tuple(Tile(i) for i in range(42))

_KONG_NEEDS = {
    AK.AN_GANG: ("kong-needs-four", "{action}: 暗杠 needs four concealed {tile} (§2.3)"),
    AK.JIA_GANG: (
        "kong-needs-peng",
        "{action}: 加杠 needs an exposed peng and the fourth tile in hand (§2.3, D12)",
    ),
}
"""Why a concealed or added kong of the action's ``{tile}`` is refused: ``(code, message)``."""
_CLAIM_NEEDS = {
    AK.MING_GANG: ("kong-needs-four", "{action}: 明杠 needs three concealed {tile}"),
    AK.PENG: ("peng-needs-pair", "{action}: peng needs two concealed {tile}"),
    AK.CHI: ("chi-not-a-run", "{action}: the chow must contain {tile} and two held tiles (§2.4)"),
}
"""Why a claim of the discard ``{tile}`` is refused: ``(code, message)``."""


def _table(kind: ActionKind) -> tuple[tuple[Action, ...], ...]:
    return tuple(tuple(Action.make(kind, p, t) for t in range(NUM_KINDS)) for p in (0, 1))


_DISCARD = _table(AK.DISCARD)
_TING = _table(AK.TING)
_CHI = _table(AK.CHI)
_ANGANG = _table(AK.AN_GANG)
_JIAGANG = _table(AK.JIA_GANG)
_HU = tuple(Action.make(AK.HU, p) for p in (0, 1))
_ZIMO = tuple(Action.make(AK.ZIMO, p) for p in (0, 1))
_PASS = tuple(Action.make(AK.PASS, p) for p in (0, 1))
_PENG = tuple(Action.make(AK.PENG, p) for p in (0, 1))
_MINGGANG = tuple(Action.make(AK.MING_GANG, p) for p in (0, 1))
_CLAIM_KINDS = frozenset({AK.HU, AK.PASS, AK.PENG, AK.MING_GANG, AK.CHI})
_WINDOWS: frozenset[Phase | FamilyPhase] = frozenset({Phase.CLAIM, Phase.ROB})
"""Windows in which one seat answers a tile (a discard, a 加杠; the families add their
post-draw windows): with ``claim_privacy`` they open whether or not he has a choice, and 报听
auto-play does not pass them."""
_TURN_KINDS = frozenset({AK.DISCARD, AK.TING, AK.ZIMO, AK.AN_GANG, AK.JIA_GANG})


class State:
    """One hand.  Build with :meth:`State.new` (chance from a seed) or ``State(ruleset)`` and
    apply the chance actions yourself (replays do).

    The family's hooks (:class:`~erren.engine.ruleset.Family`) change the hand only through
    its public fields (hands, wall, pools, ...) and this transition API:

    * :meth:`enter` (``phase``, ``actor``, ``origin``): who decides in which phase next;
    * :meth:`emit`: log an event; :meth:`end`: finish with a result; :meth:`win`: finish with
      a shared win (``discard``/``robbing``/``zimo``) scored by the family;
    * :meth:`deal`, :meth:`deal_tiles`, :meth:`start_play`: the setup after the chance actions;
    * :meth:`draw` (one draw with flower replacement), :meth:`draw_turn` (a normal draw and
      the turn), :meth:`next_draw` (the flow after a passed discard);
    * :meth:`run_auto`: let 报听/托管 auto-play move after entering a phase;
    * :meth:`base_turn_actions`, :meth:`base_claim_options`, :meth:`base_can_win`,
      :meth:`base_default_move`, :meth:`base_auto_move`: the shared behaviour a hook extends;
    * ``data``: the family's own per-hand :class:`FamilyData`.
    """

    def __init__(  # noqa: PLR0915 - one assignment per field of the state, nothing to split
        self,
        ruleset: Ruleset,
        *,
        dealer: int = 0,
        round_wind: int = Tile.EAST,
        streak: int = 0,
    ) -> None:
        if dealer not in (0, 1):
            raise ValueError("dealer must be seat 0 or 1")
        if streak < 0:
            raise ValueError("the dealer streak is ≥ 0")
        self.ruleset = ruleset
        self.dealer = dealer
        self.streak = streak
        """Consecutive hands the dealer has won as dealer before this one (xiamen R-1.2)."""
        self.round_wind = Tile(round_wind)
        self.seed: int | None = None
        self.phase: Phase | FamilyPhase = _DEAL
        self.actor = CHANCE
        self.origin: Origin | None = None
        self.pending = -1  # the tile of a CLAIM or ROB window
        self.wall: list[int] = []
        self.head = 0
        self.tail = -1
        self.dice: tuple[int, ...] = ()
        self.hands: list[list[int]] = [[0] * NUM_KINDS, [0] * NUM_KINDS]
        self.melds: list[list[Meld]] = [[], []]
        self.meld_counts: list[list[int]] = [[0] * NUM_KINDS, [0] * NUM_KINDS]
        self.discards: list[list[int]] = [[], []]
        self.claimed: list[list[int]] = [[], []]  # indices into discards taken by the opponent
        self.flowers: list[list[int]] = [[], []]
        self.visible = [0] * NUM_KINDS  # copies in pools and exposed melds (§2.1)
        self.last_added = [-1, -1]
        self.kong_draw = False  # the tile just drawn is a kong's own replacement (杠上开花)
        self.ting = [False, False]
        self.tianting = [False, False]
        self.trustee = [False, False]
        self.timeouts = [0, 0]
        self.n_discards = [0, 0]
        self.n_kongs = [0, 0]
        self.history: list[Action] = []
        self._log: list[tuple[Any, ...]] = []
        self._built: list[Event] = []
        self.result: HandResult | None = None
        self._chance_step = 0
        self._legal: list[Action] | None = None
        self._complete = ruleset.complete
        self._privacy = ruleset.claim_privacy
        self._min_fan = ruleset.min_fan
        self.drew_back = False
        """The last tile drawn came from the tail (a replacement)."""
        self.data: FamilyData = ruleset.new_data()
        """The family's own per-hand data (its reserve, golds, 游 levels, ...)."""
        family_windows = ruleset.window_phases
        self._windows = _WINDOWS | family_windows if family_windows else _WINDOWS
        # Family hooks, bound once; ``None`` where the family keeps the shared behaviour (the
        # guobiao hot path then runs the shared code inline).
        hooks = ruleset.overrides
        self._win_hook = hooks.can_win
        self._claims_hook = hooks.claim_options
        self._chow_hook = hooks.chow_tiles
        self._flower_hook = hooks.playing_flower
        self._after_discard_hook = hooks.after_discard
        self._after_draw_hook = hooks.after_draw
        self._perform_hook = hooks.perform
        self._default_hook = hooks.default_move
        self._turn_hook = hooks.turn_actions
        self._before_draw_hook = hooks.before_draw
        self._exhausted_hook = hooks.on_exhausted
        self._auto_hook = hooks.auto_move
        self._accept_hook = hooks.accepts

    # ================================================================== construction
    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        *,
        seed: int | None = None,
        dealer: int = 0,
        round_wind: int = Tile.EAST,
        rng: random.Random | None = None,
        streak: int = 0,
    ) -> State:
        """A hand with its chance actions drawn from ``rng`` (default ``random.Random(seed)``),
        ready for the dealer's first decision."""
        state = cls(ruleset, dealer=dealer, round_wind=round_wind, streak=streak)
        state.seed = seed
        rng = rng if rng is not None else random.Random(seed)
        while state.actor == CHANCE:
            state.apply(state.sample_chance(rng))
        return state

    def clone(self) -> State:
        """An independent copy (bots use it to search or resample)."""
        new = object.__new__(State)
        new.__dict__.update(self.__dict__)
        new.hands = [list(h) for h in self.hands]
        new.melds = [list(m) for m in self.melds]
        new.meld_counts = [list(m) for m in self.meld_counts]
        new.discards = [list(d) for d in self.discards]
        new.claimed = [list(c) for c in self.claimed]
        new.flowers = [list(f) for f in self.flowers]
        new.visible = list(self.visible)
        new.wall = list(self.wall)
        for name in ("last_added", "ting", "tianting", "trustee", "timeouts"):
            setattr(new, name, list(getattr(self, name)))
        new.n_discards = list(self.n_discards)
        new.n_kongs = list(self.n_kongs)
        new.history = list(self.history)
        new._log = list(self._log)
        new._built = list(self._built)
        new._legal = None
        new.data = self.data.clone()
        return new

    # ================================================================== queries
    @property
    def is_terminal(self) -> bool:
        return self.phase is _END

    @property
    def in_window(self) -> bool:
        """Whether the seat to act answers a tile (a discard, a 加杠, a family's post-draw
        tile): with ``claim_privacy`` such a window opens whether or not he has a choice."""
        return self.phase in self._windows

    def current_player(self) -> int:
        """The seat to decide, ``CHANCE`` (-1) during the setup, ``TERMINAL`` (-2) at the end."""
        return TERMINAL if self.phase is _END else self.actor

    @property
    def wall_count(self) -> int:
        """Tiles left in the live wall."""
        return max(0, self.tail - self.head + 1) if self.wall else 0

    def concealed(self, player: int) -> tuple[Tile, ...]:
        h = self.hands[player]
        return tuple(_TILES[k] for k in range(NUM_KINDS) for _ in range(h[k]))

    def next_chance(self) -> ActionKind | None:
        plan = self.ruleset.chance_plan
        if self.phase is not _DEAL or self._chance_step >= len(plan):
            return None
        return plan[self._chance_step]

    def sample_chance(self, rng: random.Random) -> Action:
        """The next chance action, its outcome drawn from ``rng``."""
        kind = self.next_chance()
        if kind is None:
            raise IllegalActionError("no-chance-pending", "no chance action is due")
        return self.ruleset.sample_chance(self, kind, rng)

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The moves ``player`` (default: the one to act) may choose now; empty when it is not
        his decision.  Timeout, trustee and escape are system actions and never listed."""
        if self.phase is _END or self.actor == CHANCE:
            return []
        if player is not None and player != self.actor:
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return list(legal)

    def observe(self, player: int) -> Observation:
        from erren.engine.observation import observe  # noqa: PLC0415

        return observe(self, player)

    def record(self) -> Record:
        from erren.engine.record import Record  # noqa: PLC0415

        return Record.of(self)

    @property
    def event_count(self) -> int:
        return len(self._log)

    def events_since(self, viewer: int, seq: int = 0) -> list[Event]:
        """The events numbered ``seq`` and later, as ``viewer`` may see them."""
        return [e.seen_by(viewer) for e in self.events[seq:]]

    # ================================================================== legal moves
    def _generate(self) -> list[Action]:
        p = self.actor
        phase = self.phase
        if phase is _TURN:
            if self._turn_hook is not None:
                return self._turn_hook(self, p)
            return self.base_turn_actions(p)
        if phase is _CLAIM:
            return self._claim_actions(p, self.pending)
        if phase is _ROB:
            if self._privacy and not self._can_win(p, self.pending, "robbing"):
                return [_PASS[p]]
            return [_HU[p], _PASS[p]]
        return self.ruleset.phase_actions(self, p)

    def base_turn_actions(self, p: int) -> list[Action]:
        """The shared moves of ``p``'s ``TURN`` (§2.3): 自摸, kongs, discards (through the
        family's ``discard_filter``), 报听; a family's ``turn_actions`` starts from these."""
        h = self.hands[p]
        out: list[Action] = []
        free = self.origin is not _O_CLAIM
        if free and self._can_win(p, -1, "zimo"):
            out.append(_ZIMO[p])
        if self.ting[p]:  # only reached when a hu is offered and not taken automatically
            out.append(_DISCARD[p][self.last_added[p]])
            return out
        wall_ok = self.head <= self.tail
        kinds = self.ruleset.kinds
        held = [k for k in kinds if h[k]]
        if free and wall_ok:
            for k in held:
                if h[k] == 4:
                    out.append(_ANGANG[p][k])
            for m in self.melds[p]:
                if m.kind is MeldKind.PENG and h[m.tiles[0]]:
                    out.append(_JIAGANG[p][m.tiles[0]])
        held = self.ruleset.discard_filter(self, p, held)
        disc = _DISCARD[p]
        out += [disc[k] for k in held]
        if self.ruleset.ting_enabled and wall_ok:
            melds = self.melds[p]
            mask = ready_discards(h, len(melds), self.meld_counts[p] if melds else None, kinds)
            if mask:
                ting = _TING[p]
                for k in held:
                    if mask >> k & 1 and self._ting_fan_ok(p, k):
                        out.append(ting[k])
        return out

    def base_claim_options(self, q: int, x: int) -> list[Action]:
        """The shared claims of ``q`` on the discard ``x`` (§2.4): hu, 明杠, peng, chows, and
        ``pass`` when there is any; empty when none (a family's ``claim_options`` starts from
        these)."""
        out: list[Action] = []
        if self._can_win(q, x, "discard"):
            out.append(_HU[q])
        if not self.ting[q] and self.head <= self.tail:
            h = self.hands[q]
            c = h[x]
            if c == 3:
                out.append(_MINGGANG[q])
            if c >= 2:
                out.append(_PENG[q])
            if x < 27:
                r = x % 9
                chi = _CHI[q]
                if r >= 2 and h[x - 2] and h[x - 1]:
                    out.append(chi[x - 2])
                if 1 <= r <= 7 and h[x - 1] and h[x + 1]:
                    out.append(chi[x - 1])
                if r <= 6 and h[x + 1] and h[x + 2]:
                    out.append(chi[x])
        if out:
            out.append(_PASS[q])
        return out

    def _claim_actions(self, q: int, x: int) -> list[Action]:
        """What ``q`` may do with the discard ``x``: nothing (no window), or his claims and
        ``pass``; with ``claim_privacy`` always a window, ``pass`` alone if nothing else."""
        hook = self._claims_hook
        out = self.base_claim_options(q, x) if hook is None else hook(self, q, x)
        if not out and self._privacy:
            return [_PASS[q]]
        return out

    # ================================================================== wins
    def _can_win(self, p: int, tile: int, how: str) -> bool:
        """Shape (§3.1, §3.2) and 起和 (§3.5) of a win by ``p``; ``tile`` -1 = self-drawn."""
        if self._win_hook is not None:
            return self._win_hook(self, p, tile, how)
        return self.base_can_win(p, tile, how)

    def base_can_win(self, p: int, tile: int, how: str) -> bool:
        """The shared win test: the ruleset's ``complete`` shape, then ``min_fan``."""
        h = self.hands[p]
        if tile >= 0:
            h[tile] += 1
            ok = self._complete(h, len(self.melds[p]))
            h[tile] -= 1
        else:
            ok = self._complete(h, len(self.melds[p]))
        if not ok or self._min_fan <= 0:
            return ok
        value = self.ruleset.win_value(self, self.win_claim(p, tile, how))
        return value is None or value >= self.ruleset.min_fan

    def _ting_fan_ok(self, p: int, x: int) -> bool:
        """§3.4: some wait reaches ``min_fan`` as a 报听 win (discard or self-drawn)."""
        if self.ruleset.min_fan <= 0:
            return True
        from erren.engine.winning import waits_mask  # noqa: PLC0415

        h = self.hands[p]
        h[x] -= 1
        try:
            mask = waits_mask(h, len(self.melds[p]), self.meld_counts[p])
            for t in range(NUM_KINDS):
                if not mask >> t & 1:
                    continue
                hand = self._hand_with(p, t)
                for how in ("discard", "zimo"):
                    claim = WinClaim(p, how, hand, p == self.dealer, ting=True)
                    value = self.ruleset.win_value(self, claim)
                    if value is None or value >= self.ruleset.min_fan:
                        return True
            return False
        finally:
            h[x] += 1

    def _hand_with(self, p: int, tile: int) -> Hand:
        """``p``'s concealed 13-form plus the winning ``tile``."""
        h = self.hands[p]
        concealed = tuple(_TILES[k] for k in range(NUM_KINDS) for _ in range(h[k]))
        flowers = tuple(_TILES[f] for f in sorted(self.flowers[p]))
        return Hand(concealed, tuple(self.melds[p]), _TILES[tile], flowers)

    def win_claim(self, p: int, tile: int, how: str) -> WinClaim:
        """The win ``p`` would make now: on ``tile`` (a discard or robbed tile), or self-drawn
        (``tile`` -1: the tile last added, or none for a 天胡)."""
        dealer = p == self.dealer
        flowers = tuple(_TILES[f] for f in sorted(self.flowers[p]))
        h = self.hands[p]
        if how == "zimo":
            tianhu = self.origin is _O_DEAL
            win = -1 if tianhu else self.last_added[p]
            counts = list(h)
            if win >= 0:
                counts[win] -= 1
            concealed = tuple(_TILES[k] for k in range(NUM_KINDS) for _ in range(counts[k]))
            hand = Hand(concealed, tuple(self.melds[p]), None if win < 0 else _TILES[win], flowers)
            last_copy = win >= 0 and self.visible[win] == 3 and h[win] == 1
            return WinClaim(
                p,
                how,
                hand,
                dealer,
                kong_replacement=self.kong_draw and self.origin is _O_REPL,
                last_tile=self.head > self.tail,
                last_copy=last_copy,
                ting=self.ting[p],
                tianting=self.tianting[p],
                tianhu=tianhu,
                round_wind=self.round_wind,
            )
        concealed = tuple(_TILES[k] for k in range(NUM_KINDS) for _ in range(h[k]))
        hand = Hand(concealed, tuple(self.melds[p]), _TILES[tile], flowers)
        robbing = how == "robbing"
        d = 1 - p
        dihu = not robbing and d == self.dealer and self.n_discards[d] == 1 and self.n_kongs[d] == 0
        return WinClaim(
            p,
            how,
            hand,
            dealer,
            last_tile=not robbing and self.head > self.tail,
            last_copy=not robbing and self.visible[tile] - 1 == 3 and h[tile] == 0,
            ting=self.ting[p],
            tianting=self.tianting[p],
            dihu=dihu,
            round_wind=self.round_wind,
        )

    # ================================================================== apply
    def apply(self, action: Action) -> None:
        """Apply a player's choice or a chance outcome of the setup.  A move must be one of
        ``legal_actions(action.player)`` (of the seat to act); a system action (timeout,
        trustee, escape: see :meth:`apply_system`) or an illegal move raises
        :class:`~erren.errors.IllegalActionError` and leaves the state as it was."""
        kind = action.kind
        if self.phase is _END:
            raise IllegalActionError("hand-over", f"the hand is over; {action} is not allowed")
        if kind is AK.SHUFFLE or kind is AK.DICE or kind is AK.SEED:
            self._apply_chance(action)
            self.history.append(action)
            self._legal = None
            return
        if kind.is_system:
            raise IllegalActionError(
                "system-action",
                f"{action}: {kind.value} is not a move a player chooses; "
                "the table applies timeouts, 托管 and leaving",
            )
        p = self._seat(action)
        legal = self._legal
        if p != self.actor:
            legal = []
        elif legal is None:
            legal = self._legal = self._generate()
        for candidate in legal:
            if candidate is action:
                break
        else:
            accepts = self._accept_hook if p == self.actor else None
            if action not in legal and not (accepts is not None and accepts(self, action)):
                raise self._diagnose(action)
        self.timeouts[p] = 0
        self._perform(action, auto=False)
        self.history.append(action)
        self._legal = None
        self.run_auto()

    def apply_system(self, action: Action) -> None:
        """Apply what the table decides for a seat, never a player: ``timeout`` (the seat to
        act ran out of time: the engine plays the spec's default move), ``trustee:on|off``
        (托管) and ``escape`` (the seat left; the hand is aborted).  Anything else raises
        :class:`~erren.errors.IllegalActionError`."""
        kind = action.kind
        if not kind.is_system:
            raise IllegalActionError(
                "not-a-system-action",
                f"{action}: only timeout, trustee and escape are system actions",
            )
        if self.phase is _END:
            raise IllegalActionError("hand-over", f"the hand is over; {action} is not allowed")
        p = self._seat(action)
        if kind is AK.TRUSTEE:
            on = bool(action.data and action.data[0])
            self.trustee[p] = on
            self.timeouts[p] = 0
            self.emit(EventKind.TRUSTEE, p, data={"on": on})
        elif kind is AK.ESCAPE:
            self._escape(p)
        else:
            if p != self.actor:
                raise IllegalActionError(
                    "out-of-turn", f"{action}: seat {p} is not to act and has no running timer"
                )
            move = self._timeout_move(p)
            self.timeouts[p] += 1
            self.emit(EventKind.TIMEOUT, p, data={"move": str(move)})
            if self.timeouts[p] >= self.ruleset.auto_trustee_after and not self.trustee[p]:
                self.trustee[p] = True
                self.emit(EventKind.TRUSTEE, p, auto=True, data={"on": True})
            self._perform(move, auto=True)
        self.history.append(action)
        self._legal = None
        self.run_auto()

    def apply_recorded(self, action: Action) -> None:
        """Apply an action of a record (a replay): system actions through
        :meth:`apply_system`, everything else through :meth:`apply` (an older composite form
        as the family's ``steps_of``)."""
        if action.kind.is_system:
            self.apply_system(action)
        elif action.kind.is_chance:
            self.apply(action)
        else:
            for step in self.ruleset.steps_of(self, action):
                self.apply(step)

    def _seat(self, action: Action) -> int:
        """The seat an action is for, once the setup is over."""
        p = action.player
        if p not in (0, 1):
            raise IllegalActionError("no-such-seat", f"seat {p} does not exist")
        if self.actor == CHANCE:
            raise IllegalActionError("deal-not-done", "the setup (shuffle, deal) is not finished")
        return p

    def _diagnose(self, action: Action) -> IllegalActionError:
        """Name the rule an action breaks (it is known not to be legal), from the sender's own
        situation only: a seat not to act always gets the same answer, whatever the opponent
        holds or may do; the acting seat hears about its own tiles and choices."""
        kind, p = action.kind, action.player
        if p != self.actor:
            return IllegalActionError(
                "out-of-turn", f"{action}: it is not your turn; the opponent is deciding (§2.2)"
            )
        family = self.ruleset.diagnose(self, action)
        if family is not None:
            return family
        phase = self.phase
        if kind in _CLAIM_KINDS and phase not in (_CLAIM, _ROB):
            return IllegalActionError(
                "claim-window-closed", f"{action}: no claim window is open for you (§2.4)"
            )
        h = self.hands[p]
        t = -1 if action.tile is None else int(action.tile)
        if phase in (_CLAIM, _ROB) and kind in _TURN_KINDS:
            return IllegalActionError(
                "claim-or-pass", f"{action}: you may only claim or pass now (§2.4)"
            )
        if self.ting[p] and kind not in (AK.HU, AK.ZIMO, AK.PASS):
            return IllegalActionError(
                "ting-locked", f"{action}: the hand is locked after 报听 (§2.8)"
            )
        if kind in (AK.DISCARD, AK.TING) and (t < 0 or h[t] == 0):
            return IllegalActionError(
                "tile-not-held", f"{action}: you hold no {action.tile} (§2.3)"
            )
        if kind is AK.DISCARD:
            return IllegalActionError(
                "discard-not-allowed", f"{action}: this discard is not allowed now"
            )
        if kind is AK.TING:
            if not self.ruleset.ting_enabled:
                return IllegalActionError("ting-disabled", "报听 is switched off (§2.8)")
            if self.head > self.tail:
                return IllegalActionError("wall-empty", f"{action}: the wall is empty (§2.3)")
            return IllegalActionError(
                "not-ready", f"{action}: the 13 tiles left would not be ready (§3.4)"
            )
        if kind in (AK.AN_GANG, AK.JIA_GANG, AK.MING_GANG) and self.head > self.tail:
            return IllegalActionError("wall-empty", f"{action}: no kong on an empty wall (§1.7)")
        if kind in (AK.AN_GANG, AK.JIA_GANG) and self.origin is _O_CLAIM:
            return IllegalActionError(
                "discard-after-claim", f"{action}: after a chi or peng only a discard is allowed"
            )
        if kind in _KONG_NEEDS:
            code, text = _KONG_NEEDS[kind]
            return IllegalActionError(code, text.format(action=action, tile=action.tile))
        if kind in _CLAIM_NEEDS:
            code, text = _CLAIM_NEEDS[kind]
            return IllegalActionError(code, text.format(action=action, tile=_TILES[self.pending]))
        if kind in (AK.HU, AK.ZIMO):
            if kind is AK.ZIMO and self.origin is _O_CLAIM:
                return IllegalActionError(
                    "discard-after-claim", "no self-drawn win right after a chi or peng (§2.3)"
                )
            return IllegalActionError(
                "not-a-win", f"{action}: the hand does not win (shape §3 or 起和 §3.5)"
            )
        if kind in (AK.PENG, AK.MING_GANG, AK.CHI) and self.ting[p]:
            return IllegalActionError("ting-locked", "no claims after 报听 (§2.8)")
        return IllegalActionError("illegal", f"{action} is not legal now")

    # ================================================================== transitions
    def _perform(self, action: Action, *, auto: bool) -> None:
        if self._perform_hook is not None and self._perform_hook(self, action, auto):
            self._legal = None
            return
        kind = action.kind
        p = action.player
        if kind is AK.DISCARD or kind is AK.TING:
            self._discard(p, int(action.tile), kind is AK.TING, auto)  # type: ignore[arg-type]
        elif kind is AK.PASS:
            self.emit(EventKind.PASS, p, auto=auto)
            if self.phase is _ROB:
                self._complete_jia(1 - p)
            else:
                self.next_draw(p)
        elif kind is AK.CHI or kind is AK.PENG or kind is AK.MING_GANG:
            self._claim(p, kind, -1 if action.tile is None else int(action.tile), auto)
        elif kind is AK.HU:
            how = "robbing" if self.phase is _ROB else "discard"
            self.win(p, self.pending, how, auto)
        elif kind is AK.ZIMO:
            self.win(p, -1, "zimo", auto)
        elif kind is AK.AN_GANG:
            self._an_gang(p, int(action.tile), auto)  # type: ignore[arg-type]
        elif kind is AK.JIA_GANG:
            self._jia_gang(p, int(action.tile), auto)  # type: ignore[arg-type]
        else:  # pragma: no cover - apply() routes every other kind
            raise AssertionError(kind)
        self._legal = None

    def emit(
        self,
        kind: EventKind,
        player: int,
        tile: int = -1,
        *,
        tiles: tuple[int, ...] = (),
        private: bool = False,
        auto: bool = False,
        data: EventData = NO_EVENT_DATA,
    ) -> None:
        """Log an event (kind, seat or -1, tile or -1, tiles; ``private``: only ``player``
        sees the tiles; ``auto``: the engine moved for him; ``data``: the kind's fields, see
        :data:`~erren.engine.events.EVENT_DATA`).  A raw tuple on the hot path; :attr:`events`
        builds the Event values on demand."""
        self._log.append((kind, player, tile, tiles, private, auto, data))

    @property
    def events(self) -> list[Event]:
        """Every event so far, numbered from 0 (see :meth:`events_since` for one viewer)."""
        built = self._built
        log = self._log
        for i in range(len(built), len(log)):
            kind, player, tile, tiles, private, auto, data = log[i]
            built.append(
                Event(
                    i,
                    kind,
                    player,
                    None if tile < 0 else _TILES[tile],
                    tuple(_TILES[t] for t in tiles),
                    private,
                    auto,
                    data,
                )
            )
        return list(built)

    def _apply_chance(self, action: Action) -> None:
        expected = self.next_chance()
        if expected is None or action.kind is not expected:
            raise IllegalActionError(
                "chance-out-of-order",
                f"{action.kind.value} is not due (expected {expected and expected.value})",
            )
        if action.kind is AK.SHUFFLE:
            if sorted(action.data) != sorted(self.ruleset.tiles):
                raise IllegalActionError(
                    "not-a-shuffle", "the wall is not a permutation of the ruleset's tiles (§1.4)"
                )
            self.wall = list(action.data)
            self.head, self.tail = 0, len(self.wall) - 1
            self.emit(EventKind.SHUFFLE, NOBODY, private=True, data={"count": len(self.wall)})
        elif action.kind is AK.DICE:
            if not action.data or any(not 1 <= v <= 6 for v in action.data):
                raise IllegalActionError("not-dice", "dice show 1..6")
            self.dice = tuple(action.data)
            self.emit(EventKind.DICE, -1, data={"dice": tuple(self.dice)})
        elif action.kind is AK.SEED and (len(action.data) != 1 or action.data[0] < 0):
            raise IllegalActionError("not-a-seed", "an event seed is one whole number ≥ 0")
        self._chance_step += 1
        self.ruleset.after_chance(self, action, self._chance_step)

    def deal(self) -> None:
        """§1.5 dealing order, the initial 补花 of §1.6, then TURN(dealer, deal)."""
        if self.deal_tiles():
            self.start_play()

    def deal_tiles(self) -> bool:
        """The deal (27 tiles, 4-4-4-1-1-1 from the front) and the opening 补花, dealer first;
        ``False`` if the wall ran out (the hand is then over)."""
        d, n = self.dealer, 1 - self.dealer
        wall = self.wall
        got: list[list[int]] = [[], []]
        for who, start, size in (
            (d, 0, 4),
            (n, 4, 4),
            (d, 8, 4),
            (n, 12, 4),
            (d, 16, 4),
            (n, 20, 4),
            (d, 24, 1),
            (n, 25, 1),
            (d, 26, 1),
        ):
            got[who].extend(wall[start : start + size])
        self.head = 27
        fk = -1 if self._flower_hook is None else self._flower_hook(self)
        for p in (d, n):
            h = self.hands[p]
            for t in got[p]:
                if t < NUM_KINDS and t != fk:
                    h[t] += 1
                    self.last_added[p] = t
            self.emit(EventKind.DEAL, p, tiles=tuple(sorted(got[p])), private=True)
        for p in (d, n):
            for t in got[p]:
                if t >= NUM_KINDS or t == fk:
                    self.flowers[p].append(t)
                    self.emit(EventKind.FLOWER, p, t, data={"during": "deal"})
                    if not self.draw(p, back=True, kong=False):
                        return False
        return True

    def start_play(self) -> None:
        """The dealer's first decision: TURN(dealer, deal)."""
        self.enter(_TURN, self.dealer, _O_DEAL)
        self.run_auto()

    def enter(self, phase: Phase | FamilyPhase, actor: int, origin: Origin | None = None) -> None:
        """Make ``actor`` decide in ``phase`` (``origin``: how his last tile came, in a turn)."""
        self.phase = phase
        self.actor = actor
        self.origin = origin
        self._legal = None

    def draw(self, p: int, *, back: bool, kong: bool, exhaust: bool = True) -> bool:
        """Draw for ``p`` with flower replacement (§1.6); ``False`` if the wall ran out (荒庄,
        unless ``exhaust`` is off: then the caller decides what an empty wall means)."""
        wall = self.wall
        fk = -1 if self._flower_hook is None else self._flower_hook(self)
        while True:
            if self.head > self.tail:
                if exhaust:
                    self._end_draw()
                return False
            if back:
                t = wall[self.tail]
                self.tail -= 1
            else:
                t = wall[self.head]
                self.head += 1
            if t >= NUM_KINDS or t == fk:
                self.flowers[p].append(t)
                self.emit(EventKind.FLOWER, p, t, data={"during": "draw"})
                back = True
                kong = self.ruleset.flower_replacement_is_kong
                continue
            self.hands[p][t] += 1
            self.last_added[p] = t
            self.kong_draw = kong
            self.drew_back = back
            self.emit(
                EventKind.DRAW, p, t, private=True, data={"from": "back" if back else "front"}
            )
            return True

    def _discard(self, p: int, x: int, ting: bool, auto: bool) -> None:
        if ting:
            self.ting[p] = True
            if p == self.dealer:
                tian = self.n_discards[p] == 0 and self.n_kongs[p] == 0
            else:
                tian = (
                    self.n_discards[p] == 0
                    and self.origin is _O_DRAW
                    and not self.melds[p]
                    and x == self.last_added[p]
                )
            self.tianting[p] = tian
        self.hands[p][x] -= 1
        self.discards[p].append(x)
        self.visible[x] += 1
        self.n_discards[p] += 1
        self.emit(
            EventKind.TING if ting else EventKind.DISCARD,
            p,
            x,
            auto=auto,
            data=NO_EVENT_DATA if ting else {"why": "turn"},
        )
        if self._after_discard_hook is not None:
            self._after_discard_hook(self, p, x)
        q = 1 - p
        self.pending = x
        options = self._claim_actions(q, x)
        if options:
            self.enter(_CLAIM, q)
            self._legal = options
        else:
            self.next_draw(q)

    def next_draw(self, q: int) -> None:
        """No claim on the discard: 荒庄 on an empty wall (§1.8), else ``q``'s normal draw
        (unless the family's ``before_draw`` takes over) and turn."""
        self.pending = -1
        if self.head > self.tail:
            self._end_draw()
            return
        if self._before_draw_hook is not None and self._before_draw_hook(self, q):
            return
        if self.draw(q, back=False, kong=False):  # draw_turn, inline on the hot path
            self._turn_after_draw(q, _O_DRAW)

    def draw_turn(self, q: int) -> None:
        """``q`` draws from the front of the wall and takes his turn (``after_draw`` runs)."""
        if self.draw(q, back=False, kong=False):
            self._turn_after_draw(q, _O_DRAW)

    def _turn_after_draw(self, p: int, origin: Origin) -> None:
        self.phase = _TURN  # enter(), inline on the hot path
        self.actor = p
        self.origin = origin
        self._legal = None
        if self._after_draw_hook is not None:
            self._after_draw_hook(self, p)

    def _claim(self, q: int, kind: ActionKind, start: int, auto: bool) -> None:
        x = self.pending
        p = 1 - q
        h = self.hands[q]
        mc = self.meld_counts[q]
        self.claimed[p].append(len(self.discards[p]) - 1)
        tx = _TILES[x]
        if kind is AK.CHI:
            run = (start, start + 1, start + 2)
            if self._chow_hook is not None:  # the family's physical tiles (xiamen's White)
                run = self._chow_hook(self, start)
            for t in run:
                if t != x:
                    h[t] -= 1
                    self.visible[t] += 1
                mc[t] += 1
            meld = Meld(MeldKind.CHI, tuple(_TILES[t] for t in run), tx)
        elif kind is AK.PENG:
            h[x] -= 2
            self.visible[x] += 2
            mc[x] += 3
            meld = Meld(MeldKind.PENG, (tx, tx, tx), tx)
        else:
            h[x] -= 3
            self.visible[x] += 3
            mc[x] += 4
            meld = Meld(MeldKind.MING_GANG, (tx, tx, tx, tx), tx)
        self.melds[q].append(meld)
        self.pending = -1
        self.emit(EventKind(kind.value), q, tiles=tuple(meld.tiles), auto=auto)
        if kind is AK.MING_GANG:
            self.n_kongs[q] += 1
            self._replacement(q)
        else:
            self.phase = _TURN
            self.actor = q
            self.origin = _O_CLAIM

    def _replacement(self, p: int) -> None:
        if self.draw(p, back=True, kong=True):
            self._turn_after_draw(p, _O_REPL)

    def _an_gang(self, p: int, k: int, auto: bool) -> None:
        self.hands[p][k] -= 4
        self.meld_counts[p][k] += 4
        tk = _TILES[k]
        self.melds[p].append(Meld(MeldKind.AN_GANG, (tk, tk, tk, tk), None))
        self.n_kongs[p] += 1
        self.emit(EventKind.AN_GANG, p, k, private=True, auto=auto)
        self._replacement(p)

    def _jia_gang(self, p: int, k: int, auto: bool) -> None:
        self.hands[p][k] -= 1
        self.pending = k
        self.emit(EventKind.JIA_GANG, p, k, auto=auto)
        q = 1 - p
        if self._privacy or self._can_win(q, k, "robbing"):
            self.enter(_ROB, q)
        else:
            self._complete_jia(p)

    def _complete_jia(self, p: int) -> None:
        k = self.pending
        tk = _TILES[k]
        melds = self.melds[p]
        for i, m in enumerate(melds):
            if m.kind is MeldKind.PENG and m.tiles[0] == k:
                melds[i] = Meld(MeldKind.JIA_GANG, (tk, tk, tk, tk), m.claimed)
                break
        self.meld_counts[p][k] += 1
        self.visible[k] += 1
        self.n_kongs[p] += 1
        self.pending = -1
        self._replacement(p)

    def win(self, p: int, tile: int, how: str, auto: bool) -> None:
        """End the hand with ``p``'s win by ``how`` (``discard``, ``robbing``: on ``tile``;
        ``zimo``: ``tile`` -1), scored by the family."""
        claim = self.win_claim(p, tile, how)
        if how != "zimo":
            self.hands[p][tile] += 1
            if how == "discard":  # the winning discard leaves the pool for the winner's hand
                self.claimed[1 - p].append(len(self.discards[1 - p]) - 1)
        result = self.ruleset.score_win(self, claim)
        self.emit(
            EventKind.ZIMO if how == "zimo" else EventKind.HU, p, tile, auto=auto, data={"how": how}
        )
        self.end(result)

    def _end_draw(self) -> None:
        if self._exhausted_hook is not None and self._exhausted_hook(self):
            return
        self.emit(EventKind.HUANGZHUANG, -1)
        self.end(HandResult("draw"))

    def _escape(self, p: int) -> None:
        penalty = self.ruleset.escape_penalty()
        deltas = (-penalty, penalty) if p == 0 else (penalty, -penalty)
        result = HandResult("abort", winner=None, loser=p, points=penalty, deltas=deltas)
        self.emit(EventKind.ESCAPE, p)
        self.end(result)

    def end(self, result: HandResult) -> None:
        """End the hand with ``result`` (the ``end`` event follows the events already emitted
        for it)."""
        self.result = result
        self.phase = _END
        self.actor = TERMINAL
        self.pending = -1
        self._legal = None
        self.emit(EventKind.END, -1, data={"result": self.result.kind if self.result else ""})

    # ================================================================== auto-play
    def _default_discard(self, p: int) -> int:
        """§2.9: the tile most recently added; after a claim, the highest-index tile."""
        h = self.hands[p]
        last = self.last_added[p]
        if self.origin is not _O_CLAIM and last >= 0 and h[last]:
            return last
        for k in range(NUM_KINDS - 1, -1, -1):
            if h[k]:
                return k
        raise AssertionError("a player in TURN holds tiles")

    def _timeout_move(self, p: int) -> Action:
        if self._default_hook is not None:
            return self._default_hook(self, p)
        return self.base_default_move(p)

    def base_default_move(self, p: int) -> Action:
        """§2.9: the shared default move when ``p``'s timer runs out."""
        if self.phase is _TURN:
            if self.ting[p]:  # an offered hu under 报听 (ting_auto_hu off): no answer = yes
                return _ZIMO[p]
            return _DISCARD[p][self._default_discard(p)]
        if self.ting[p] and self.phase in (_CLAIM, _ROB) and _HU[p] in self.legal_actions(p):
            return _HU[p]
        return _PASS[p]

    def _auto_move(self, p: int) -> Action | None:
        """The move auto-play makes for ``p`` now, or ``None`` when ``p`` decides himself."""
        ting = self.ting[p]
        trustee = self.trustee[p]
        if not ting and not trustee:
            return None
        if self._auto_hook is not None:
            return self._auto_hook(self, p)
        return self.base_auto_move(p)

    def base_auto_move(self, p: int) -> Action | None:
        """The shared move of 报听 (§2.8) or 托管 (§2.9) auto-play for ``p`` (in one of them),
        or ``None`` when ``p`` decides himself (a hu offer under 报听 with ting_auto_hu off)."""
        ting = self.ting[p]
        trustee = self.trustee[p]
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        take_hu = trustee or self.ruleset.ting_auto_hu
        if self.phase is _TURN:
            if legal and legal[0].kind is AK.ZIMO:
                return legal[0] if take_hu else None
            if ting:
                return _DISCARD[p][self.last_added[p]]
            return _DISCARD[p][self._default_discard(p)]
        if legal and legal[0].kind is AK.HU:
            return legal[0] if take_hu else None
        return _PASS[p]

    def run_auto(self) -> None:
        """Let 报听 and 托管 auto-play move for the seat to act, as long as it decides for
        him (call after entering a phase a seat in auto-play may be in)."""
        while self.phase is not _END and self.actor >= 0:
            a = self.actor
            if not self.ting[a] and not self.trustee[a]:
                return
            move = self._auto_move(a)
            if move is None:
                return
            if (
                self._privacy
                and move.kind is AK.PASS
                and not self.trustee[a]
                and self.phase in self._windows
            ):
                return  # 鸣牌保护: the seat answers the window himself (the table passes it)
            self._perform(move, auto=True)

    # ================================================================== comparison
    def fingerprint(self) -> tuple[object, ...]:
        """Everything that defines the state, for exact-replay checks."""
        return (
            self.phase,
            self.actor,
            self.origin,
            self.pending,
            tuple(self.wall),
            self.head,
            self.tail,
            tuple(tuple(h) for h in self.hands),
            tuple(tuple(m) for m in self.melds),
            tuple(tuple(d) for d in self.discards),
            tuple(tuple(c) for c in self.claimed),
            tuple(tuple(f) for f in self.flowers),
            self.streak,
            tuple(self.ting),
            tuple(self.tianting),
            tuple(self.trustee),
            tuple(self.timeouts),
            tuple(self._log),
            self.result,
            self.data.fingerprint(),
        )

    def __repr__(self) -> str:
        who = {CHANCE: "chance", TERMINAL: "-"}.get(self.actor, str(self.actor))
        return (
            f"<State {self.ruleset.name} {self.phase.value} actor={who} "
            f"wall={self.wall_count} actions={len(self.history)}>"
        )
