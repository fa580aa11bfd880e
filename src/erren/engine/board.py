"""What lies on the table during a hand: the tiles of both seats, the wall, the pools, the flags
of 报听/托管/timeouts, the family's data and the event log, with the read-only queries on them.

:class:`Board` is the base of :class:`~erren.engine.state.State` (through
:class:`~erren.engine.transitions.Transitions`), which adds the transitions (the only writer).
Inside, everything is ints: 34-long count arrays per player, the wall as a list of tile ids with
``head``/``tail`` pointers.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Any, Self

from erren.engine.actions import CHANCE, Action, ActionKind
from erren.engine.events import NO_DATA as NO_EVENT_DATA
from erren.engine.events import AnyEventKind, Event, EventData
from erren.engine.phases import TERMINAL, FamilyData, FamilyPhase, Origin, Phase
from erren.engine.result import HandResult
from erren.errors import IllegalActionError
from erren.melds import Meld
from erren.tiles import NUM_KINDS, Tile

if TYPE_CHECKING:
    from erren.engine.family import Family

__all__ = ["Board"]

_DEAL, _END = Phase.DEAL, Phase.END
_TILES = tuple(Tile(i) for i in range(42))
_COPIES: dict[tuple[int, int], tuple[Tile, ...]] = {
    (k, n): (_TILES[k],) * n for k in range(len(_TILES)) for n in range(9)
}
"""``(kind, count)`` → that many copies of the tile: a concealed hand from its counts."""
_WINDOWS: frozenset[Phase | FamilyPhase] = frozenset({Phase.CLAIM, Phase.ROB})
"""Windows in which one seat answers a tile (a discard, a 加杠; the families add their
post-draw windows): with ``claim_privacy`` they open whether or not he has a choice, and 报听
auto-play does not pass them."""


class Board:
    """The fields of one hand, the queries on them and its event log (:meth:`emit` appends);
    :class:`~erren.engine.state.State` adds the transitions that change them."""

    def __init__(  # noqa: PLR0915 - one assignment per field of the state, nothing to split
        self,
        ruleset: Family,
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
        self.ting_at = [-1, -1]  # each seat's 报听 discard: its index in his discards (-1: none)
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
        self._shown: list[tuple[tuple[int, ...], tuple[Tile, ...]]] = [((), ()), ((), ())]
        """Each seat's last :meth:`concealed` answer and the counts it was made from."""
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

    # ================================================================== copies
    def clone(self) -> Self:
        """An independent copy (bots use it to search or resample)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.hands = [list(h) for h in self.hands]
        new.melds = [list(m) for m in self.melds]
        new.meld_counts = [list(m) for m in self.meld_counts]
        new.discards = [list(d) for d in self.discards]
        new.claimed = [list(c) for c in self.claimed]
        new.flowers = [list(f) for f in self.flowers]
        new.visible = list(self.visible)
        new._shown = list(self._shown)
        new.wall = list(self.wall)
        for name in ("last_added", "ting", "tianting", "ting_at", "trustee", "timeouts"):
            setattr(new, name, list(getattr(self, name)))
        new.n_discards = list(self.n_discards)
        new.n_kongs = list(self.n_kongs)
        new.history = list(self.history)
        new._log = list(self._log)
        new._built = list(self._built)
        new._legal = None
        new.data = self.data.clone()
        return new

    def reset_legal(self) -> None:
        """Forget the cached legal moves (after a hand or the wall was changed from outside
        the transitions, as :func:`~erren.engine.resample.resample` does)."""
        self._legal = None

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
        """The seat's concealed tiles, sorted.  Remembered per seat: the server observes both
        seats after every move, and a hand changes only on its owner's moves."""
        counts = tuple(self.hands[player])
        shown = self._shown[player]
        if shown[0] == counts:
            return shown[1]
        tiles = tuple(chain.from_iterable(map(_COPIES.__getitem__, enumerate(counts))))
        self._shown[player] = (counts, tiles)
        return tiles

    def next_chance(self) -> ActionKind | None:
        """The chance action due next in the setup, or ``None``."""
        plan = self.ruleset.chance_plan
        if self.phase is not _DEAL or self._chance_step >= len(plan):
            return None
        return plan[self._chance_step]

    def _seat(self, action: Action) -> int:
        """The seat an action is for, once the setup is over."""
        p = action.player
        if p not in (0, 1):
            raise IllegalActionError("no-such-seat", f"seat {p} does not exist")
        if self.actor == CHANCE:
            raise IllegalActionError("deal-not-done", "the setup (shuffle, deal) is not finished")
        return p

    @property
    def event_count(self) -> int:
        return len(self._log)

    def events_since(self, viewer: int, seq: int = 0) -> list[Event]:
        """The events numbered ``seq`` and later, as ``viewer`` may see them."""
        return [e.seen_by(viewer) for e in self.events[seq:]]

    # ================================================================== events
    def emit(
        self,
        kind: AnyEventKind,
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
