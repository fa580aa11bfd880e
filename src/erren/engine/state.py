"""The hand's state machine (guobiao-2p §2): one writer, validated actions, exact replays.

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

The rooms of the hand: :mod:`~erren.engine.phases` (the phases, origins and family data),
:mod:`~erren.engine.board` (the fields, queries and event log State inherits),
:mod:`~erren.engine.transitions` (the tile-moving transitions State inherits: phases, draws,
claimed melds, kongs, the end), here the doors and the hot path (legal-move dispatch,
discards, wins, auto-play), and functions of the state for the rest:
:mod:`~erren.engine.moves` (the shared TURN moves and claims), :mod:`~erren.engine.wins` (the
win claim, the 报听 起和 test),
:mod:`~erren.engine.refusals` (why a move is refused), :mod:`~erren.engine.autoplay` (the
default and auto-play moves), :mod:`~erren.engine.setup` (the chance actions and the deal).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from erren.engine import autoplay, moves, refusals, setup, wins
from erren.engine.actions import CHANCE, Action, ActionKind
from erren.engine.events import NO_DATA as NO_EVENT_DATA
from erren.engine.events import EventKind
from erren.engine.phases import NO_DATA, TERMINAL, FamilyData, FamilyPhase, Origin, Phase
from erren.engine.result import AnyWinHow, HandResult, ResultKind, WinClaim, WinHow
from erren.engine.transitions import Transitions
from erren.errors import IllegalActionError
from erren.tiles import Tile

if TYPE_CHECKING:
    from erren.engine.family import Family
    from erren.engine.observation import Observation
    from erren.engine.record import Record

__all__ = [
    "NO_DATA",
    "TERMINAL",
    "AnyWinHow",
    "FamilyData",
    "FamilyPhase",
    "HandResult",
    "Origin",
    "Phase",
    "ResultKind",
    "State",
    "WinClaim",
    "WinHow",
]

_TURN, _CLAIM, _ROB, _END = Phase.TURN, Phase.CLAIM, Phase.ROB, Phase.END
_O_DEAL, _O_DRAW = Origin.DEAL, Origin.DRAW
_ZIMO, _DISCARD, _ROBBING = WinHow.ZIMO, WinHow.DISCARD, WinHow.ROBBING

AK = ActionKind
_HU = tuple(Action.make(AK.HU, p) for p in (0, 1))
_PASS = tuple(Action.make(AK.PASS, p) for p in (0, 1))


class State(Transitions):
    """One hand.  Build with :meth:`State.new` (chance from a seed) or ``State(ruleset)`` and
    apply the chance actions yourself (replays do).

    The family's hooks (:class:`~erren.engine.family.Family`) change the hand only through
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
    * :meth:`can_win` (the family's win test: its hook, else the shared one) and
      :meth:`win_claim` (the win a seat would make now), queries for the hooks;
    * ``data``: the family's own per-hand :class:`FamilyData`.
    """

    # ================================================================== construction
    @classmethod
    def new(
        cls,
        ruleset: Family,
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

    # ================================================================== queries
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

    # ================================================================== legal moves
    def _generate(self) -> list[Action]:
        p = self.actor
        phase = self.phase
        if phase is _TURN:
            if self._turn_hook is not None:
                return self._turn_hook(self, p)
            return moves.turn_actions(self, p)
        if phase is _CLAIM:
            return self._claim_actions(p, self.pending)
        if phase is _ROB:
            if self._privacy and not self.can_win(p, self.pending, _ROBBING):
                return [_PASS[p]]
            return [_HU[p], _PASS[p]]
        return self.ruleset.phase_actions(self, p)

    def base_turn_actions(self, p: int) -> list[Action]:
        """The shared moves of ``p``'s ``TURN`` (§2.3): 自摸, kongs, discards (through the
        family's ``discard_filter``), 报听; a family's ``turn_actions`` starts from these."""
        return moves.turn_actions(self, p)

    def base_claim_options(self, q: int, x: int) -> list[Action]:
        """The shared claims of ``q`` on the discard ``x`` (§2.4): hu, 明杠, peng, chows, and
        ``pass`` when there is any; empty when none (a family's ``claim_options`` starts from
        these)."""
        return moves.claim_options(self, q, x)

    def _claim_actions(self, q: int, x: int) -> list[Action]:
        """What ``q`` may do with the discard ``x``: nothing (no window), or his claims and
        ``pass``; with ``claim_privacy`` always a window, ``pass`` alone if nothing else."""
        hook = self._claims_hook
        out = moves.claim_options(self, q, x) if hook is None else hook(self, q, x)
        if not out and self._privacy:
            return [_PASS[q]]
        return out

    # ================================================================== wins
    def can_win(self, p: int, tile: int, how: AnyWinHow) -> bool:
        """Whether ``p`` wins now by the family's rules (its ``can_win`` hook, else
        :meth:`base_can_win`): shape (§3.1, §3.2) and 起和 (§3.5); ``tile`` -1 = self-drawn."""
        if self._win_hook is not None:
            return self._win_hook(self, p, tile, how)
        return self.base_can_win(p, tile, how)

    def base_can_win(self, p: int, tile: int, how: AnyWinHow) -> bool:
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
        value = self.ruleset.win_value(self, wins.win_claim(self, p, tile, how))
        return value is None or value >= self.ruleset.min_fan

    def win_claim(self, p: int, tile: int, how: AnyWinHow) -> WinClaim:
        """The win ``p`` would make now: on ``tile`` (a discard or robbed tile), or self-drawn
        (``tile`` -1: the tile last added, or none for a 天胡); see :mod:`~erren.engine.wins`."""
        return wins.win_claim(self, p, tile, how)

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
                raise refusals.diagnose(self, action)
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

    # ================================================================== transitions
    def _perform(self, action: Action, *, auto: bool) -> None:
        if self._perform_hook is not None and self._perform_hook(self, action, auto):
            self._legal = None
            return
        kind = action.kind
        p = action.player
        if kind is AK.DISCARD or kind is AK.TING:
            self._discard(p, action.tile_kind(), kind is AK.TING, auto)
        elif kind is AK.PASS:
            self.emit(EventKind.PASS, p, auto=auto)
            if self.phase is _ROB:
                self._complete_jia(1 - p)
            else:
                self.next_draw(p)
        elif kind is AK.CHI or kind is AK.PENG or kind is AK.MING_GANG:
            self._claim(p, kind, -1 if action.tile is None else int(action.tile), auto)
        elif kind is AK.HU:
            how = _ROBBING if self.phase is _ROB else _DISCARD
            self.win(p, self.pending, how, auto)
        elif kind is AK.ZIMO:
            self.win(p, -1, _ZIMO, auto)
        elif kind is AK.AN_GANG:
            self._an_gang(p, action.tile_kind(), auto)
        elif kind is AK.JIA_GANG:
            self._jia_gang(p, action.tile_kind(), auto)
        else:  # pragma: no cover - apply() routes every other kind
            raise AssertionError(kind)
        self._legal = None

    def _apply_chance(self, action: Action) -> None:
        setup.lay_chance(self, action)
        self._chance_step += 1
        self.ruleset.after_chance(self, action, self._chance_step)

    def deal(self) -> None:
        """§1.5 dealing order, the initial 补花 of §1.6, then TURN(dealer, deal)."""
        if self.deal_tiles():
            self.start_play()

    def deal_tiles(self) -> bool:
        """The deal (27 tiles, 4-4-4-1-1-1 from the front) and the opening 补花, dealer first;
        ``False`` if the wall ran out (the hand is then over).  See :mod:`~erren.engine.setup`."""
        fk = -1 if self._flower_hook is None else self._flower_hook(self)
        return setup.deal_tiles(self, fk)

    def start_play(self) -> None:
        """The dealer's first decision: TURN(dealer, deal)."""
        self.enter(_TURN, self.dealer, _O_DEAL)
        self.run_auto()

    def _discard(self, p: int, x: int, ting: bool, auto: bool) -> None:
        if ting:
            self.ting[p] = True
            self.ting_at[p] = len(self.discards[p])
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

    def win(self, p: int, tile: int, how: AnyWinHow, auto: bool) -> None:
        """End the hand with ``p``'s win by ``how`` (``discard``, ``robbing``: on ``tile``;
        ``zimo``: ``tile`` -1), scored by the family (see :func:`~erren.engine.wins.finish_win`)."""
        wins.finish_win(self, p, tile, how, auto)

    # ================================================================== auto-play
    def _timeout_move(self, p: int) -> Action:
        if self._default_hook is not None:
            return self._default_hook(self, p)
        return self.base_default_move(p)

    def base_default_move(self, p: int) -> Action:
        """§2.9: the shared default move when ``p``'s timer runs out (a family's
        ``default_move`` extends it; see :mod:`~erren.engine.autoplay`)."""
        return autoplay.default_move(self, p)

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
        or ``None`` when ``p`` decides himself (a hu offer under 报听 with ting_auto_hu off);
        see :mod:`~erren.engine.autoplay`."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return autoplay.auto_move(self, p, legal)

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
