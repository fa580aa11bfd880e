"""The arcade counting algorithm (arcade §5): every interpretation of the hand, the limit hands
or the non-limit patterns of each, the value key ``(N, min(13, F), F)``, the best key, ties by
rank lists (R5.5), and the points (R5.7).

The interpretations of the standard, seven-pairs and 国士无双 forms come from
:func:`erren.analysis.readings.readings` (wilds resolved there, R5.2's four-copy limit
included); free-form 绿一色 (R5.1) is added here as its own form.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from erren.analysis.readings import Group, GroupKind, Reading, Wilds, readings
from erren.analysis.shapes import ARCADE, Shape
from erren.errors import ErrenError, NotAWinError
from erren.families.arcade.scoring.context import ArcadeContext, Baoting, FirstTurn
from erren.families.arcade.scoring.facts import GREEN, Facts, Form, HandInfo, Interpretation
from erren.families.arcade.scoring.patterns import LIMIT_HANDS, NON_LIMIT, Pattern, Sources
from erren.hand import Hand
from erren.melds import MeldKind
from erren.scoring.detail import ScoreRow, ScoreStep, ScoreUnit, source_tiles
from erren.tiles import NUM_KINDS, Tile

__all__ = [
    "FAN_CAP",
    "ArcadeResult",
    "Evaluation",
    "ImpossibleWinError",
    "NotAWinError",
    "PatternHit",
    "evaluate",
    "interpretations",
    "score_arcade",
]

FAN_CAP = 13
"""``fan_cap`` (§8): 封顶, applied to non-limit fan (R5.3, R5.7)."""
YAKUMAN_BASE = 10000
"""Stage payout per yakuman at ``m = 1`` (R3.4)."""


class ImpossibleWinError(ErrenError, ValueError):
    """A hand or situation the arcade rules never produce (a flower in the hand, a wild in a
    meld, a wild won on a discard, 地和 with a meld, ...)."""


@dataclass(frozen=True, slots=True)
class PatternHit:
    """A pattern counted in a result: ``count`` occurrences worth ``value`` each (fan, or
    yakuman multiplicity).  ``sources`` holds, per occurrence, the indices into
    ``ArcadeResult.interpretation.groups`` it is made of (``()``: the whole hand or the way it
    was won)."""

    pattern: Pattern
    value: int
    count: int = 1
    sources: Sources = ((),)

    @property
    def total(self) -> int:
        return self.value * self.count

    def __str__(self) -> str:
        if self.pattern.limit:
            return f"{self.pattern.name} ×{self.value}"
        return f"{self.pattern.name} {self.total}"


@dataclass(frozen=True, slots=True)
class ArcadeResult:
    """The chosen interpretation's score (R5.4, R5.7).

    ``yakuman`` is ``N`` (0 for a non-limit hand); ``fan`` is ``F_total``, uncapped (0 for a
    limit hand; flowers included).  ``patterns`` are in rank order, limit hands first.  A
    :class:`~erren.scoring.detail.FamilyScore`: ``total`` is ``N`` in 役满 for a limit hand,
    else ``F_total`` in 番.
    """

    patterns: tuple[PatternHit, ...]
    yakuman: int
    fan: int
    interpretation: Interpretation
    hand: Hand
    context: ArcadeContext

    @property
    def total(self) -> int:
        return self.yakuman or self.fan

    @property
    def unit(self) -> ScoreUnit:
        return ScoreUnit.YAKUMAN if self.yakuman else ScoreUnit.FAN

    @property
    def rows(self) -> tuple[ScoreRow, ...]:
        """A row a pattern: 花牌 made of the flowers set aside (tiles of the flower kind), a
        pattern about the whole hand or the way it was won of the whole hand, any other of its
        groups (a wild shown as the wild's face)."""
        ctx = self.context
        wild = ctx.wild
        groups = self.interpretation.groups
        out = []
        for hit in self.patterns:
            p = hit.pattern
            if p.bonus:
                tiles: tuple[Tile, ...] = (ctx.flower,) * ctx.flowers
                melds: tuple[int, ...] = ()
            else:
                tiles, melds = source_tiles(self.hand, groups, hit.sources, wild)
            out.append(ScoreRow(p.name, p.english, hit.value, hit.count, tiles, melds, p.id))
        return tuple(out)

    @property
    def steps(self) -> tuple[ScoreStep, ...]:
        """A line a pattern with the groups it came from (the Chinese lines are
        :meth:`explain`'s), then the result line (R5.7)."""
        out = []
        for hit in self.patterns:
            where = "; ".join(" ".join(g) for g in self.groups_of(hit) if g)
            tail = f" ({where})" if where else ""
            p = hit.pattern
            value = f"×{hit.value}" if p.limit else f"{hit.total}"
            out.append(ScoreStep(f"{p.name} {value}{tail}", f"{p.english} {value}{tail}"))
        if self.yakuman:
            en = f"{self.yakuman}× yakuman" if self.yakuman >= 2 else "yakuman"
        elif self.capped:
            en = f"{self.fan} → capped at {FAN_CAP} fan"
        else:
            en = f"{self.fan}"
        out.append(ScoreStep(f"= {self.summary}", f"= {en}"))
        return tuple(out)

    @property
    def key(self) -> tuple[int, int, int]:
        """The value key ``(N, min(13, F), F)`` (R5.3)."""
        return (self.yakuman, min(FAN_CAP, self.fan), self.fan)

    @property
    def capped_fan(self) -> int:
        """``min(13, F_total)``: the fan that is paid."""
        return min(FAN_CAP, self.fan)

    @property
    def capped(self) -> bool:
        """A non-limit hand over the cap (封顶 13番)."""
        return self.fan > FAN_CAP

    @property
    def points(self) -> int:
        """Versus points before ``versus_base_points`` (R2.25): 13 for a yakuman, else the
        capped fan."""
        return FAN_CAP if self.yakuman else self.capped_fan

    def versus_points(self, base_points: int = 1) -> int:
        """What the loser pays the winner in versus mode (R2.25)."""
        return self.points * base_points

    def stage_payout(self, stake: int = 1) -> int:
        """Stage-mode payout at stake multiplier ``m`` (R3.4, R5.8), before the 三连庄 bonus."""
        if self.yakuman:
            return stake * self.yakuman * YAKUMAN_BASE
        f = self.capped_fan
        return stake * f * (f + 1) * 50

    def groups_of(self, hit: PatternHit) -> tuple[tuple[str, ...], ...]:
        """The groups each occurrence of ``hit`` came from, as text."""
        groups = self.interpretation.groups
        return tuple(tuple(str(groups[i]) for i in src) for src in hit.sources)

    @property
    def summary(self) -> str:
        """The result line (R5.7): ``= 15 → 封顶 13番``, ``= 3倍役满``, ``= 5``."""
        if self.yakuman:
            return f"{self.yakuman}倍役满" if self.yakuman >= 2 else "役满"
        if self.capped:
            return f"{self.fan} → 封顶 {FAN_CAP}番"
        return f"{self.fan}"

    def explain(self) -> str:
        """One line per pattern with the groups it came from, then the total."""
        lines = []
        for hit in self.patterns:
            where = "; ".join(" ".join(g) for g in self.groups_of(hit) if g)
            lines.append(str(hit) + (f" ({where})" if where else ""))
        lines.append(f"= {self.summary}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return " + ".join(str(h) for h in self.patterns) + f" = {self.summary}"


# ---------------------------------------------------------------------------------------------
# The generic loop over the table


@dataclass(frozen=True, slots=True)
class _Table:
    rows: tuple[Pattern, ...]
    masks: tuple[int, ...]


def _compile(rows: tuple[Pattern, ...]) -> _Table:
    position = {row.id: i for i, row in enumerate(rows)}
    masks = []
    for row in rows:
        mask = 0
        for other in row.excludes:
            if other in position:
                mask |= 1 << position[other]
        masks.append(mask)
    return _Table(rows, tuple(masks))


_LIMITS = _compile(LIMIT_HANDS)
_NON_LIMIT = _compile(tuple(r for r in NON_LIMIT if not r.fallback and not r.bonus))
_FALLBACK = next(r for r in NON_LIMIT if r.fallback)
_BONUS = next(r for r in NON_LIMIT if r.bonus)


def _detect(t: _Table, f: Facts) -> list[tuple[Pattern, Sources]]:
    """Every row that holds, in table order, after the exclusions (R5.3 b)."""
    removed = 0
    kept: list[tuple[int, Sources]] = []
    menqing = f.h.menqing
    for i, row in enumerate(t.rows):
        if removed >> i & 1 or (row.closed and not menqing):
            continue
        sources = row.detector(f)
        if not sources:
            continue
        mask = t.masks[i]
        if mask:
            removed |= mask
            kept = [(k, s) for k, s in kept if not mask >> k & 1]
        kept.append((i, sources))
    return [(t.rows[i], s) for i, s in kept]


def _value(h: HandInfo, interp: Interpretation) -> tuple[tuple[int, int, int], list[PatternHit]]:
    """R5.3 for one interpretation: its key and its patterns in rank order."""
    f = Facts(h, interp)
    limits = _detect(_LIMITS, f)
    if limits:
        hits = [PatternHit(row, row.value, 1, src[:1]) for row, src in limits]
        n = sum(hit.value for hit in hits)
        return (n, 0, 0), hits
    return _non_limit_value(h, _detect(_NON_LIMIT, f))


def _non_limit_value(
    h: HandInfo, found: list[tuple[Pattern, Sources]]
) -> tuple[tuple[int, int, int], list[PatternHit]]:
    """R5.3 c–e: the fallback 推倒胡, the flowers, the total."""
    hits = [PatternHit(row, row.value, 1, src[:1]) for row, src in found]
    if not hits:
        hits = [PatternHit(_FALLBACK, _FALLBACK.value)]
    flowers = h.ctx.flowers
    if flowers:
        hits.append(PatternHit(_BONUS, _BONUS.value, flowers, ((),) * flowers))
        hits.sort(key=lambda hit: hit.pattern.rank)
    total = sum(hit.total for hit in hits)
    return (0, min(FAN_CAP, total), total), hits


@dataclass(frozen=True, slots=True)
class Evaluation:
    """One interpretation with everything the table finds in it: ``key`` and ``patterns`` are
    its value and scored patterns (R5.3); ``limit_hands`` every limit hand that holds;
    ``non_limit`` every non-limit pattern that holds after the exclusions (N1 and N8 aside),
    listed even when a limit hand drops them — for explanations and the differential tests."""

    interpretation: Interpretation
    key: tuple[int, int, int]
    patterns: tuple[PatternHit, ...]
    limit_hands: tuple[Pattern, ...]
    non_limit: tuple[Pattern, ...]


def evaluate(hand: Hand, ctx: ArcadeContext | None = None) -> list[Evaluation]:
    """Every interpretation of a winning hand with its value, in reading order (R5.1–R5.3).
    A hand without a winning tile is read with its winning tile as written (none)."""
    ctx = ArcadeContext() if ctx is None else ctx
    _check(hand, ctx)
    h = HandInfo(hand, ctx)
    out = []
    for interp in interpretations(hand, ctx.wild):
        f = Facts(h, interp)
        limits = _detect(_LIMITS, f)
        found = _detect(_NON_LIMIT, f)
        if limits:
            hits = [PatternHit(row, row.value, 1, src[:1]) for row, src in limits]
            key = (sum(hit.value for hit in hits), 0, 0)
        else:
            key, hits = _non_limit_value(h, found)
        out.append(
            Evaluation(
                interpretation=interp,
                key=key,
                patterns=tuple(hits),
                limit_hands=tuple(row for row, _ in limits),
                non_limit=tuple(row for row, _ in found),
            )
        )
    return out


# ---------------------------------------------------------------------------------------------
# Interpretations


_FORMS = {
    Shape.REGULAR: Form.STANDARD,
    Shape.SEVEN_PAIRS: Form.SEVEN_PAIRS,
    Shape.THIRTEEN_ORPHANS: Form.THIRTEEN_ORPHANS,
}
_MELD_KINDS = {
    MeldKind.CHI: GroupKind.CHOW,
    MeldKind.PENG: GroupKind.PUNG,
    MeldKind.MING_GANG: GroupKind.KONG,
    MeldKind.JIA_GANG: GroupKind.KONG,
    MeldKind.AN_GANG: GroupKind.KONG,
}


def _from_reading(reading: Reading) -> Interpretation:
    return Interpretation(
        form=_FORMS[reading.shape],
        groups=reading.groups,
        winning_group=reading.winning_group,
        winning_kind=reading.winning_kind,
        wild_kinds=reading.wild_kinds,
    )


def _free_green(hand: Hand, wild: int | None) -> Interpretation | None:
    """Free-form 绿一色 (R5.1, L14, §7 item 36): every natural tile, melds included, is green;
    the wilds play green kinds (which kinds does not change the score).  The loose concealed
    tiles are shown as singles, then the melds."""
    naturals = [t for t in hand.concealed if t != wild]
    win = hand.winning
    win_wild = win is not None and win == wild
    if win is not None and not win_wild:
        naturals.append(win)
    meld_tiles = [t for m in hand.melds for t in m.tiles]
    if any(t not in GREEN for t in naturals) or any(t not in GREEN for t in meld_tiles):
        return None
    room = dict.fromkeys(sorted(GREEN), 4)
    for t in (*naturals, *meld_tiles):
        room[t] -= 1
    n_wilds = sum(1 for t in hand.concealed if t == wild) + win_wild
    wild_kinds: list[int] = []
    for kind in sorted(GREEN):
        while room[kind] > 0 and len(wild_kinds) < n_wilds:
            room[kind] -= 1
            wild_kinds.append(kind)
    if len(wild_kinds) < n_wilds:  # pragma: no cover - 24 green tiles always have room
        return None
    singles: list[tuple[int, bool, bool]] = [(t, False, False) for t in naturals]  # kind, wild, win
    if win is not None and not win_wild:
        singles[-1] = (win, False, True)
    for i, kind in enumerate(wild_kinds):
        singles.append((kind, True, win_wild and i == len(wild_kinds) - 1))
    singles.sort()
    groups = [Group(GroupKind.SINGLE, (k,), None, (k,) if w else ()) for k, w, _ in singles]
    winning_group = next((i for i, (_, _, w) in enumerate(singles) if w), None)
    winning_kind = None if winning_group is None else singles[winning_group][0]
    melds = [Group(_MELD_KINDS[m.kind], tuple(int(t) for t in m.tiles), m) for m in hand.melds]
    return Interpretation(
        form=Form.FREE_GREEN,
        groups=(*groups, *melds),
        winning_group=winning_group,
        winning_kind=winning_kind,
        wild_kinds=tuple(sorted(wild_kinds)),
    )


def interpretations(hand: Hand, wild: int | None = None) -> list[Interpretation]:
    """Every interpretation of a complete hand (R5.1): standard, seven pairs and 国士无双 from
    the analysis, then free-form 绿一色.  Empty if the hand is not complete."""
    wilds = None if wild is None else Wilds(kind=wild, max_copies=4)
    found = [_from_reading(r) for r in readings(hand, shapes=ARCADE, wilds=wilds)]
    green = _free_green(hand, wild)
    if green is not None and hand.size == 14:
        found.append(green)
    return found


# ---------------------------------------------------------------------------------------------
# Checking the request


def _check(hand: Hand, ctx: ArcadeContext) -> None:
    """Refuse hands and situations the rules never produce (R1.2, R1.9, R1.11, R2.6, R2.15)."""
    if hand.flowers:
        raise ImpossibleWinError(
            "arcade has no flower tiles (R1.2): give the number of set-aside flowers instead"
        )
    wild = ctx.wild
    flower = ctx.flower
    tiles = [*hand.concealed, *([] if hand.winning is None else [hand.winning])]
    if any(t == flower for t in tiles) or any(t == flower for m in hand.melds for t in m.tiles):
        raise ImpossibleWinError(
            f"{Tile(flower)} is the flower kind: it is set aside, never held (R1.11); "
            "a wild may stand for it"
        )
    if wild is not None:
        if any(t == wild for m in hand.melds for t in m.tiles):
            raise ImpossibleWinError(f"wild tiles ({Tile(wild)}) are never in a meld (R1.9c)")
        if sum(1 for t in tiles if t == wild) > 3:
            raise ImpossibleWinError(
                f"at most three wild tiles ({Tile(wild)}) are in play: the indicator is the "
                "fourth (R1.9a)"
            )
        if hand.winning == wild and (not ctx.is_self_drawn or ctx.robbing_kong):
            raise ImpossibleWinError(
                "a discarded wild is dead and cannot be won on (R1.9c, R2.6); "
                "a robbed kong tile is natural"
            )
    counts = hand.all_counts()
    if max(counts[:NUM_KINDS]) > 4:
        raise ImpossibleWinError("more than four tiles of one kind (R1.1)")
    open_melds = any(not m.is_concealed for m in hand.melds)
    if ctx.first_turn is not FirstTurn.NONE and hand.melds:
        raise ImpossibleWinError("a first-turn hand has no meld: nothing was claimed or kanged")
    if ctx.baoting is Baoting.MENQING and open_melds:
        raise ImpossibleWinError(
            "门清报听 is declared with a concealed hand, and 报听 forbids claims (R2.12): "
            "use baoting 'open'"
        )
    if ctx.baoting is Baoting.TIANTING and hand.melds:
        raise ImpossibleWinError("天听 is declared on the first turn and forbids kongs after it")
    if ctx.baoting is Baoting.OPEN and not open_melds:
        raise ImpossibleWinError("报听 'open' needs an open meld; a concealed hand is 'menqing'")


# ---------------------------------------------------------------------------------------------
# Choosing


_Best = tuple[tuple[int, int, int], tuple[int, ...], list[PatternHit], Interpretation]


def _better(key: tuple[int, int, int], ranks: tuple[int, ...], best: _Best | None) -> bool:
    """R5.4–R5.5: the larger key; on equal keys the rank list that comes first (a prefix comes
    before a longer list, which tuple order does).  The first of equals is kept."""
    return best is None or key > best[0] or (key == best[0] and ranks < best[1])


def _best(h: HandInfo, found: list[Interpretation], best: _Best | None = None) -> _Best | None:
    for interp in found:
        key, hits = _value(h, interp)
        if best is not None and key < best[0]:
            continue
        ranks = tuple(hit.pattern.rank for hit in hits)
        if _better(key, ranks, best):
            best = (key, ranks, hits, interp)
    return best


@lru_cache(maxsize=1 << 12)
def _score(hand: Hand, ctx: ArcadeContext) -> ArcadeResult:
    _check(hand, ctx)
    candidates = [hand]
    if hand.winning is None:  # the dealt 14 tiles (天和): whichever tile scores best (R2.4)
        candidates = []
        for tile in sorted(set(hand.concealed)):
            rest = list(hand.concealed)
            rest.remove(tile)
            candidates.append(Hand(tuple(rest), hand.melds, tile, hand.flowers))
    best: _Best | None = None
    for candidate in candidates:
        best = _best(HandInfo(candidate, ctx), interpretations(candidate, ctx.wild), best)
    if best is None:
        raise NotAWinError(f"{hand} is not a complete arcade hand (R5.1)")
    key, _, hits, interp = best
    return ArcadeResult(
        patterns=tuple(hits),
        yakuman=key[0],
        fan=key[2],
        interpretation=interp,
        hand=hand,
        context=ctx,
    )


def score_arcade(hand: Hand, ctx: ArcadeContext | None = None) -> ArcadeResult:
    """Score a winning arcade hand (§5): the interpretation with the largest value key
    ``(N, min(13, F), F)``, ties broken by rank lists (R5.5).  Raises :class:`NotAWinError` if
    the hand is not complete and :class:`ImpossibleWinError` if the rules never produce it.
    Memoised on its arguments."""
    return _score(hand, ArcadeContext() if ctx is None else ctx)
