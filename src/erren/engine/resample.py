"""Determinization: a full :class:`~erren.engine.state.State` built from one player's
:class:`~erren.engine.observation.Observation`, the tiles he cannot see drawn at random.

Monte-Carlo bots value a decision by sampling the hidden information (OpenSpiel's "resample
the unseen state"): the opponent's concealed tiles, the kinds of his face-down 暗杠, the wall
order and the family's hidden data (arcade's reserve) are drawn uniformly from the *unseen*
tiles — the ruleset's tile multiset minus everything the player sees.  The function never
receives the true state, so nothing hidden can leak into the sample.

>>> import random
>>> from erren.engine import State, find_family
>>> rules = find_family("guobiao-2p")
>>> state = State.new(rules, seed=3)
>>> obs = state.observe(state.actor)
>>> twin = resample(rules, obs, random.Random(1))
>>> twin.observe(obs.player).hand == obs.hand, twin.legal_actions() == state.legal_actions()
(True, True)

What the sample reproduces: every field of ``twin.observe(player)`` except ``event_seq`` (the
sample has no event log: its events start at 0) — so also ``legal_actions`` of the acting
player.  What it cannot know from the observation and sets by convention:

* ``timeouts`` are 0 and ``history`` is empty;
* ``kong_draw`` (杠上开花): a replacement draw counts as a kong's unless the ruleset has flowers
  and does not count their replacements as kongs, in which case it is a kong's only if the
  player just made one (his last meld is a kong) — an approximation when both happened;
* ``tianting`` (天听): true when the 报听 discard was the seat's first discard (``ting_at`` 0);
* ``last_added`` of a seat whose observation shows no drawn tile: a kind he holds (the drawn
  tile of the opponent's turn is one of his tiles, at random).

Where the flow itself tells something about the opponent's hand, the sample agrees with it:
without 鸣牌保护 a claim, rob or family window opens only when the seat answering it has a
choice, and a 报听 seat's turn stops only for a 自摸 he may take, so an opponent deciding there
gets a hand that gives him that choice (uniform draws first, then hands built around a claim
shape or a win, checked by the family's rules); the ``opponent`` predicate is asked only about
such hands.  Readiness the flow does not force (a
报听 seat's) is the caller's to ask for through ``opponent``.

The family's part goes through hooks of :class:`~erren.engine.family.Family`:
``phase_named`` (its phases by name), ``resample_data`` (its view into ``state.data``; the
tiles it shows taken from the :class:`Unseen`, the count of those it keeps aside),
``draw_hidden_hand`` (a hand its rules force into a shape: xiamen's 游 chain),
``may_hide_kong`` and ``finish_resample`` (its own stock layout: arcade's reserve).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from erren.engine.actions import ActionKind
from erren.engine.phases import Origin, Phase
from erren.engine.result import WinHow
from erren.engine.state import State
from erren.melds import Meld, MeldKind
from erren.tiles import NUM_KINDS, Tile

if TYPE_CHECKING:
    from erren.engine.family import Family
    from erren.engine.observation import Observation

__all__ = ["Unseen", "resample"]

ALL_KINDS = 42
"""Tile ids 0..41: the 34 playing kinds and the 8 flowers."""

_TILES = tuple(Tile(i) for i in range(ALL_KINDS))
_RUNS = tuple(tuple([t] * n for n in range(9)) for t in range(ALL_KINDS))
"""``_RUNS[t][n]``: ``n`` copies of tile ``t`` (a ruleset holds at most 8 of one id)."""
_ORIGINS = {o.value: o for o in Origin}
_REPL = Origin.REPLACEMENT
_ROB = Phase.ROB
_PASS = ActionKind.PASS
_ZIMO = ActionKind.ZIMO
_AN_GANG = MeldKind.AN_GANG
_KONGS = frozenset({MeldKind.MING_GANG, MeldKind.JIA_GANG, MeldKind.AN_GANG})

WINDOW_TRIES = 2000
"""Draws of the opponent's hand tried at most for a window he is answering (without
鸣牌保护 a claim or rob window opens only when he has a choice, so his hand must give one)."""

UNIFORM_TRIES = 100
"""Uniform draws tried for such a window before winning hands are built instead."""

OpponentTest = Callable[[list[int]], bool]
"""A predicate on the opponent's concealed counts (34 long, the layout of ``State.hands``)."""


@lru_cache(maxsize=64)
def _tile_counts(ruleset: Family) -> tuple[int, ...]:
    counts = [0] * ALL_KINDS
    for t in ruleset.tiles:
        counts[t] += 1
    return tuple(counts)


