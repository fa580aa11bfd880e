"""Xiamen settlement (R-4.1, R-4.2, R-4.6–R-4.9): 底 with the 连庄 doubling, the win type's
multiplier, the cap, the bonus, who pays, the next dealer and streak — every figure explained.

>>> from erren.hand import Hand
>>> from erren.families.xiamen.scoring import XiamenContext, WinType, score_xiamen
>>> from erren.tiles import Tile
>>> ctx = XiamenContext(gold=Tile.M8, win_type=WinType.YOUJIN, dealer=True, streak=2,
...                     flowers=(Tile.F1, Tile.F2, Tile.F3))
>>> result = score_xiamen(Hand.parse("234m345m666m8m [777z'] +1z"), ctx)
>>> print(settle_xiamen(result, winner=0).explain())
游金 by seat 0, the dealer; 连庄数 3 (w = 2)
底 = base 8 × 2^2 = 32
水 = 6: 金牌 1 + 花牌 3 + 风刻 1 + 普通暗刻 1
raw = (底 32 + 水 6) × M 4 (游金) = 152
paid = min(raw 152, cap 100) = 100 (capped)
bonus = 50 (游金), outside the cap
total = paid 100 + bonus 50 = 150 points
seat 1 pays 150 points to seat 0
next hand: seat 0 deals again, 连庄数 4 (w = 3), 底 64
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from erren.analysis.readings import Reading
from erren.families.xiamen.scoring.calculator import WaterItem, XiamenResult
from erren.families.xiamen.scoring.context import WinType, XiamenSettings
from erren.scoring.detail import ScoreRow, ScoreStep, ScoreUnit, meld_indices

__all__ = [
    "Outcome",
    "XiamenScore",
    "XiamenSettlement",
    "settle_xiamen",
    "settle_xiamen_draw",
    "settle_xiamen_escape",
]

SEATS = (0, 1)


class Outcome(Enum):
    """How the hand ended (R-2.1 ``END``)."""

    WIN = "win"
    DRAW = "draw"  # 荒庄
    ESCAPE = "escape"  # 逃跑


@dataclass(frozen=True, slots=True)
class XiamenSettlement:
    """The settlement record of R-4.9.

    Seats are 0 and 1.  ``winner`` receives ``total`` points from ``loser`` (for an escape the
    escaper is the loser; both ``None`` for 荒庄).  ``streak`` is this hand's ``w`` (连庄数
    ``w + 1``) and ``base`` its 底; ``raw = (底 + 水) × M``, ``paid = min(raw, cap)`` (``cap``
    0: no cap), ``total = paid + bonus``; ``deltas`` are the points per seat
    (a bean room multiplies them by its stake in the server).  ``next_dealer``/``next_streak``
    follow R-4.8 (``None`` when the table closes).
    ``steps`` explain every figure, one line each (``steps_zh``: the same lines in Chinese).
    """

    outcome: Outcome
    win_type: WinType | None
    winner: int | None
    loser: int | None
    dealer: int
    streak: int
    base: int
    water: int
    multiplier: int
    raw: int
    cap: int
    paid: int
    bonus: int
    total: int
    deltas: tuple[int, int]
    next_dealer: int | None
    next_streak: int | None
    items: tuple[WaterItem, ...] = ()
    reading: Reading | None = None
    steps: tuple[str, ...] = ()
    steps_zh: tuple[str, ...] = ()

    @property
    def capped(self) -> bool:
        """The cap cut ``raw``."""
        return self.paid < self.raw

    @property
    def total_without_cap(self) -> int:
        """What the hand would pay with ``cap = 0`` (the last column of the §5.1 summary)."""
        return self.raw + self.bonus if self.outcome is Outcome.WIN else self.total

    @property
    def lianzhuang(self) -> int:
        """连庄数 of this hand, ``streak + 1``."""
        return self.streak + 1

    def explain(self) -> str:
        return "\n".join(self.steps)

    def __str__(self) -> str:
        return self.explain()


def _seat(seat: int, what: str) -> int:
    if seat not in SEATS or isinstance(seat, bool):
        raise ValueError(f"{what} must be seat 0 or 1, not {seat!r}")
    return seat


def _streak(streak: int) -> int:
    if not isinstance(streak, int) or isinstance(streak, bool) or streak < 0:
        raise ValueError(f"the dealer streak must be a whole number ≥ 0, not {streak!r}")
    return streak


def _next(dealer: int, streak: int, base: int) -> str:
    return f"连庄数 {streak + 1} (w = {streak}), 底 {base << streak}"


def _next_zh(streak: int, base: int) -> str:
    return f"连庄数 {streak + 1}（w = {streak}），底 {base << streak}"


class _Steps:
    """The explanation being written, each line in English and Chinese."""

    def __init__(self) -> None:
        self.en: list[str] = []
        self.zh: list[str] = []

    def add(self, en: str, zh: str) -> None:
        self.en.append(en)
        self.zh.append(zh)


def _explain_raw(steps: _Steps, result: XiamenResult, winner: int, raw: int) -> None:
    """The lines of a win up to ``raw``: who won how, 底 (R-4.2), 水 by row, ``(底 + 水) × M``."""
    ctx = result.ctx
    settings = ctx.settings
    t = ctx.win_type
    w = ctx.streak
    base = ctx.base
    water = result.water
    m = t.multiplier
    who = "the dealer" if ctx.dealer else "the non-dealer"
    who_zh = "庄家" if ctx.dealer else "闲家"
    by_row: dict[str, int] = {}
    for item in result.items:
        by_row[item.name] = by_row.get(item.name, 0) + item.value
    parts = " + ".join(f"{name} {value}" for name, value in by_row.items())
    steps.add(
        f"{t.chinese} by seat {winner}, {who}; 连庄数 {w + 1} (w = {w})",
        f"{t.chinese}：{winner} 号位（{who_zh}）胡牌；连庄数 {w + 1}（w = {w}）",
    )
    steps.add(
        f"底 = base {settings.base} × 2^{w} = {base}", f"底 = 底分 {settings.base} × 2^{w} = {base}"
    )
    steps.add(f"水 = {water}: {parts or 'nothing'}", f"水 = {water}：{parts or '无'}")
    steps.add(
        f"raw = (底 {base} + 水 {water}) × M {m} ({t.chinese}) = {raw}",
        f"原分 = (底 {base} + 水 {water}) × 倍数 {m}（{t.chinese}）= {raw}",
    )


def _explain_paid(
    steps: _Steps, t: WinType, *, raw: int, cap: int, paid: int, bonus: int, total: int
) -> None:
    """The lines of a win from ``raw`` on: the cap, the bonus outside it (R-4.6), the total."""
    if not cap:
        steps.add(f"paid = raw {raw} (no cap)", f"实付 = 原分 {raw}（不封顶）")
    elif raw > cap:
        steps.add(
            f"paid = min(raw {raw}, cap {cap}) = {paid} (capped)",
            f"实付 = min(原分 {raw}, 封顶 {cap}) = {paid}（封顶）",
        )
    else:
        steps.add(
            f"paid = min(raw {raw}, cap {cap}) = {paid}",
            f"实付 = min(原分 {raw}, 封顶 {cap}) = {paid}",
        )
    if bonus:
        steps.add(
            f"bonus = {bonus} ({t.chinese}), outside the cap",
            f"奖励 = {bonus}（{t.chinese}），不计入封顶",
        )
    else:
        steps.add(f"bonus = 0 ({t.chinese} has none)", f"奖励 = 0（{t.chinese}无奖励）")
    steps.add(
        f"total = paid {paid} + bonus {bonus} = {total:,} points",
        f"合计 = 实付 {paid} + 奖励 {bonus} = {total:,} 分",
    )


def settle_xiamen(result: XiamenResult, *, winner: int = 0) -> XiamenSettlement:
    """Settle a win scored by :func:`~erren.families.xiamen.scoring.score_xiamen`; ``winner`` is the
    winner's seat (the dealer's seat follows from ``result.ctx.dealer``).

    ``raw = (底 + 水) × M`` with ``底 = base × 2^w`` (R-4.2) and ``M`` the win type's
    multiplier; ``paid = min(raw, cap)`` unless ``cap`` is 0; the bonus (游金 50, 双游 100,
    三游 150) is added outside the cap (R-4.6).  The loser pays ``total``; the winner deals the
    next hand, with ``w + 1`` if it was the dealer and 0 otherwise (R-4.8).
    """
    winner = _seat(winner, "winner")
    ctx = result.ctx
    settings = ctx.settings
    t = ctx.win_type
    loser = 1 - winner
    dealer = winner if ctx.dealer else loser
    w = ctx.streak
    base = ctx.base
    water = result.water
    m = t.multiplier
    raw = (base + water) * m
    cap = settings.cap
    paid = min(raw, cap) if cap else raw
    bonus = t.bonus
    total = paid + bonus
    steps = _Steps()
    _explain_raw(steps, result, winner, raw)
    _explain_paid(steps, t, raw=raw, cap=cap, paid=paid, bonus=bonus, total=total)
    deltas = _pays(steps, loser, winner, total)
    next_streak = w + 1 if ctx.dealer else 0
    again, again_zh = ("deals again", "连庄") if ctx.dealer else ("deals", "坐庄")
    steps.add(
        f"next hand: seat {winner} {again}, {_next(winner, next_streak, settings.base)}",
        f"下一局：{winner} 号位{again_zh}，{_next_zh(next_streak, settings.base)}",
    )
    return XiamenSettlement(
        outcome=Outcome.WIN,
        win_type=t,
        winner=winner,
        loser=loser,
        dealer=dealer,
        streak=w,
        base=base,
        water=water,
        multiplier=m,
        raw=raw,
        cap=cap,
        paid=paid,
        bonus=bonus,
        total=total,
        deltas=deltas,
        next_dealer=winner,
        next_streak=next_streak,
        items=result.items,
        reading=result.reading,
        steps=tuple(steps.en),
        steps_zh=tuple(steps.zh),
    )


def settle_xiamen_draw(
    *, dealer: int, streak: int = 0, settings: XiamenSettings | None = None
) -> XiamenSettlement:
    """荒庄 (R-4.7): nobody scores, whatever anybody holds; the same dealer deals the next hand
    with the same streak (R-4.8, D-26)."""
    dealer = _seat(dealer, "dealer")
    w = _streak(streak)
    settings = settings or XiamenSettings()
    steps = _Steps()
    steps.add(
        "exhaustive draw (荒庄): nobody scores, nothing changes hands", "荒庄：无人得分，不付分"
    )
    steps.add(
        f"next hand: seat {dealer} deals again, {_next(dealer, w, settings.base)}",
        f"下一局：{dealer} 号位连庄，{_next_zh(w, settings.base)}",
    )
    return _unscored(
        Outcome.DRAW,
        dealer=dealer,
        streak=w,
        settings=settings,
        deltas=(0, 0),
        next_dealer=dealer,
        next_streak=w,
        steps=steps,
    )


def settle_xiamen_escape(
    escaper: int, *, dealer: int, streak: int = 0, settings: XiamenSettings | None = None
) -> XiamenSettlement:
    """Escape (R-2.12, R-4.7): the hand is not scored; the escaper pays ``escape_penalty``
    points (400) to the opponent, and the table closes."""
    escaper = _seat(escaper, "escaper")
    dealer = _seat(dealer, "dealer")
    w = _streak(streak)
    settings = settings or XiamenSettings()
    penalty = settings.escape_penalty
    steps = _Steps()
    steps.add(
        f"seat {escaper} escaped (逃跑): the hand is not scored", f"{escaper} 号位逃跑：本局不计分"
    )
    steps.add(f"penalty = {penalty:,} points", f"罚分 = {penalty:,} 分")
    deltas = _pays(steps, escaper, 1 - escaper, penalty)
    steps.add("the table closes", "牌桌关闭")
    return _unscored(
        Outcome.ESCAPE,
        dealer=dealer,
        streak=w,
        settings=settings,
        deltas=deltas,
        next_dealer=None,
        next_streak=None,
        steps=steps,
        winner=1 - escaper,
        loser=escaper,
        total=penalty,
    )


def _pays(steps: _Steps, payer: int, receiver: int, points: int) -> tuple[int, int]:
    """The deltas of ``payer`` paying ``points`` to ``receiver``, written in ``steps``."""
    deltas = [0, 0]
    deltas[receiver] = points
    deltas[payer] = -points
    steps.add(
        f"seat {payer} pays {points:,} points to seat {receiver}",
        f"{payer} 号位付给 {receiver} 号位 {points:,} 分",
    )
    return deltas[0], deltas[1]


def _unscored(
    outcome: Outcome,
    *,
    dealer: int,
    streak: int,
    settings: XiamenSettings,
    deltas: tuple[int, int],
    next_dealer: int | None,
    next_streak: int | None,
    steps: _Steps,
    winner: int | None = None,
    loser: int | None = None,
    total: int = 0,
) -> XiamenSettlement:
    """A hand that was not scored (荒庄, escape): no water, no multiplier, nothing paid but
    ``total`` (an escape's penalty)."""
    return XiamenSettlement(
        outcome=outcome,
        win_type=None,
        winner=winner,
        loser=loser,
        dealer=dealer,
        streak=streak,
        base=settings.base << streak,
        water=0,
        multiplier=0,
        raw=0,
        cap=settings.cap,
        paid=0,
        bonus=0,
        total=total,
        deltas=deltas,
        next_dealer=next_dealer,
        next_streak=next_streak,
        steps=tuple(steps.en),
        steps_zh=tuple(steps.zh),
    )


@dataclass(frozen=True, slots=True)
class XiamenScore:
    """A xiamen win as a :class:`~erren.scoring.detail.FamilyScore`: a row per 水 item of
    ``result`` (its tiles: the golds, the flowers, the pung or kong), the settlement's
    ``steps`` (底, 水, M, cap, bonus, who pays) and ``total`` = the 水.  The points paid are
    ``settlement.total``."""

    result: XiamenResult
    settlement: XiamenSettlement

    @property
    def unit(self) -> ScoreUnit:
        return ScoreUnit.WATER

    @property
    def total(self) -> int:
        return self.result.water

    @property
    def steps(self) -> tuple[ScoreStep, ...]:
        s = self.settlement
        return tuple(ScoreStep(zh, en) for zh, en in zip(s.steps_zh, s.steps, strict=True))

    @property
    def rows(self) -> tuple[ScoreRow, ...]:
        result = self.result
        melds = result.hand.melds
        return tuple(
            ScoreRow(
                item.row.name,
                item.row.english,
                item.row.value,
                item.count,
                item.tiles,
                meld_indices(melds, (result.groups[g] for g in item.groups)),
                item.row.id,
            )
            for item in result.items
        )

    def __str__(self) -> str:
        return self.settlement.explain()
