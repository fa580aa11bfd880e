"""The ``guobiao-2p`` family: options (Appendix A), tiles (§1.1), 起和 and scoring (§3.5, §6).

The turn flow of §2 is the engine's shared state machine; this module supplies the data and the
hooks: the 64 (or 72) tiles, the options with their table-dependent defaults, the minimum-fan check
through the fan calculator, and the settlement of a finished hand.

>>> from erren.engine import find_family
>>> rules = find_family("guobiao-2p", fan_table="gb", suit="p")
>>> rules.options.min_fan, rules.options.cap_points
(8, 13)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from erren.engine.family import Family, Options
from erren.engine.registry import register_family
from erren.engine.state import HandResult, ResultKind, WinHow
from erren.families.guobiao.view import GuobiaoView
from erren.scoring.detail import ScoreUnit
from erren.tiles import Tile

if TYPE_CHECKING:
    import random

    from erren.engine.state import State, WinClaim
    from erren.families.guobiao.scoring.settlement import SettlementOptions

__all__ = ["GuobiaoFamily", "GuobiaoOptions"]

_DEFAULT = -1
"""Placeholder of ``min_fan``/``cap_points`` meaning "the fan table's default"."""

_WINDS = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
"""The round winds in order (option ``round_wind="rotating"``)."""


@dataclass(frozen=True)
class GuobiaoOptions(Options):
    """Appendix A.  ``min_fan`` and ``cap_points`` left at their defaults take the fan table's
    value (0/none for ``2p``, 8/13 for ``gb``); ``cap_points=None`` is uncapped."""

    fan_table: str = "2p"
    suit: str = "m"
    flowers: bool = False
    first_dealer: str = "first_ready"
    round_wind: str = "fixed_east"
    min_fan: int = _DEFAULT
    ting_enabled: bool = True
    ting_auto_hu: bool = True
    turn_timeout_s: int = 20
    claim_timeout_s: int = 10
    auto_trustee_after: int = 2
    base_points: int = 0
    cap_points: int | None = _DEFAULT
    self_drawn_multiplier: int = 1
    discard_multiplier: int = 1
    escape_penalty_points: int = 13

    def __post_init__(self) -> None:
        choices: dict[str, tuple[str, ...]] = {
            "fan_table": ("2p", "gb"),
            "suit": ("m", "p", "s"),
            "first_dealer": ("first_ready", "dice", "random"),
            "round_wind": ("fixed_east", "rotating"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(
                    f"option {name} must be one of {allowed}, not {getattr(self, name)!r}"
                )
        for name in ("flowers", "ting_enabled", "ting_auto_hu"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"option {name} must be true or false")
        if self.min_fan == _DEFAULT:
            object.__setattr__(self, "min_fan", 8 if self.fan_table == "gb" else 0)
        if self.cap_points == _DEFAULT:
            object.__setattr__(self, "cap_points", 13 if self.fan_table == "gb" else None)
        least = {
            "min_fan": 0,
            "turn_timeout_s": 1,
            "claim_timeout_s": 1,
            "auto_trustee_after": 1,
            "base_points": 0,
            "self_drawn_multiplier": 1,
            "discard_multiplier": 1,
            "escape_penalty_points": 0,
        }
        if self.cap_points is not None:
            least["cap_points"] = 0
        for name, low in least.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"option {name} must be a whole number ≥ {low}, not {value!r}")


_VIEW = GuobiaoView()


class GuobiaoFamily(Family):
    """guobiao-2p: one suit + honors (+ flowers), 报听, the `2p` or `gb` fan table."""

    name: ClassVar[str] = "guobiao-2p"
    parts: ClassVar[Mapping[str, str]] = {
        "rules_page": "erren.families.guobiao.rules:PAGE",
        "terminal_scorer": "erren.families.guobiao.cli:SCORER",
        "conformance": "erren.families.guobiao.conformance:ADAPTER",
        "strategy": "erren.families.guobiao.bot.strategy:STRATEGY",
        "rl": "erren.families.guobiao.rl:RL",
    }
    listing_order: ClassVar[int] = 0
    web_module: ClassVar[Path | None] = Path(__file__).resolve().parent / "web" / "family.js"
    point_unit: ClassVar[ScoreUnit] = ScoreUnit.FAN  # 1 番 = 1 分 (§6.1)
    review_bad_loss: ClassVar[float] = 2.0
    """A bad move in the review gives away more than 2 points (番) in expectation: about an
    eighth of a median win (15 in self-play)."""
    options: GuobiaoOptions

    def __init__(self, **options: Any) -> None:
        opts = GuobiaoOptions.parse(self.name, options)
        self.options = opts
        base = "mps".index(opts.suit) * 9
        self.kinds = (*range(base, base + 9), *range(27, 34))
        tiles = [k for k in self.kinds for _ in range(4)]
        if opts.flowers:
            tiles.extend(range(34, 42))
        self.tiles = tuple(tiles)
        self.ting_enabled = opts.ting_enabled
        self.ting_auto_hu = opts.ting_auto_hu
        self.min_fan = opts.min_fan
        self._use_clocks(opts)

    def first_dealer(self, rng: random.Random, first_ready: int) -> int:
        """Option ``first_dealer``: the first seat ready, the higher dice total or random."""
        rule = self.options.first_dealer
        if rule == "dice":
            while True:
                a = rng.randint(1, 6) + rng.randint(1, 6)
                b = rng.randint(1, 6) + rng.randint(1, 6)
                if a != b:
                    return 0 if a > b else 1
        if rule == "random":
            return rng.randrange(2)
        return first_ready

    def escape_penalty(self) -> int:
        return self.options.escape_penalty_points

    def next_round_wind(self, round_wind: Tile, dealer: int, first_dealer: int) -> Tile:
        """Option ``round_wind``: ``fixed_east`` keeps East; ``rotating`` moves to the next wind
        (East, South, West, North, East…) each time the deal comes back to the first dealer."""
        if self.options.round_wind == "rotating" and dealer == first_dealer:
            return _WINDS[(_WINDS.index(round_wind) + 1) % 4]
        return round_wind

    # ------------------------------------------------------------------ scoring glue
    def win_value(self, state: State, claim: WinClaim) -> int | None:
        """The fan total without flowers that 起和 is checked against (§3.5), from the C fan
        calculator (no explanation; ``benchmarks/bench_win_value.py``: about ten times faster
        per call than ``score()``); :meth:`score_win` keeps the explaining ``score()``."""
        from erren.families.guobiao.scoring import score_fast  # noqa: PLC0415

        total, fans = score_fast(claim.hand, _context(claim), table=self.options.fan_table)
        return total - sum(fan.value * count for fan, count in fans if fan.bonus)

    def view(self, state: State, player: int) -> GuobiaoView:
        """No facts beyond the common core (the view names the family)."""
        return _VIEW

    def score_win(self, state: State, claim: WinClaim) -> HandResult:
        opts = self.options
        result = _score(claim, opts.fan_table)
        winner = claim.winner
        self_drawn = claim.self_drawn
        if result is None:  # the fan calculator is missing: the hand still ends correctly
            fans: tuple[tuple[str, int, int], ...] = ()
            total = 0
        else:
            fans = tuple((hit.fan.name, hit.value, hit.count) for hit in result.fans)
            total = int(result.total)
        from erren.families.guobiao.scoring.settlement import settle_win  # noqa: PLC0415

        settlement = settle_win(
            total,
            winner=winner,
            self_drawn=self_drawn,
            options=self.settlement_options(),
            flower_points=0 if result is None else int(result.flower_points),
        )
        points, deltas = settlement.points, settlement.deltas
        return HandResult(
            ResultKind.WIN,
            winner=winner,
            loser=1 - winner,
            how=claim.how,
            hand=claim.hand,
            claim=claim,
            fans=fans,
            fan_total=total,
            points=points,
            deltas=deltas,
            detail=result,
        )

    def settlement_options(self) -> SettlementOptions:
        """The options of :mod:`erren.families.guobiao.scoring.settlement` (points; no stake: the
        server converts points to beans, :mod:`erren.server.settlement`)."""
        from erren.families.guobiao.scoring.settlement import SettlementOptions  # noqa: PLC0415

        opts = self.options
        return SettlementOptions(
            fan_table=opts.fan_table,
            base_points=opts.base_points,
            cap_points=opts.cap_points,
            min_fan=opts.min_fan,
            self_drawn_multiplier=opts.self_drawn_multiplier,
            discard_multiplier=opts.discard_multiplier,
            escape_penalty_points=opts.escape_penalty_points,
        )


def _context(claim: WinClaim) -> Any:
    from erren.families.guobiao.scoring.context import WinContext  # noqa: PLC0415

    return WinContext(
        self_drawn=claim.self_drawn,
        last_copy=claim.last_copy,
        last_tile=claim.last_tile,
        kong_replacement=claim.kong_replacement,
        robbing_kong=claim.how is WinHow.ROBBING,
        seat_wind=Tile.EAST if claim.dealer else Tile.SOUTH,
        round_wind=claim.round_wind,
        flowers=len(claim.hand.flowers),
        ting=claim.ting,
        tianting=claim.tianting,
        tianhu=claim.tianhu,
        dihu=claim.dihu,
    )


def _score(claim: WinClaim, table: str) -> Any:
    """The fan calculator's result for a win, or ``None`` if the calculator is not installed."""
    scorer = _scorer()
    if scorer is None:
        return None
    return scorer(claim.hand, _context(claim), table=table)


@lru_cache(maxsize=1)
def _scorer() -> Any:
    try:
        from erren.families.guobiao.scoring import score  # noqa: PLC0415
    except ImportError:  # pragma: no cover - scoring is part of the package
        return None
    return score


def _factory(**options: Any) -> GuobiaoFamily:
    return GuobiaoFamily(**options)


register_family("guobiao-2p", _factory)