class Unseen:
    """The tiles one player cannot see, as counts per tile id (0..41): what the hidden parts of
    a sample are drawn from.  A family's ``resample_data`` removes the tiles it shows
    (:meth:`remove`) and says how many hidden ones it keeps aside (``aside_count``)."""

    __slots__ = ("aside", "aside_count", "counts")

    def __init__(self, counts: list[int]) -> None:
        self.counts = counts
        self.aside_count = 0
        """How many hidden tiles the family keeps in a place of its own (arcade's reserve):
        its ``resample_data`` says so, the resampler draws them with the wall."""
        self.aside: list[int] = []
        """Those tiles, drawn uniformly once the opponent's hand is drawn (flowers never stay
        in a hand, so they go to the wall or the family's place), for the family's
        ``finish_resample`` to lay out."""

    def remove(self, tile: int, n: int = 1) -> None:
        """``n`` copies of ``tile`` are seen after all; a :class:`ValueError` if fewer are
        unseen (the observation is not one of this ruleset)."""
        if self.counts[tile] < n:
            raise ValueError(f"the observation shows more copies of {_TILES[tile]} than exist")
        self.counts[tile] -= n

    def tiles(self, playing: bool = False, exclude: int = -1) -> list[int]:
        """The unseen tiles as a list of ids (``playing``: the 34 playing kinds only, without
        the kind ``exclude`` either)."""
        out: list[int] = []
        for t, n in enumerate(self.counts[: NUM_KINDS if playing else ALL_KINDS]):
            if n and t != exclude:
                out += _RUNS[t][n]
        return out


def resample(
    ruleset: Family,
    observation: Observation,
    rng: random.Random,
    *,
    opponent: OpponentTest | None = None,
    tries: int = 64,
) -> State:
    """A state consistent with ``observation`` (its player sees exactly it), the hidden tiles
    drawn from ``rng``: the opponent's hand (redrawn up to ``tries`` times until ``opponent``
    accepts its counts; the last draw is kept otherwise), his 暗杠 kinds among the kinds with
    four unseen copies, the wall order and the family's hidden data.

    Raises :class:`ValueError` for an observation of the setup or of a finished hand, and for
    one that does not fit ``ruleset``."""
    obs = observation
    me = obs.player
    opp = 1 - me
    if obs.to_act is None:
        raise ValueError(f"cannot resample a hand in phase {obs.phase.value!r} (nobody to act)")
    state = State(ruleset, dealer=obs.dealer, round_wind=obs.round_wind, streak=obs.streak)
    state.phase = ruleset.phase_named(obs.phase)
    state.actor = obs.to_act
    state.origin = None if obs.origin is None else _ORIGINS[obs.origin]
    state.pending = -1 if obs.pending is None else int(obs.pending)
    state.dice = obs.dice
    unseen = Unseen(list(_tile_counts(ruleset)))
    counts = unseen.counts

    _lay_seen(state, obs, counts)
    state.ting = list(obs.ting)
    state.ting_at = list(obs.ting_at)
    state.trustee = list(obs.trustee)
    for seat in (0, 1):
        state.tianting[seat] = obs.ting[seat] and obs.ting_at[seat] == 0
    ruleset.resample_data(state, obs, rng, unseen)

    _lay_hidden_kongs(state, opp, obs.hidden_kongs[opp], counts, rng)

    # The opponent's concealed tiles (playing kinds only: flowers never stay in a hand).
    size = obs.concealed_count[opp]
    pool = unseen.tiles(playing=True, exclude=ruleset.playing_flower(state))
    if size > len(pool):
        raise ValueError(f"the opponent holds {size} tiles but only {len(pool)} are unseen")
    state.head, state.tail = 0, obs.wall_count - 1
    window = state.actor == opp and (
        (state.in_window and not ruleset.claim_privacy)
        or (state.phase is Phase.TURN and state.ting[opp] and not state.trustee[opp])
    )
    theirs = _draw_hand(
        state, opp, pool, size=size, rng=rng, accept=opponent, tries=tries, window=window
    )
    for t in range(NUM_KINDS):
        counts[t] -= theirs[t]

    # The wall (and the family's aside): every other unseen tile, shuffled.
    wall = unseen.tiles()
    aside = unseen.aside_count
    if len(wall) != obs.wall_count + aside:
        raise ValueError(
            f"{len(wall)} tiles unseen for a wall of {obs.wall_count} (and {aside} kept "
            f"aside): the observation does not fit {ruleset.name}"
        )
    wall = _shuffled(wall, rng)
    if aside:
        unseen.aside = wall[:aside]
        del wall[:aside]
    state.wall = wall

    _last_added(state, obs, rng)
    origin = state.origin
    if origin is _REPL:
        state.drew_back = True
        state.kong_draw = _kong_draw(ruleset, state)
    ruleset.finish_resample(state, obs, rng, unseen)
    state.reset_legal()
    return state


