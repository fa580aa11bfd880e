"""The ``arcade`` family (二人麻将 arcade style, ``arcade.md``): 财神 wilds, the White/Red flower
kind, 报听 with auto-play, the 71-tile live wall with its reserve, the random events and the
post-draw 海底捞月 phase.

The shared state machine runs the turn flow; this module supplies the family's data and hooks:

* the 136-tile stock (R1.3): ``c:shuffle`` records all of it; positions 0–70 are the live wall
  (``head``/``tail``), 71 the wild indicator, 72–135 the reserve; ``c:dice`` records the four
  dice of R1.8 (display only); ``c:seed`` records the seed of the hand's event generator, which
  then decides, in this order (R1.7), the big-bleed deal and every in-play event (pick-any and
  pung-offer rolls, the offered kind, where exchanged tiles go in the reserve) — so a record
  (ruleset + options + actions) replays exactly;
* ``W`` = the indicator's kind, ``F`` = White, or Red when White is wild (R1.9a, R1.10); flowers
  are the tiles of kind ``F``, set aside on arrival and replaced from the tail (from the front
  of the reserve in the exchange and the 海底 phase); a flower replacement counts as a kong's
  (``flower_replacement_is_kong``, N25);
* wins and 报听 with wild tiles (R1.9b, R2.26, R5.1): standard, seven pairs and 国士无双 through
  :func:`erren.analysis.shanten.is_complete` (four-copy limit with the melds), free-form 绿一色;
  no meld uses a wild, a discarded wild is dead (R1.9c, R2.6);
* 报听 (R2.12–R2.13, engine ``ting``): any time, even on an empty wall; the hand is frozen, the
  engine draws and discards, every win chance is asked (``hu``/``zimo`` or ``pass``/``discard``);
* the phases ``EXCHANGE`` (``exchange[:tiles]``, R2.21), ``PICK`` (``pick:X`` or ``pass``, R2.23)
  and ``HAIDI`` (``zimo`` or ``pass``, R2.19); the pung offer (R2.22) is an extra move of the
  turn, ``takepung:abc`` (the three tiles given up), shown to the player in ``offer``;
* timeouts (R2.16) and 托管 (R2.17); the settlement of R2.25 with the real
  :func:`erren.scoring.arcade.score_arcade` result in ``HandResult.detail``; the versus escape
  (R2.25): ``escape_penalty_points × base_points`` points (``HandResult.deltas`` are points:
  a bean table's stake is applied once, by the server).

Multi-tile choices are too many to list: ``legal_actions`` lists for ``exchange`` no exchange,
each single tile and the whole hand, and for ``takepung`` the runs of three neighbouring tiles
of the sorted hand; every other multiset of held tiles is legal too (``State.apply`` accepts it).

Options (``find_ruleset("arcade", **options)``; the defaults are versus mode, §2.11):

===========================  ========  =======================================================
``base_points``              1         ``versus_base_points``: the loser pays ``P ×`` this (R2.25)
``escape_penalty_points``    13        ``versus_escape_penalty_points``: an escaping player pays
                                       this ``× base_points`` points (R2.25); none in stage
                                       mode, where leaving is the campaign's (R3.11)
``opening_exchange``         True      the opening exchange (R2.21) is offered
``pung_offer_prob``          0.03      the pung offer after a normal draw (R2.22)
``pick_any_prob``            0.05      pick-any at a normal draw (R2.23)
``haidi_draws``              3         post-draw 海底捞月 draws (R2.19)
``human_seat``               None      stage mode (R3.2): the seat of the human; the events, the
                                       exchange and the big bleed are then for that seat only,
                                       the computer gets none of them and ``haidi_draws``
``haidi_draws_human``        None      the human's 海底 draws in stage mode (5 from stage 2,
                                       R3.8); ``None``: ``haidi_draws``
``bleed_normal_prob``        0.0       big-bleed deal, normal templates (R3.10, stage 3+: 0.20)
``bleed_yakuman_prob``       0.0       big-bleed deal, yakuman templates (R3.10, stage 4: 0.05)
``bleed_normal_gap``         1         ``g`` of a normal bleed
``bleed_yakuman_gap``        2         ``g`` of a yakuman bleed
``flower_replacement_is_kong`` True    杠上开花 after setting a flower aside (N25)
``turn_timeout_s``           20        ``discard_timeout_s`` (R2.16)
``claim_timeout_s``          10        response and prompt timer
``exchange_timeout_s``       20        opening exchange timer
``auto_trustee_after``       2         ``timeouts_to_autoplay``
===========================  ========  =======================================================

The bleed options need ``human_seat``.  :func:`stage_options` gives the options of stage 1–4
(R3.1): a stage hand is ``State.new(find_ruleset("arcade", **stage_options(stage)), seed=...,
dealer=...)``.

>>> from erren.engine import State, find_ruleset
>>> state = State.new(find_ruleset("arcade"), seed=3)
>>> len(state.wall), state.wall_count <= 71 - 27
(136, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from erren.analysis.shanten import is_complete
from erren.analysis.shapes import ARCADE
from erren.engine.actions import Action, ActionKind
from erren.engine.events import EventKind
from erren.engine.ruleset import Options, Ruleset, register_ruleset
from erren.engine.state import HandResult, Origin, Phase, WinClaim
from erren.engine.views import ArcadeView
from erren.errors import IllegalActionError
from erren.hand import Hand
from erren.melds import MeldKind
from erren.tiles import NUM_KINDS, Tile

if TYPE_CHECKING:
    from erren.engine.state import State

__all__ = [
    "BLEED_NORMAL",
    "BLEED_YAKUMAN",
    "ArcadeData",
    "ArcadeOptions",
    "ArcadeRuleset",
    "bleed_target",
    "stage_options",
]

AK = ActionKind
LIVE = 71
"""``live_wall_tiles`` (R1.3): stock positions 0..70."""
INDICATOR = 71
RESERVE = 72
WHITE, RED = 31, 33
GREEN = frozenset((19, 20, 21, 23, 25, 32))
_TILES = tuple(Tile(i) for i in range(42))
_ALL_KINDS = tuple(range(NUM_KINDS))
_DEAL_POSITIONS = (
    (*range(0, 4), *range(8, 12), *range(16, 20), 24, 26),  # the dealer's 14 (R1.14)
    (*range(4, 8), *range(12, 16), *range(20, 24), 25),  # the non-dealer's 13
)


@dataclass(frozen=True)
class ArcadeOptions(Options):
    """§8 parameters that act inside a hand; the defaults are versus mode (R2.24)."""

    base_points: int = 1
    escape_penalty_points: int = 13
    opening_exchange: bool = True
    pung_offer_prob: float = 0.03
    pick_any_prob: float = 0.05
    haidi_draws: int = 3
    human_seat: int | None = None
    haidi_draws_human: int | None = None
    bleed_normal_prob: float = 0.0
    bleed_yakuman_prob: float = 0.0
    bleed_normal_gap: int = 1
    bleed_yakuman_gap: int = 2
    flower_replacement_is_kong: bool = True
    turn_timeout_s: int = 20
    claim_timeout_s: int = 10
    exchange_timeout_s: int = 20
    auto_trustee_after: int = 2

    def __post_init__(self) -> None:
        for name in ("opening_exchange", "flower_replacement_is_kong"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"option {name} must be true or false")
        for name in ("pung_offer_prob", "pick_any_prob", "bleed_normal_prob", "bleed_yakuman_prob"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise ValueError(f"option {name} must be a probability 0..1, not {value!r}")
        if self.bleed_normal_prob + self.bleed_yakuman_prob > 1:
            raise ValueError("bleed_normal_prob + bleed_yakuman_prob must be ≤ 1")
        least = {
            "base_points": 1,
            "escape_penalty_points": 0,
            "haidi_draws": 0,
            "bleed_normal_gap": 0,
            "bleed_yakuman_gap": 0,
            "turn_timeout_s": 1,
            "claim_timeout_s": 1,
            "exchange_timeout_s": 1,
            "auto_trustee_after": 1,
        }
        if self.haidi_draws_human is not None:
            least["haidi_draws_human"] = 0
        for name, low in least.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"option {name} must be a whole number ≥ {low}, not {value!r}")
        for name in ("bleed_normal_gap", "bleed_yakuman_gap"):
            if getattr(self, name) > 12:
                raise ValueError(f"option {name} must be ≤ 12")
        if self.human_seat not in (None, 0, 1):
            raise ValueError(f"option human_seat must be 0, 1 or null, not {self.human_seat!r}")
        if self.human_seat is None and (self.bleed_normal_prob or self.bleed_yakuman_prob):
            raise ValueError("the big-bleed deal is a stage feature: set human_seat (R3.10)")


def stage_options(stage: int, *, human_seat: int = 0) -> dict[str, Any]:
    """The in-hand options of stage ``stage`` (1–4) of stage mode (R3.1, §8)."""
    if stage not in (1, 2, 3, 4):
        raise ValueError("stages are 1..4")
    return {
        "human_seat": human_seat,
        "opening_exchange": stage >= 2,
        "pung_offer_prob": 0.0,
        "pick_any_prob": 0.05 if stage >= 3 else 0.0,
        "haidi_draws": 3,
        "haidi_draws_human": 5 if stage >= 2 else 3,
        "bleed_normal_prob": 0.20 if stage >= 3 else 0.0,
        "bleed_yakuman_prob": 0.05 if stage >= 4 else 0.0,
    }


class ArcadeData:
    """The per-hand data of an arcade hand (``state.family``)."""

    __slots__ = (
        "baoting_kind",
        "baoting_seq",
        "bleed",
        "bleed_seat",
        "dealt_ready",
        "discard_no",
        "exchanged",
        "flower",
        "haidi_left",
        "haidi_player",
        "haidi_replaced",
        "offer",
        "pung_kind",
        "reserve",
        "rng",
        "wild",
    )

    def __init__(self, wild: int) -> None:
        self.wild = wild
        self.flower = RED if wild == WHITE else WHITE
        self.rng = random.Random(0)
        self.reserve = RESERVE
        """The front of the reserve: ``wall[reserve:]`` is what is left of it."""
        self.offer = [-1, -1]
        self.pung_kind = [-1, -1]
        """The kind of a pung offer ``p`` accepted this turn: a self-drawn win's winning tile
        (R2.4); ``-1``: none.  ``last_added`` stays the tile drawn (R2.15, R2.16)."""
        self.dealt_ready = [False, False]
        """Whether the 13 ``p`` held before that turn's draw were ready (R2.15's dealt 13)."""
        self.exchanged = [False, False]
        self.baoting_seq = [-1, -1]
        self.baoting_kind = ["", ""]
        self.discard_no = 0
        self.haidi_player = -1
        self.haidi_left = 0
        self.haidi_replaced = False
        self.bleed = ""
        self.bleed_seat = -1

    def clone(self) -> ArcadeData:
        new = object.__new__(ArcadeData)
        for name in self.__slots__:
            setattr(new, name, getattr(self, name))
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.offer = list(self.offer)
        new.pung_kind = list(self.pung_kind)
        new.dealt_ready = list(self.dealt_ready)
        new.exchanged = list(self.exchanged)
        new.baoting_seq = list(self.baoting_seq)
        new.baoting_kind = list(self.baoting_kind)
        return new

    def observed(self, state: State, player: int) -> dict[str, Any]:
        """The arcade fields of ``player``'s :class:`~erren.engine.Observation`."""
        return {
            "wild": _TILES[self.wild],
            "flower_kind": _TILES[self.flower],
            "reserve_count": len(state.wall) - self.reserve,
            "offer": _TILES[self.offer[player]] if self.offer[player] >= 0 else None,
            "baoting": (self.baoting_kind[0], self.baoting_kind[1]),
            "haidi_player": self.haidi_player if self.haidi_player >= 0 else None,
            "haidi_left": self.haidi_left,
            "bleed": self.bleed if player == self.bleed_seat else "",
        }

    def fingerprint(self) -> tuple[object, ...]:
        return (
            self.wild,
            self.reserve,
            tuple(self.offer),
            tuple(self.pung_kind),
            tuple(self.dealt_ready),
            tuple(self.exchanged),
            tuple(self.baoting_seq),
            tuple(self.baoting_kind),
            self.discard_no,
            self.haidi_player,
            self.haidi_left,
            self.bleed,
            self.rng.getstate(),
        )


