"""The one generic scoring routine (guobiao-2p §5.2): read the hand every way, run every row of
the table on each reading, apply the exclusions, keep the best reading."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from erren.analysis.readings import Reading, readings
from erren.analysis.shapes import GB, GUOBIAO_2P, Shape, ShapeSet
from erren.errors import NotAWinError
from erren.families.guobiao.scoring import _fastfan
from erren.families.guobiao.scoring.combos import CHOW_FANS, PUNG_FANS
from erren.families.guobiao.scoring.context import WinContext
from erren.families.guobiao.scoring.facts import Facts, HandFacts
from erren.families.guobiao.scoring.fan import Fan, FanHit, ScoreResult, Sources
from erren.families.guobiao.scoring.fans import TABLES
from erren.hand import Hand
from erren.melds import MeldKind

__all__ = ["NotAWinError", "score", "score_fast", "score_readings"]


@dataclass(frozen=True, slots=True)
class _Compiled:
    """A table prepared for the loop: exclusions as bitmasks over row positions."""

    name: str
    rows: tuple[Fan, ...]
    scored: tuple[int, ...]  # rows evaluated per reading (not bonus, not fallback)
    exclude_masks: tuple[int, ...]
    absorbs: tuple[tuple[tuple[int, ...], int | None], ...]
    fallback: int  # row position of 屁胡/无番和, -1 if none
    bonus: tuple[int, ...]
    chow_values: tuple[int, ...]
    pung_values: tuple[int, ...]
    wait_fans: bool
    shapes: ShapeSet
    by_bit: dict[int, tuple[tuple[int, int], ...]]  # lowest guard bit -> (row, guard)
    unguarded: tuple[int, ...]  # scored rows without a guard (none in the two tables)


def _compile(name: str) -> _Compiled:
    rows = TABLES[name]
    position = {fan.id: i for i, fan in enumerate(rows)}
    values = {fan.id: fan.value for fan in rows}
    masks = []
    absorbs = []
    for fan in rows:
        mask = 0
        for other in fan.excludes:
            if other in position:
                mask |= 1 << position[other]
        masks.append(mask)
        absorbs.append((tuple(position[a] for a in fan.absorbs if a in position), fan.absorb_limit))
    scored = tuple(i for i, f in enumerate(rows) if not f.bonus and not f.fallback)
    filed: dict[int, list[tuple[int, int]]] = {}
    for i in scored:
        guard = rows[i].guard
        if guard:
            filed.setdefault(guard & -guard, []).append((i, guard))
    by_bit = {bit: tuple(entries) for bit, entries in filed.items()}
    return _Compiled(
        name=name,
        rows=rows,
        scored=scored,
        exclude_masks=tuple(masks),
        absorbs=tuple(absorbs),
        fallback=next((i for i, f in enumerate(rows) if f.fallback), -1),
        bonus=tuple(i for i, f in enumerate(rows) if f.bonus),
        chow_values=tuple(values.get(k, 0) for k in CHOW_FANS),
        pung_values=tuple(values.get(k, 0) for k in PUNG_FANS),
        wait_fans="single_wait" in position,
        shapes=GB if name == "gb" else GUOBIAO_2P,
        by_bit=by_bit,
        unguarded=tuple(i for i in scored if not rows[i].guard),
    )


_COMPILED: dict[str, _Compiled] = {}


def _table(name: str) -> _Compiled:
    table = _COMPILED.get(name)
    if table is None:
        if name not in TABLES:
            raise ValueError(f"unknown fan table {name!r} (expected one of {sorted(TABLES)})")
        table = _COMPILED[name] = _compile(name)
    return table


def _score_reading(
    t: _Compiled, h: HandFacts, reading: Reading
) -> tuple[list[tuple[int, Sources]], int]:
    """Steps A–D for one reading: the surviving (row, sources) in table order and the total."""
    f = Facts(h, reading, t.chow_values, t.pung_values, t.wait_fans and not h.tianhu)
    rows = t.rows
    masks = t.exclude_masks
    removed = 0
    kept: list[tuple[int, Sources]] = []
    for i in _candidates(t.name, f.features):
        if removed >> i & 1:
            continue
        sources = rows[i].detector(f)
        if not sources:
            continue
        mask = masks[i]
        if mask:
            removed |= mask
            if any(mask >> k & 1 for k, _ in kept):
                kept = [(k, s) for k, s in kept if not mask >> k & 1]
        kept.append((i, sources))
    # A19: absorbed occurrences (a wind pung of 三风刻 scores no 幺九刻, ...).
    for pos, (i, sources) in enumerate(kept):
        targets, limit = t.absorbs[i]
        if not targets:
            continue
        for q, (j, theirs) in enumerate(kept):
            if j not in targets:
                continue
            budget = limit
            left = []
            for src in theirs:
                inside = budget != 0 and any(set(src) <= set(mine) for mine in sources)
                if inside:
                    if budget is not None:
                        budget -= 1
                else:
                    left.append(src)
            kept[q] = (j, tuple(left))
        kept[pos] = (i, sources)
    kept = [(i, s) for i, s in kept if s]
    if not kept and t.fallback >= 0:
        kept = [(t.fallback, ((),))]
    total = 0
    for i, sources in kept:
        fan = rows[i]
        total += fan.value * (len(sources) if fan.per else 1)
    return kept, total


@lru_cache(maxsize=1 << 12)
def _candidates(table: str, features: int) -> tuple[int, ...]:
    """The rows of ``table`` (positions, in table order) whose guard ``features`` satisfies:
    the only rows whose detectors can find anything.  Feature sets recur across hands."""
    t = _table(table)
    found = list(t.unguarded)
    rest = features
    while rest:  # each row is filed under the lowest bit of its guard
        low = rest & -rest
        rest ^= low
        for i, guard in t.by_bit.get(low, ()):
            if not guard & ~features:
                found.append(i)
    found.sort()
    return tuple(found)


def _rank(
    t: _Compiled, kept: list[tuple[int, Sources]], total: int, reading: Reading
) -> tuple[int, tuple[int, ...], tuple[int, ...], int]:
    """Step 3: total, then the fan values in decreasing order, then the fans in table order
    (earlier rows first), then a standard reading before seven pairs."""
    values: list[int] = []
    order: list[int] = []
    for i, sources in kept:
        fan = t.rows[i]
        n = len(sources) if fan.per else 1
        values.extend([fan.value] * n)
        order.extend([-i] * n)
    values.sort(reverse=True)
    return total, tuple(values), tuple(order), int(reading.shape is not Shape.SEVEN_PAIRS)


def score_readings(hand: Hand, ctx: WinContext, table: str, found: list[Reading]) -> ScoreResult:
    """Score ``hand`` over the given readings (which :func:`score` takes from the analysis)."""
    t = _table(table)
    if not found:
        raise NotAWinError(f"{hand} is not a winning hand under table {table!r}")
    h = HandFacts(hand, ctx)
    previous: Reading | None = None
    best: (
        tuple[
            tuple[int, tuple[int, ...], tuple[int, ...], int],
            list[tuple[int, Sources]],
            int,
            Reading,
        ]
        | None
    ) = None
    single = len(found) == 1
    for reading in found:
        # The place of the winning tile does not change the score (A2 and A15 look at every
        # place), so readings that differ only in it (adjacent in reading order) are one.
        if (
            previous is not None
            and reading.groups == previous.groups
            and reading.shape is previous.shape
        ):
            continue
        previous = reading
        kept, total = _score_reading(t, h, reading)
        if single:
            best = ((total, (), (), 0), kept, total, reading)
            break
        rank = _rank(t, kept, total, reading)
        if best is None or rank > best[0]:
            best = (rank, kept, total, reading)
    assert best is not None
    _, kept, total, reading = best
    rows = t.rows
    hits = []
    for i, sources in kept:
        fan = rows[i]
        count = len(sources) if fan.per else 1
        hits.append(FanHit(fan, fan.value, count, sources if fan.per else sources[:1]))
    for i in t.bonus:  # step 4: flowers, never part of the choice of reading
        if h.flowers:
            fan = rows[i]
            hits.append(FanHit(fan, fan.value, h.flowers, ((),) * h.flowers))
            total += fan.value * h.flowers
    return ScoreResult(fans=tuple(hits), total=total, reading=reading, table=table, hand=hand)


@lru_cache(maxsize=1 << 14)
def _score(hand: Hand, ctx: WinContext, table: str) -> ScoreResult:
    found = readings(hand, shapes=_table(table).shapes)
    return score_readings(hand, ctx, table, found)


_DISCARD_WIN = WinContext()


def score(hand: Hand, ctx: WinContext = _DISCARD_WIN, *, table: str = "gb") -> ScoreResult:
    """The fans and total of the best reading of ``hand`` under ``table`` (``"gb"``/``"2p"``),
    flowers included, no cap and no 起和 check (guobiao-2p §5.2).  Raises
    :class:`NotAWinError` if the hand has no winning reading.  Memoised on its arguments."""
    return _score(hand, ctx, table)


_MELD_CODES = {
    MeldKind.CHI: 0,
    MeldKind.PENG: 1 << 6,
    MeldKind.MING_GANG: 2 << 6,
    MeldKind.JIA_GANG: 3 << 6,
    MeldKind.AN_GANG: 4 << 6,
}
_TABLE_CODES = {"gb": (0, TABLES["gb"]), "2p": (1, TABLES["2p"])}
_fan_counts = _fastfan.fan_counts


def score_fast(
    hand: Hand, ctx: WinContext = _DISCARD_WIN, *, table: str = "gb"
) -> tuple[int, tuple[tuple[Fan, int], ...]]:
    """The total and the fans (each with its count, in table order, flowers last) that
    :func:`score` finds, computed in one C call (``_fastfan.c``) without the explanation:
    no sources, no reading, no memo.  The engine's 起和 check (``GuobiaoFamily.win_value``)
    uses it; :func:`score` is its oracle (``tests/scoring/test_fastfan.py``).  Raises
    :class:`NotAWinError` as :func:`score` does."""
    found = _TABLE_CODES.get(table)
    if found is None:
        raise ValueError(f"unknown fan table {table!r} (expected one of {sorted(TABLES)})")
    code, rows = found
    melds = hand.melds
    winning = hand.winning
    seat = ctx.seat_wind
    flowers = ctx.flowers
    result = _fan_counts(
        hand.concealed,
        tuple(_MELD_CODES[m.kind] | m.tiles[0] for m in melds) if melds else (),
        winning,
        ctx.self_drawn
        | ctx.last_copy << 1
        | ctx.last_tile << 2
        | ctx.kong_replacement << 3
        | ctx.robbing_kong << 4
        | ctx.ting << 5
        | ctx.tianting << 6
        | ctx.tianhu << 7
        | ctx.dihu << 8,
        seat,
        ctx.round_wind,
        len(hand.flowers) if flowers is None else flowers,
        code,
        rows,
    )
    if result is None:
        raise NotAWinError(f"{hand} is not a winning hand under table {table!r}")
    return result