def _shuffled(tiles: list[int], rng: random.Random) -> list[int]:
    """``tiles`` in a uniformly random order: sorted by random keys, which costs one
    ``rng.random()`` per tile (faster than ``rng.shuffle``'s bounded draws)."""
    keys = [rng.random() for _ in tiles]
    return [t for _, t in sorted(zip(keys, tiles, strict=True))]


def _lay_seen(state: State, obs: Observation, counts: list[int]) -> None:
    """Lay what the player sees (his hand, both seats' shown melds, the pools, a robbed tile)
    and take it from the unseen ``counts``."""
    me = obs.player
    hand = [0] * NUM_KINDS
    for tile in obs.hand:
        hand[tile] += 1
        counts[tile] -= 1
    state.hands[me] = hand
    visible = state.visible
    for seat in (0, 1):
        melds = state.melds[seat] = list(obs.melds[seat])
        mc = state.meld_counts[seat]
        for meld in melds:
            for tile in meld.tiles:
                mc[tile] += 1
                counts[tile] -= 1
            if meld.kind is not _AN_GANG:
                for tile in meld.tiles:
                    visible[tile] += 1
                if meld.claimed is not None:
                    visible[meld.claimed] -= 1
        discards = state.discards[seat] = [int(t) for t in obs.discards[seat]]
        claimed = state.claimed[seat] = list(obs.claimed[seat])
        for t in discards:
            visible[t] += 1
            counts[t] -= 1
        for i in claimed:
            if i < len(discards):  # a tile claimed into a meld is counted there
                counts[discards[i]] += 1
        flowers = state.flowers[seat] = [int(t) for t in obs.flowers[seat]]
        for t in flowers:
            counts[t] -= 1
        state.n_discards[seat] = len(discards)
        state.n_kongs[seat] = sum(1 for m in melds if m.kind in _KONGS)
    if state.phase is _ROB:
        counts[state.pending] -= 1  # taken from the 加杠 maker's hand, not yet in his meld
    if min(counts) < 0:
        raise ValueError("the observation shows more copies of a tile than the ruleset has")


def _lay_hidden_kongs(
    state: State, opp: int, n: int, counts: list[int], rng: random.Random
) -> None:
    """The opponent's ``n`` face-down kongs: kinds with all four copies unseen."""
    if not n:
        return
    ruleset = state.ruleset
    kinds = [k for k in ruleset.kinds if counts[k] == 4 and ruleset.may_hide_kong(state, k)]
    if len(kinds) < n:
        raise ValueError("no room for the opponent's face-down kongs")
    for k in rng.sample(kinds, n):
        counts[k] = 0
        tk = _TILES[k]
        state.melds[opp].append(Meld(_AN_GANG, (tk, tk, tk, tk), None))
        state.meld_counts[opp][k] += 4
        state.n_kongs[opp] += 1


def _draw_hand(
    state: State,
    opp: int,
    pool: list[int],
    *,
    size: int,
    rng: random.Random,
    accept: OpponentTest | None,
    tries: int,
    window: bool,
) -> list[int]:
    """Draw ``opp``'s hand into ``state``: ``tries`` draws at most until ``accept`` takes one
    (the last draw is kept), and, when ``window`` (he is answering a window that opens only
    when he has a choice), up to :data:`WINDOW_TRIES` draws until he has that choice."""
    tries = max(1, tries)
    budget = WINDOW_TRIES if window else tries
    hands = state.hands
    draw_hand = state.ruleset.draw_hidden_hand
    fallback: list[int] | None = None
    asked = 0
    for i in range(budget):
        if window and i >= UNIFORM_TRIES:  # a rare window: build a claim or a win
            tile = _window_tile(state)
            build = _claim_hand if i % 2 and state.phase is Phase.CLAIM else _winning_hand
            hand = build(pool, size, tile, rng) or draw_hand(state, opp, pool, size, rng)
        else:
            hand = draw_hand(state, opp, pool, size, rng)
        if window:
            hands[opp] = hand
            state.reset_legal()
            if not _has_choice(state, opp):
                continue
        fallback = hand
        if accept is None:
            break
        asked += 1
        if accept(hand) or asked >= tries:
            break
    if fallback is None:
        raise ValueError(
            f"no hand of the opponent found in {budget} draws that opens his "
            f"{state.phase.value} window"
        )
    hands[opp] = fallback
    state.reset_legal()
    return fallback