def _data(state: State) -> ArcadeData:
    return state.family  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------- big bleed
def _rset(rng: random.Random, kinds: tuple[int, ...] = _ALL_KINDS) -> list[int]:
    """A random set (sequence or pung) among the sets of ``kinds``."""
    options: list[list[int]] = [[k, k, k] for k in kinds]
    options += [[k, k + 1, k + 2] for k in kinds if k < 27 and k % 9 <= 6 and k + 2 in kinds]
    return list(rng.choice(options))


def _suit(rng: random.Random) -> tuple[int, ...]:
    base = 9 * rng.randrange(3)
    return tuple(range(base, base + 9))


def _t_qingyise(rng: random.Random) -> list[int]:
    s = _suit(rng)
    k = rng.choice(s)
    return [*_rset(rng, s), *_rset(rng, s), *_rset(rng, s), *_rset(rng, s), k, k]


def _t_hunyise(rng: random.Random) -> list[int] | None:
    kinds = _suit(rng) + tuple(range(27, 34))
    groups = [_rset(rng, kinds) for _ in range(4)]
    k = rng.choice(kinds)
    groups.append([k, k])
    honor = sum(1 for g in groups if g[0] >= 27)
    if honor < 1 or len(groups) - honor < 2:
        return None
    return [t for g in groups for t in g]


