"""The transitions that move tiles and end the hand: entering a phase, draws with flower
replacement (§1.6) and the turn after a draw, the flow after a passed discard, claimed melds
(§2.4), concealed and added kongs with the 抢杠 window and the replacement draw, 荒庄 (§1.8),
escape and the end.

:class:`Transitions` sits between :class:`~erren.engine.board.Board` (the fields) and
:class:`~erren.engine.state.State` (the doors ``apply``/``apply_system``, legal moves, discards
and auto-play); State inherits these methods, so the hot path calls them as before, with no
indirection.  ``enter``, ``draw``, ``draw_turn``, ``next_draw`` and ``end`` are part of the
transition API the families' hooks use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.engine.actions import ActionKind
from erren.engine.board import Board
from erren.engine.events import EventKind
from erren.engine.phases import TERMINAL, FamilyPhase, Origin, Phase
from erren.engine.result import AnyWinHow, HandResult, ResultKind, WinHow
from erren.melds import Meld, MeldKind
from erren.tiles import NUM_KINDS, Tile

__all__ = ["Transitions"]

_TURN, _ROB, _END = Phase.TURN, Phase.ROB, Phase.END
_O_DRAW, _O_REPL, _O_CLAIM = Origin.DRAW, Origin.REPLACEMENT, Origin.CLAIM
_ROBBING = WinHow.ROBBING

AK = ActionKind
_TILES = tuple(Tile(i) for i in range(42))


class Transitions(Board):
    """The tile-moving transitions of a hand; :class:`~erren.engine.state.State` adds the
    doors, the legal moves, discards, wins and auto-play.

    Every instance is a State (this class is only its base), so the family's hooks, typed on
    State, are called with ``self``: the ``type: ignore[arg-type]`` on those calls says so
    without a cast on the hot path."""

    if TYPE_CHECKING:

        def can_win(self, p: int, tile: int, how: AnyWinHow) -> bool:
            """The family's win test (defined by :class:`~erren.engine.state.State`)."""
            ...

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
        fk = -1 if self._flower_hook is None else self._flower_hook(self)  # type: ignore[arg-type]
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

    def next_draw(self, q: int) -> None:
        """No claim on the discard: 荒庄 on an empty wall (§1.8), else ``q``'s normal draw
        (unless the family's ``before_draw`` takes over) and turn."""
        self.pending = -1
        if self.head > self.tail:
            self._end_draw()
            return
        if self._before_draw_hook is not None and self._before_draw_hook(self, q):  # type: ignore[arg-type]
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
            self._after_draw_hook(self, p)  # type: ignore[arg-type]

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
                run = self._chow_hook(self, start)  # type: ignore[arg-type]
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
        if self._privacy or self.can_win(q, k, _ROBBING):
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

    def _end_draw(self) -> None:
        if self._exhausted_hook is not None and self._exhausted_hook(self):  # type: ignore[arg-type]
            return
        self.emit(EventKind.HUANGZHUANG, -1)
        self.end(HandResult(ResultKind.DRAW))

    def _escape(self, p: int) -> None:
        penalty = self.ruleset.escape_penalty()
        deltas = (-penalty, penalty) if p == 0 else (penalty, -penalty)
        result = HandResult(ResultKind.ABORT, winner=None, loser=p, points=penalty, deltas=deltas)
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