def _window_tile(state: State) -> int:
    """The tile a window's win would be made with: the pending discard or robbed tile, or -1
    (a window on a drawn tile: the hand itself must be complete)."""
    return state.pending if state.phase is Phase.CLAIM or state.phase is _ROB else -1


def _winning_hand(pool: list[int], size: int, tile: int, rng: random.Random) -> list[int] | None:
    """``size`` tiles from ``pool`` that with ``tile`` (-1: none) form pungs, chows and one
    pair — a proposal for a seat whose window says he may win; ``None`` when the draw did not
    fit the pool (the caller checks the win by the family's rules)."""
    left = [0] * NUM_KINDS
    for t in pool:
        left[t] += 1
    total = size + (tile >= 0)
    if total % 3 != 2:
        return None
    hand = [0] * NUM_KINDS
    groups = [2] + [3] * (total // 3)
    rng.shuffle(groups)
    anchor = tile
    for group in groups:
        if anchor < 0:
            anchor = rng.choice(pool)
            if not left[anchor]:
                return None
            left[anchor] -= 1
        hand[anchor] += 1
        shapes: list[tuple[int, ...]] = [(anchor,) * (group - 1)]
        if group == 3 and anchor < 27:
            low = anchor - anchor % 9
            shapes += [
                tuple(k for k in (s, s + 1, s + 2) if k != anchor)
                for s in range(max(low, anchor - 2), min(anchor, low + 6) + 1)
            ]
        rest = rng.choice(shapes)
        for k in rest:
            if not left[k]:
                return None
            left[k] -= 1
            hand[k] += 1
        anchor = -1
    if tile >= 0:
        hand[tile] -= 1
    return hand


def _claim_hand(pool: list[int], size: int, tile: int, rng: random.Random) -> list[int] | None:
    """``size`` tiles from ``pool`` holding a random claim shape on ``tile`` (a pair or three
    of it, two tiles of a chow), the rest uniform; ``None`` when the shape is not unseen."""
    shapes: list[tuple[int, ...]] = [(tile, tile), (tile, tile, tile)]
    if tile < 27:
        low = tile - tile % 9
        shapes += [
            tuple(k for k in (s, s + 1, s + 2) if k != tile)
            for s in range(max(low, tile - 2), min(tile, low + 6) + 1)
        ]
    shape = rng.choice(shapes)
    rest = list(pool)
    for k in shape:
        if k not in rest:
            return None
        rest.remove(k)
    if len(shape) > size:
        return None
    hand = [0] * NUM_KINDS
    for k in (*shape, *rng.sample(rest, size - len(shape))):
        hand[k] += 1
    return hand


def _has_choice(state: State, p: int) -> bool:
    """Whether ``p`` has the choice that makes him decide now: to answer a window, something
    other than ``pass``; in 报听, the 自摸 auto-play stopped for."""
    if state.phase is _ROB:
        return state.can_win(p, state.pending, WinHow.ROBBING)
    if state.phase is Phase.TURN:
        return any(a.kind is _ZIMO for a in state.legal_actions(p))
    return any(a.kind is not _PASS for a in state.legal_actions(p))


def _last_added(state: State, obs: Observation, rng: random.Random) -> None:
    """The tile each seat added last, where it matters: the player's drawn tile as shown, the
    opponent's drawn tile (in his turn) one of his tiles at random, else a kind held."""
    for seat in (0, 1):
        h = state.hands[seat]
        if seat == obs.player and seat == state.actor and _shows_drawn(state):
            # his drawn tile as shown; none shown: it left his hand (arcade's pung offer)
            state.last_added[seat] = -1 if obs.last_drawn is None else int(obs.last_drawn)
            continue
        if seat != obs.player and seat == state.actor and any(h):
            state.last_added[seat] = rng.choice([k for k in range(NUM_KINDS) for _ in range(h[k])])
        else:
            state.last_added[seat] = next((k for k in range(NUM_KINDS - 1, -1, -1) if h[k]), -1)


def _shows_drawn(state: State) -> bool:
    """Whether the actor's observation shows his drawn tile now (as ``observe`` decides)."""
    turn = state.phase is Phase.TURN and state.origin is not None
    return (turn and state.origin is not Origin.CLAIM) or (
        state.phase in state.ruleset.drawn_tile_phases
    )


def _kong_draw(ruleset: Family, state: State) -> bool:
    """Whether the actor's replacement draw counts as a kong's (杠上开花)."""
    flowers = any(_tile_counts(ruleset)[NUM_KINDS:]) or ruleset.playing_flower(state) >= 0
    if ruleset.flower_replacement_is_kong or not flowers:
        return True
    melds = state.melds[state.actor]
    return bool(melds) and melds[-1].kind in _KONGS