def _t_ittsu(rng: random.Random) -> list[int]:
    b = 9 * rng.randrange(3)
    k = rng.randrange(34)
    return [*range(b, b + 9), *_rset(rng), k, k]


def _t_sanshoku(rng: random.Random) -> list[int]:
    n = rng.randrange(7)
    k = rng.randrange(34)
    return [*(b + n + i for b in (0, 9, 18) for i in range(3)), *_rset(rng), k, k]


def _t_sanshoku_pung(rng: random.Random) -> list[int]:
    n = rng.randrange(9)
    k = rng.randrange(34)
    return [*(b + n for b in (0, 9, 18) for _ in range(3)), *_rset(rng), k, k]


def _t_toitoi(rng: random.Random) -> list[int]:
    kinds = rng.sample(range(34), 5)
    return [*(k for k in kinds[:4] for _ in range(3)), kinds[4], kinds[4]]


def _t_chiitoi(rng: random.Random) -> list[int]:
    return [k for k in rng.sample(range(34), 7) for _ in range(2)]


def _t_junchan(rng: random.Random) -> list[int] | None:
    sets = []
    for _ in range(4):
        b = 9 * rng.randrange(3)
        sets.append(rng.choice(([b, b + 1, b + 2], [b + 6, b + 7, b + 8], [b] * 3, [b + 8] * 3)))
    if all(s[0] == s[1] for s in sets):
        return None
    k = rng.choice((0, 8, 9, 17, 18, 26))
    return [*(t for s in sets for t in s), k, k]


def _t_ryanpeikou(rng: random.Random) -> list[int]:
    seqs = [k for k in range(27) if k % 9 <= 6]
    a, b = rng.choice(seqs), rng.choice(seqs)
    k = rng.randrange(34)
    first = [a, a + 1, a + 2]
    second = [b, b + 1, b + 2]
    return [*first, *first, *second, *second, k, k]


def _t_daisuushi(rng: random.Random) -> list[int]:
    k = rng.randrange(34)
    return [*(w for w in range(27, 31) for _ in range(3)), k, k]


def _t_shousuushi(rng: random.Random) -> list[int]:
    pair = rng.randrange(27, 31)
    return [*(w for w in range(27, 31) if w != pair for _ in range(3)), pair, pair, *_rset(rng)]


def _t_tsuuiisou(rng: random.Random) -> list[int]:
    kinds = rng.sample(range(27, 34), 5)
    return [*(k for k in kinds[:4] for _ in range(3)), kinds[4], kinds[4]]


def _t_suuankou(rng: random.Random) -> list[int]:
    kinds = [rng.randrange(34) for _ in range(5)]
    return [*(k for k in kinds[:4] for _ in range(3)), kinds[4], kinds[4]]


def _t_chinroutou(rng: random.Random) -> list[int]:
    kinds = rng.sample((0, 8, 9, 17, 18, 26), 5)
    return [*(k for k in kinds[:4] for _ in range(3)), kinds[4], kinds[4]]


def _t_ryuuiisou(rng: random.Random) -> list[int]:
    green = (19, 20, 21, 23, 25, 32)
    sets = [[19, 20, 21], *([k] * 3 for k in green)]
    k = rng.choice(green)
    return [*(t for _ in range(4) for t in rng.choice(sets)), k, k]


def _t_chuuren(rng: random.Random) -> list[int]:
    b = 9 * rng.randrange(3)
    return [b, b, b, *range(b + 1, b + 8), b + 8, b + 8, b + 8, b + rng.randrange(9)]


def _t_suurenkou(rng: random.Random) -> list[int]:
    b = 9 * rng.randrange(3) + rng.randrange(6)
    k = rng.randrange(34)
    return [*(b + i for i in range(4) for _ in range(3)), k, k]


def _t_hyakumangoku(rng: random.Random) -> list[int]:
    return [5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 4, 4]


def _t_shinkansen(rng: random.Random) -> list[int]:
    b = 9 * rng.randrange(3)
    tail = [27, 27, 27, 30, 30] if rng.randrange(2) == 0 else [30, 30, 30, 27, 27]
    return [*range(b, b + 9), *tail]


def _t_daisharin(rng: random.Random) -> list[int]:
    b = 9 * rng.randrange(3)
    return [b + i for i in range(1, 8) for _ in range(2)]


def _t_peacock(rng: random.Random) -> list[int]:
    return [18, 18, 18, 22, 22, 22, 24, 24, 24, 26, 26, 26, 33, 33]


BLEED_NORMAL = (
    ("清一色", _t_qingyise),
    ("混一色", _t_hunyise),
    ("一气通贯", _t_ittsu),
    ("三色同顺", _t_sanshoku),
    ("三色同刻", _t_sanshoku_pung),
    ("碰碰胡", _t_toitoi),
    ("七对子", _t_chiitoi),
    ("纯全带幺", _t_junchan),
    ("两杯口", _t_ryanpeikou),
)
"""R3.10's normal-bleed templates: name and a sampler (``None`` or an invalid fill is redrawn)."""
BLEED_YAKUMAN = (
    ("大四喜", _t_daisuushi),
    ("小四喜", _t_shousuushi),
    ("字一色", _t_tsuuiisou),
    ("四暗刻", _t_suuankou),
    ("清老头", _t_chinroutou),
    ("绿一色", _t_ryuuiisou),
    ("九莲宝灯", _t_chuuren),
    ("四连刻", _t_suurenkou),
    ("百万石", _t_hyakumangoku),
    ("东北新干线", _t_shinkansen),
    ("大车轮", _t_daisharin),
    ("红孔雀", _t_peacock),
)
"""R3.10's yakuman-bleed templates."""
_TRIES = 2000


def _valid_fill(tiles: list[int] | None, banned: tuple[int, int]) -> bool:
    if tiles is None or len(tiles) != 14:
        return False
    counts = [0] * NUM_KINDS
    for t in tiles:
        if t in banned:
            return False
        counts[t] += 1
    return max(counts) <= 4


def _feasible(sampler: Any, banned: tuple[int, int]) -> bool:
    """Whether a template can be filled without ``W`` and ``F`` (a fixed local generator, so
    that the hand's generator is used only for the choices of R3.10)."""
    rng = random.Random(0)
    return any(_valid_fill(sampler(rng), banned) for _ in range(_TRIES))


def bleed_target(
    rng: random.Random, yakuman: bool, wild: int, flower: int
) -> tuple[str, list[int]] | None:
    """R3.10 steps 2–3: a feasible template of the type, chosen uniformly, and a random fill
    ``T`` (14 kinds) showing it; ``None`` if no template is feasible."""
    banned = (wild, flower)
    table = BLEED_YAKUMAN if yakuman else BLEED_NORMAL
    feasible = [(name, f) for name, f in table if _feasible(f, banned)]
    if not feasible:
        return None
    name, sampler = rng.choice(feasible)
    for _ in range(_TRIES * 5):
        tiles = sampler(rng)
        if _valid_fill(tiles, banned):
            return name, sorted(tiles)  # type: ignore[arg-type]
    return None  # pragma: no cover - feasible templates fill quickly


def _bleed(state: State, d: ArcadeData, human: int, opts: ArcadeOptions) -> None:
    """R3.10: the rigged deal of the human, drawn from the hand's event generator."""
    rng = d.rng
    u = rng.random()
    py, pn = opts.bleed_yakuman_prob, opts.bleed_normal_prob
    if u < py:
        yakuman, gap = True, opts.bleed_yakuman_gap
    elif u < py + pn:
        yakuman, gap = False, opts.bleed_normal_gap
    else:
        return
    found = bleed_target(rng, yakuman, d.wild, d.flower)
    if found is None:
        return
    name, target = found
    hand = list(target)
    for i in sorted(rng.sample(range(14), gap + 1), reverse=True):
        del hand[i]
    counts = [0] * NUM_KINDS
    for t in hand:
        counts[t] += 1
    size = 14 if human == state.dealer else 13
    while len(hand) < size:
        pool = [
            k for k in range(NUM_KINDS) if k not in (d.wild, d.flower) for _ in range(4 - counts[k])
        ]
        t = rng.choice(pool)
        counts[t] += 1
        hand.append(t)
    _place(state, _DEAL_POSITIONS[0 if human == state.dealer else 1], hand)
    d.bleed = name
    d.bleed_seat = human


def _place(state: State, positions: tuple[int, ...], tiles: list[int]) -> None:
    """R3.10 step 5: swap tiles so that ``positions`` hold exactly ``tiles`` (the indicator
    stays)."""
    wall = state.wall
    need = [0] * 42
    for t in tiles:
        need[t] += 1
    wrong = []
    for pos in positions:
        t = wall[pos]
        if need[t] > 0:
            need[t] -= 1
        else:
            wrong.append(pos)
    inside = set(positions)
    for pos in wrong:
        want = next(k for k in range(42) if need[k] > 0)
        need[want] -= 1
        src = next(
            i
            for i in range(len(wall) - 1, -1, -1)
            if i != INDICATOR and i not in inside and wall[i] == want
        )
        wall[pos], wall[src] = wall[src], wall[pos]


# ---------------------------------------------------------------------------- the ruleset
class ArcadeRuleset(Ruleset):
    """arcade: 136 tiles, 71 live; 财神; White/Red flowers; 报听; events; 海底捞月."""

    name: ClassVar[str] = "arcade"
    options: ArcadeOptions
    chance_plan = (ActionKind.SHUFFLE, ActionKind.DICE, ActionKind.SEED)
    ting_enabled = True
    ting_auto_hu = False

    def __init__(self, **options: Any) -> None:
        opts = ArcadeOptions.parse(self.name, options)
        self.options = opts
        self.kinds = _ALL_KINDS
        self.tiles = tuple(k for k in range(NUM_KINDS) for _ in range(4))
        self._use_clocks(opts)
        self.exchange_timeout_s = opts.exchange_timeout_s

    # ------------------------------------------------------------------ chance and setup
    def sample_chance(self, state: State, kind: ActionKind, rng: random.Random) -> Action:
        if kind is AK.DICE:  # R1.8: the dealer's roll, then the second roller's
            return Action.dice(*(rng.randint(1, 6) for _ in range(4)))
        if kind is AK.SEED:
            return Action.seed(rng.getrandbits(63))
        return super().sample_chance(state, kind, rng)

    def after_chance(self, state: State, action: Action, step: int) -> None:
        if step == 1:  # R1.3: cut the stock, reveal the indicator, fix W and F
            state.tail = LIVE - 1
            d = ArcadeData(state.wall[INDICATOR])
            state.family = d
            state.indicator = d.wild
            state.flower_kind = d.flower
            state.flower_kong = self.options.flower_replacement_is_kong
            state._event(EventKind.WILD, -1, d.wild, data={"flower": str(_TILES[d.flower])})
        elif step == 3:
            d = _data(state)
            d.rng = random.Random(action.data[0])
            human = self.options.human_seat
            if human is not None and (
                self.options.bleed_normal_prob or self.options.bleed_yakuman_prob
            ):
                _bleed(state, d, human, self.options)
            state.deal_tiles()  # R1.14: the deal and the opening flowers from the tail
            self._next_exchange(state, state.dealer)

    def _events_for(self, state: State, p: int) -> bool:
        """R2.20, R3.2: events go to a player not in 报听 or 托管 (in stage mode: the human)."""
        human = self.options.human_seat
        return (human is None or p == human) and not state.ting[p] and not state.trustee[p]

    def _next_exchange(self, state: State, p: int) -> None:
        """R1.14 step 3 / R2.21: the dealer's exchange, then the non-dealer's, then play."""
        if self.options.opening_exchange:
            order = (state.dealer, 1 - state.dealer)
            for seat in order[order.index(p) :]:
                if self._events_for(state, seat) and not _data(state).exchanged[seat]:
                    state.phase = Phase.EXCHANGE
                    state.actor = seat
                    state.origin = None
                    state._legal = None
                    state._run_auto()
                    return
        state.start_play()

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
        if result.kind == "win" and result.winner is not None:
            if result.winner == dealer:
                return dealer, streak + 1
            return result.winner, 0
        return dealer, streak

    # ------------------------------------------------------------------ hand tests
    def hand_complete(self, state: State, p: int, h: list[int]) -> bool:
        """R5.1: ``h`` (a 14-form, physical kinds) with ``p``'s melds is complete."""
        w = _data(state).wild
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
        w = _data(state).wild
        h[w] += 1
        try:
            return self.hand_complete(state, p, h)
        finally:
            h[w] -= 1

    def can_win(self, state: State, p: int, tile: int, how: str) -> bool:
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
        """R2.4: 自摸, 暗杠, 加杠, discard, 报听 (any time), the pung offer."""
        d = _data(state)
        h = state.hands[p]
        out: list[Action] = []
        free = state.origin is not Origin.CLAIM
        if free and self.can_win(state, p, -1, "zimo"):
            out.append(Action.make(AK.ZIMO, p))
        if state.ting[p]:  # R2.13: frozen; the drawn tile goes unless the win is taken
            out.append(Action.make(AK.DISCARD, p, state.last_added[p]))
            return out
        held = [k for k in _ALL_KINDS if h[k]]
        if free and state.head <= state.tail:
            for k in held:
                if h[k] == 4 and k != d.wild:
                    out.append(Action.make(AK.AN_GANG, p, k))
            for m in state.melds[p]:
                if m.kind is MeldKind.PENG and h[m.tiles[0]]:
                    out.append(Action.make(AK.JIA_GANG, p, int(m.tiles[0])))
        out += [Action.make(AK.DISCARD, p, k) for k in held]
        for k in held:
            h[k] -= 1
            ok = self.ready(state, p, h)
            h[k] += 1
            if ok:
                out.append(Action.make(AK.TING, p, k))
        if d.offer[p] >= 0:
            tiles = [k for k in _ALL_KINDS for _ in range(h[k])]
            seen = set()
            for i in range(len(tiles) - 2):
                give = tuple(tiles[i : i + 3])
                if give not in seen:
                    seen.add(give)
                    out.append(Action.tiles_action(AK.TAKE_PUNG, p, give))
        return out

    def claim_options(self, state: State, q: int, x: int) -> list[Action]:
        """R2.6–R2.7: nothing on a wild; only a win on the last discard; natural tiles only."""
        w = _data(state).wild
        if x == w:
            return []
        out: list[Action] = []
        if self.can_win(state, q, x, "discard"):
            out.append(Action.make(AK.HU, q))
        if not state.ting[q] and state.head <= state.tail:
            h = state.hands[q]
            c = h[x]
            if c == 3:
                out.append(Action.make(AK.MING_GANG, q))
            if c >= 2:
                out.append(Action.make(AK.PENG, q))
            if x < 27:
                r = x % 9
                for start in (x - 2, x - 1, x):
                    if start < x - r or start > x - r + 6:
                        continue
                    others = [t for t in (start, start + 1, start + 2) if t != x]
                    if all(h[t] and t != w for t in others):
                        out.append(Action.make(AK.CHI, q, start))
        if out:
            out.append(Action.make(AK.PASS, q))
        return out

    def phase_actions(self, state: State, player: int) -> list[Action]:
        phase = state.phase
        if phase is Phase.HAIDI:  # pass-only under claim_privacy when the draw misses
            if self.hand_complete(state, player, state.hands[player]):
                return [Action.make(AK.ZIMO, player), Action.make(AK.PASS, player)]
            return [Action.make(AK.PASS, player)]
        if phase is Phase.EXCHANGE:
            h = state.hands[player]
            held = [k for k in _ALL_KINDS if h[k]]
            out = [Action.tiles_action(AK.EXCHANGE, player, ())]
            out += [Action.tiles_action(AK.EXCHANGE, player, (k,)) for k in held]
            everything = [k for k in held for _ in range(h[k])]
            out.append(Action.tiles_action(AK.EXCHANGE, player, everything))
            return out
        if phase is Phase.PICK:
            seen = self._seen(state, player)
            out = [Action.make(AK.PICK, player, k) for k in _ALL_KINDS if seen[k] < 4]
            out.append(Action.make(AK.PASS, player))
            return out
        return []

    def _seen(self, state: State, p: int) -> list[int]:
        """The copies of each kind ``p`` can see (hand, pools, melds, flowers, indicator)."""
        seen = list(state.hands[p])
        for seat in (0, 1):
            claimed = state.claimed[seat]
            for i, t in enumerate(state.discards[seat]):
                if i not in claimed:
                    seen[t] += 1
            for m in state.melds[seat]:
                if seat == p or m.kind is not MeldKind.AN_GANG:
                    for t in m.tiles:
                        seen[t] += 1
            for t in state.flowers[seat]:
                seen[t] += 1
        seen[_data(state).wild] += 1
        return seen

    def accepts(self, state: State, action: Action) -> bool:
        """Exchanges and pung-offer answers with any multiset of held tiles (R2.21, R2.22)."""
        kind, p = action.kind, action.player
        if kind is AK.EXCHANGE:
            ok_phase = state.phase is Phase.EXCHANGE
        elif kind is AK.TAKE_PUNG:
            ok_phase = (
                state.phase is Phase.TURN and _data(state).offer[p] >= 0 and len(action.data) == 3
            )
        else:
            return False
        if not ok_phase:
            return False
        need = [0] * NUM_KINDS
        for t in action.data:
            need[t] += 1
        h = state.hands[p]
        return all(need[k] <= h[k] for k in _ALL_KINDS)

    # ------------------------------------------------------------------ pool helpers
    def _pool_positions(self, state: State, kind: int) -> list[int]:
        """Stock positions of ``kind`` in the unseen pool: reserve copies first (front to back),
        then live-wall copies nearest the tail (R2.22 step 3, R2.23 step 3)."""
        wall = state.wall
        r = _data(state).reserve
        out = [i for i in range(r, len(wall)) if wall[i] == kind]
        out += [i for i in range(state.tail, state.head - 1, -1) if wall[i] == kind]
        return out

    # ------------------------------------------------------------------ transitions
    def before_draw(self, state: State, q: int) -> bool:
        """R2.23: with ``pick_any_prob`` the player may name the kind of his normal draw."""
        prob = self.options.pick_any_prob
        if prob <= 0 or not self._events_for(state, q):
            return False
        if _data(state).rng.random() >= prob:
            return False
        state.phase = Phase.PICK
        state.actor = q
        state.origin = None
        state._legal = None
        state._event(EventKind.PICK_OFFER, q)
        return True

    def after_draw(self, state: State, p: int) -> None:
        """R2.22: after a normal draw, the pung offer with ``pung_offer_prob``."""
        d = _data(state)
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
        eligible = [k for k in _ALL_KINDS if k not in (d.wild, d.flower) and pool[k] >= 3]
        if not eligible:
            return
        k = d.rng.choice(eligible)
        d.offer[p] = k
        state._legal = None
        state._event(EventKind.PUNG_OFFER, p, k, private=True)

    def after_discard(self, state: State, p: int, x: int) -> None:
        """R2.12: record the 报听 declaration (sequence number and kind)."""
        d = _data(state)
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
        d = _data(state)
        phase = state.phase
        if phase is Phase.EXCHANGE:
            self._exchange(state, p, list(action.data), auto)
            return True
        if phase is Phase.PICK:
            self._pick(state, p, -1 if kind is AK.PASS else int(action.tile), auto)  # type: ignore[arg-type]
            return True
        if phase is Phase.HAIDI:
            if kind is AK.ZIMO:
                state._win(p, -1, "zimo", auto)
            else:
                state._event(EventKind.PASS, p, auto=auto)
                self._haidi_discard(state, p, auto=True)
                self._haidi_next(state)
            return True
        if kind is AK.TAKE_PUNG:
            self._take_pung(state, p, list(action.data), auto)
            return True
        if phase is Phase.TURN and kind is not AK.ZIMO:
            d.offer[p] = -1  # any other move of the turn declines the offer
        return False

    def _receive(self, state: State, p: int, *, why: str) -> int:
        """One tile from the front of the reserve into ``p``'s hand, flowers set aside and
        replaced from the reserve (R1.13)."""
        d = _data(state)
        wall = state.wall
        replaced = False
        while True:
            t = wall[d.reserve]
            d.reserve += 1
            if t == d.flower:
                state.flowers[p].append(t)
                state._event(EventKind.FLOWER, p, t, data={"during": why})
                replaced = True
                continue
            state.hands[p][t] += 1
            state.last_added[p] = t
            d.haidi_replaced = replaced
            return t

    def _exchange(self, state: State, p: int, give: list[int], auto: bool) -> None:
        """R2.21: the given tiles out, as many from the reserve's front in, then the given
        tiles into the reserve at random positions."""
        d = _data(state)
        h = state.hands[p]
        for t in give:
            h[t] -= 1
        got = [self._receive(state, p, why="exchange") for _ in give]
        rest = state.wall[d.reserve :]
        for t in give:
            rest.insert(d.rng.randrange(len(rest) + 1), t)
        d.reserve -= len(give)
        state.wall[d.reserve :] = rest
        d.exchanged[p] = True
        state._event(
            EventKind.EXCHANGE,
            p,
            tiles=tuple(sorted(got)),
            private=True,
            auto=auto,
            data={"count": len(give)},
        )
        self._next_exchange(state, 1 - p if p == state.dealer else p)

    def _pick(self, state: State, q: int, kind: int, auto: bool) -> None:
        """R2.23: swap a copy of ``kind`` (the reserve's first, else the live wall's nearest
        the tail) into the head, then the normal draw from the head (``F``: set aside and
        replaced from the tail).  With no copy left in the live wall or the reserve the draw
        is the ordinary one.  The ``pick`` event's ``tile`` is the named kind and its
        ``tiles`` what came of it: ``(kind,)`` a copy, ``()`` none left — both private, so the
        opponent sees the same event either way (whether a copy was left is about the hidden
        tiles)."""
        if kind >= 0:
            where = self._pool_positions(state, kind)
            if where:
                src = where[0]
                wall = state.wall
                wall[src], wall[state.head] = wall[state.head], wall[src]
            got = (kind,) if where else ()
            state._event(EventKind.PICK, q, kind, tiles=got, private=True, auto=auto)
        else:
            state._event(EventKind.PASS, q, auto=auto)
        if state._draw(q, back=False, kong=False):
            state._turn_after_draw(q, Origin.DRAW)

    def _take_pung(self, state: State, p: int, give: list[int], auto: bool) -> None:
        """R2.22: the three offered tiles for the three given, position for position.  The
        offered tiles join the hand without being drawn: ``last_added`` stays the tile drawn
        (for 天听 and the timeout, R2.15, R2.16), or ``-1`` when every tile of its kind went in
        the swap; the offered kind is a self-draw's winning tile (R2.4, ``pung_kind``)."""
        d = _data(state)
        k = d.offer[p]
        d.offer[p] = -1
        where = self._pool_positions(state, k)[:3]
        h = state.hands[p]
        drawn = state.last_added[p]
        d.pung_kind[p] = k
        d.dealt_ready[p] = False
        if p != state.dealer and state.n_discards[p] == 0 and not state.melds[p] and drawn >= 0:
            dealt = list(h)
            dealt[drawn] -= 1
            d.dealt_ready[p] = self.ready(state, p, dealt)
        for pos, t in zip(where, give, strict=True):
            state.wall[pos] = t
            h[t] -= 1
        h[k] += 3
        if drawn >= 0 and not h[drawn]:
            state.last_added[p] = -1  # the tile drawn went in the swap: none is left to show
        state._event(EventKind.TAKE_PUNG, p, k, tiles=tuple(sorted(give)), private=True, auto=auto)

    def on_exhausted(self, state: State) -> bool:
        """R2.18: the 海底 player (the 报听 player, the first to declare if both) draws."""
        d = _data(state)
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
        state._event(EventKind.HAIDI, w, data={"draws": n})
        self._haidi_next(state)
        return True

    def _haidi_next(self, state: State) -> None:
        """R2.19: the next post-draw draw; a completing tile asks, any other is discarded (with
        ``claim_privacy`` every draw asks, ``pass`` alone when it misses)."""
        d = _data(state)
        w = d.haidi_player
        while d.haidi_left > 0 and d.reserve < len(state.wall):
            d.haidi_left -= 1
            t = self._receive(state, w, why="haidi")
            state._event(EventKind.DRAW, w, t, private=True, data={"from": "haidi"})
            if self.claim_privacy or self.hand_complete(state, w, state.hands[w]):
                state.phase = Phase.HAIDI
                state.actor = w
                state.origin = Origin.DRAW
                state._legal = None
                return
            self._haidi_discard(state, w, auto=True)
        state.result = HandResult("draw")
        state._event(EventKind.HUANGZHUANG, -1)
        state._finish()

    def _haidi_discard(self, state: State, w: int, *, auto: bool) -> None:
        t = state.last_added[w]
        state.hands[w][t] -= 1
        state.discards[w].append(t)
        state.visible[t] += 1
        state.n_discards[w] += 1
        state._event(EventKind.DISCARD, w, t, auto=auto, data={"why": "haidi"})

    # ------------------------------------------------------------------ timeouts, 托管
    def auto_move(self, state: State, p: int) -> Action | None:
        """R2.13 (报听: every win is asked, the rest is played) and R2.17 (托管: wins, never
        claims, kongs or declares, discards the drawn tile, declines events)."""
        trustee = state.trustee[p]
        phase = state.phase
        legal = state.legal_actions(p)
        wins = [a for a in legal if a.kind in (AK.ZIMO, AK.HU)]
        if wins:
            return wins[0] if trustee else None
        if phase is Phase.TURN:
            if state.ting[p] and not trustee:
                return Action.make(AK.DISCARD, p, state.last_added[p])
            return Action.make(AK.DISCARD, p, self.auto_discard(state, p))
        if phase is Phase.EXCHANGE:
            return Action.tiles_action(AK.EXCHANGE, p, ())
        return Action.make(AK.PASS, p)

    def default_move(self, state: State, p: int) -> Action:
        """R2.16: a win prompt times out into the win, an ACTION into the drawn tile (or the
        rightmost tile), every other prompt into pass / no exchange."""
        phase = state.phase
        legal = state.legal_actions(p)
        if phase is Phase.TURN:
            if state.ting[p]:
                return legal[0]  # the asked 自摸, or the drawn tile
            return Action.make(AK.DISCARD, p, self.auto_discard(state, p))
        wins = [a for a in legal if a.kind in (AK.ZIMO, AK.HU)]
        if wins:
            return wins[0]
        if phase is Phase.EXCHANGE:
            return Action.tiles_action(AK.EXCHANGE, p, ())
        return Action.make(AK.PASS, p)

    def auto_discard(self, state: State, p: int) -> int:
        """R2.16: the tile just drawn (still the drawn one after an accepted pung offer, never
        an offered tile; none if all of its kind went in the swap); else the rightmost in
        canonical order (wilds leftmost, then m, p, s, z by index)."""
        h = state.hands[p]
        last = state.last_added[p]
        if state.origin in (Origin.DRAW, Origin.REPLACEMENT) and last >= 0 and h[last]:
            return last
        w = _data(state).wild
        for k in range(NUM_KINDS - 1, -1, -1):
            if h[k] and k != w:
                return k
        return w

    # ------------------------------------------------------------------ refusals
    def diagnose(self, state: State, action: Action) -> IllegalActionError | None:
        """Why the acting seat's ``action`` is refused, from its own tiles and choices (the
        state answers a seat that is not to act)."""
        kind, p = action.kind, action.player
        d = _data(state)
        w = d.wild
        phase = state.phase
        t = -1 if action.tile is None else int(action.tile)
        h = state.hands[p]
        if kind in (AK.EXCHANGE, AK.PICK, AK.TAKE_PUNG) or phase in (
            Phase.EXCHANGE,
            Phase.PICK,
            Phase.HAIDI,
        ):
            if kind is AK.EXCHANGE and phase is not Phase.EXCHANGE:
                return IllegalActionError(
                    "no-exchange", f"{action}: the opening exchange is over or off (R2.21)"
                )
            if kind is AK.PICK and phase is not Phase.PICK:
                return IllegalActionError(
                    "no-pick-offer", f"{action}: pick-any was not offered for this draw (R2.23)"
                )
            if kind is AK.TAKE_PUNG and (phase is not Phase.TURN or d.offer[p] < 0):
                return IllegalActionError(
                    "no-pung-offer", f"{action}: no pung offer was made this turn (R2.22)"
                )
            if kind in (AK.EXCHANGE, AK.TAKE_PUNG):
                return IllegalActionError(
                    "tile-not-held", f"{action}: you do not hold all of those tiles"
                )
            legal = ", ".join(str(a) for a in state.legal_actions(p)[:8])
            return IllegalActionError(
                "not-now", f"{action}: you may only choose among {legal}… now (§2.2)"
            )
        if kind in (AK.PENG, AK.CHI, AK.MING_GANG, AK.HU) and phase is Phase.CLAIM:
            if self._wild_meld(state, action, state.pending):
                return IllegalActionError(
                    "wild-in-meld", f"{action}: a wild 财神 is never part of a meld (R1.9c)"
                )
            if kind is not AK.HU and state.head > state.tail:
                return IllegalActionError(
                    "last-discard", f"{action}: the last discard may only be won on (R2.7)"
                )
        if kind in (AK.PENG, AK.CHI, AK.MING_GANG, AK.HU) and phase is Phase.TURN:
            last = state.discards[1 - p][-1] if state.discards[1 - p] else -1
            if last == w:
                return IllegalActionError(
                    "dead-wild", f"{action}: a discarded wild is dead: no claim, no win (R1.9c)"
                )
            if last >= 0 and self._wild_meld(state, action, last):
                return IllegalActionError(
                    "wild-in-meld", f"{action}: a wild 财神 is never part of a meld (R1.9c)"
                )
        if kind is AK.AN_GANG and t == w:
            return IllegalActionError(
                "wild-in-meld", f"{action}: wild tiles are never used in a kong (R1.9c)"
            )
        if kind is AK.TING and phase is Phase.TURN and not state.ting[p] and t >= 0 and h[t]:
            return IllegalActionError(
                "not-ready", f"{action}: the 13 tiles left would not be ready (R2.4, R2.26)"
            )
        return None

    def _wild_meld(self, state: State, action: Action, x: int) -> bool:
        """Whether claiming ``x`` with ``action`` would need a wild tile (R1.9c)."""
        w = _data(state).wild
        h = state.hands[action.player]
        if action.kind is AK.CHI and action.tile is not None:
            t = int(action.tile)
            others = [k for k in (t, t + 1, t + 2) if k != x]
            return len(others) == 2 and w in others and all(h[k] for k in others)
        if action.kind in (AK.PENG, AK.MING_GANG):
            need = 2 if action.kind is AK.PENG else 3
            return h[x] < need <= h[x] + h[w]
        return False

    # ------------------------------------------------------------------ scoring
    def score_win(self, state: State, claim: WinClaim) -> HandResult:
        from erren.scoring.arcade import (  # noqa: PLC0415 - scoring imports the engine's deps
            ArcadeContext,
            Baoting,
            FirstTurn,
            score_arcade,
        )

        d = _data(state)
        p = claim.winner
        how = claim.how
        offered = d.pung_kind[p]
        if how == "zimo" and offered >= 0 and state.phase is Phase.TURN:
            # R2.4: completed after an accepted pung offer, the winning tile is of that kind
            h = state.hands[p]
            rest = tuple(_TILES[t] for t in _ALL_KINDS for _ in range(h[t] - (t == offered)))
            hand = Hand(rest, claim.hand.melds, _TILES[offered], claim.hand.flowers)
            claim = replace(claim, hand=hand)
        dealer = p == state.dealer
        interrupted = bool(state.melds[0] or state.melds[1])
        haidi = state.phase is Phase.HAIDI
        zimo = how == "zimo"
        origin = state.origin
        first = FirstTurn.NONE
        if zimo and origin is Origin.DEAL and dealer:
            first = FirstTurn.TIANHU
        elif (
            how == "discard"
            and not dealer
            and not interrupted
            and state.n_discards[state.dealer] == 1
            and state.n_discards[p] == 0
        ):
            first = FirstTurn.DIHU
        elif (
            zimo
            and not dealer
            and not haidi
            and not interrupted
            and origin is Origin.DRAW
            and state.n_discards[p] == 0
        ):
            first = FirstTurn.RENHU
        if haidi:
            kong = d.haidi_replaced and state.flower_kong
        else:
            kong = zimo and origin is not Origin.DEAL and state.kong_draw
        ctx = ArcadeContext(
            wild=Tile(d.wild),
            flowers=len(state.flowers[p]),
            self_drawn=zimo,
            robbing_kong=how == "robbing",
            kong_replacement=kong,
            last_tile=not haidi and how != "robbing" and state.head > state.tail,
            haidi=haidi,
            baoting=Baoting(d.baoting_kind[p] or "none"),
            first_turn=first,
            dealer=dealer,
        )
        hand = Hand(claim.hand.concealed, claim.hand.melds, claim.hand.winning, ())
        result = score_arcade(hand, ctx)
        points = result.versus_points(self.options.base_points)
        deltas = (points, -points) if p == 0 else (-points, points)
        return HandResult(
            "win",
            winner=p,
            loser=1 - p,
            how=how,
            hand=hand,
            claim=claim,
            fans=tuple((hit.pattern.name, hit.value, hit.count) for hit in result.patterns),
            fan_total=result.fan,
            points=points,
            deltas=deltas,
            detail=result,
        )

    def view(self, state: State, player: int) -> ArcadeView:
        """The wild, the flower kind, the reserve, this player's offer, 报听 kinds, 海底, and
        this player's big-bleed template."""
        if state.family is None:  # the setup, before the wild is turned
            return ArcadeView()
        d = _data(state)
        return ArcadeView(
            wild=_TILES[d.wild],
            flower_kind=_TILES[d.flower],
            reserve_count=len(state.wall) - d.reserve,
            offer=_TILES[d.offer[player]] if d.offer[player] >= 0 else None,
            baoting=(d.baoting_kind[0], d.baoting_kind[1]),
            haidi_player=d.haidi_player if d.haidi_player >= 0 else None,
            haidi_left=d.haidi_left,
            bleed=d.bleed if player == d.bleed_seat else "",
        )


def _factory(**options: Any) -> ArcadeRuleset:
    return ArcadeRuleset(**options)


register_ruleset("arcade", _factory)
