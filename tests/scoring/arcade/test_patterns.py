"""The arcade table's rows one by one (§4), its exclusions (R5.3 b), the checks on impossible
requests (R1.9, R1.11, R2.6, R2.15), the display rules (R5.7) and properties of the search
(R5.4–R5.6): every assignment of the wilds is reached, a wild never scores less than the tile
it replaces, the chosen interpretation has the largest key."""

from __future__ import annotations

import random

import pytest

from erren.families.arcade.scoring import (
    LIMIT_HANDS,
    NON_LIMIT,
    PATTERNS,
    ArcadeContext,
    Baoting,
    FirstTurn,
    Form,
    ImpossibleWinError,
    NotAWinError,
    evaluate,
    interpretations,
    pattern,
    score_arcade,
)
from erren.families.arcade.scoring.calculator import _best
from erren.families.arcade.scoring.facts import HandInfo
from erren.hand import Hand
from erren.tiles import Tile

RON = ArcadeContext()
TSUMO = ArcadeContext(self_drawn=True)


def _ids(hand: str, ctx: ArcadeContext = RON) -> list[str]:
    return [hit.pattern.id for hit in score_arcade(Hand.parse(hand), ctx).patterns]


def test_table_shape() -> None:
    assert [p.id for p in LIMIT_HANDS] == [f"L{i}" for i in range(1, 19)]
    assert [p.id for p in NON_LIMIT] == [f"N{i}" for i in range(1, 29)]
    assert [p.rank for p in PATTERNS] == list(range(1, 47))
    assert pattern("平和") is pattern("N5")
    assert str(pattern("L5")) == "大四喜 ×2"
    with pytest.raises(KeyError):
        pattern("N99")


# (hand, context, patterns that must be there, patterns that must not)
CASES: list[tuple[str, ArcadeContext, set[str], set[str]]] = [
    # N5 平和: an honor pair or an edge/closed wait spoils it (R4.4, R4.9)
    ("234m567m234p45s11z +3s", RON, {"N2"}, {"N5"}),
    ("234m567m234p12s77p +3s", RON, {"N2"}, {"N5"}),
    ("234m567m234p24s77p +3s", RON, {"N2", "N6"}, {"N5"}),
    ("234m567m234p89s77p +7s", RON, {"N2"}, {"N5"}),
    # closed-only patterns vanish with an open set (R4.10), values are not lowered
    ("123m789m456p9p [7'89s] +9p", RON, {"N1"}, {"N2", "N5", "N19"}),
    ("112233m456p5s [789s'] +5s", RON, {"N1"}, {"N9"}),
    ("123m789m99p11z [7'89s] +9p", RON, {"N18"}, {"N2"}),
    # an an gang keeps 门清 (R4.2)
    ("123m456p789s5m [1111z#] +5m", TSUMO, {"N2", "N7"}, {"N5"}),
    # N10 removes N9
    ("112233m445566p5s +5s", RON, {"N10"}, {"N9"}),
    # N12 removes N11
    ("55599m1122p3344s +5m", RON, {"N12"}, {"N11"}),
    # N4 removes N3 (only one can be declared anyway)
    ("12345m33456p789s +6m", ArcadeContext(baoting=Baoting.TIANTING), {"N4"}, {"N3"}),
    # N21/N22 by definition; N18/N19/N20 by definition
    ("123m456m789m1z [777z'] +1z", RON, {"N21", "N24"}, {"N22"}),
    ("111m999m1z [999p'] [111p'] +1z", RON, {"N13", "N20"}, {"N18"}),
    # N13 with open pungs; N15 needs exactly three concealed (R4.3)
    ("111m333p555s9p [777s'] +9p", RON, {"N13", "N15"}, set()),
    ("111m333p55s99p [777s'] +9p", RON, {"N13"}, {"N15"}),
    # N16/N17 count open sets
    ("456p9m [333m'] [444m'] [555m'] +9m", RON, {"N16"}, {"N13"}),
    ("555m789p1z [555p'] [555s'] +1z", RON, {"N17"}, {"N2"}),
    # N23 needs a wild for the flower-kind dragon (W = 5s)
    ("234m56p666z777z5s5s +7p", ArcadeContext(wild=Tile.S5), {"N23"}, set()),
    # N25–N28 flags
    ("234m67p345s55p [9999s#] +8p", ArcadeContext(kong_replacement=True), {"N25", "N7"}, set()),
    ("345m456p12s789s66m +3s", ArcadeContext(last_tile=True), {"N27"}, {"N26", "N7"}),
    ("345m456p12s789s66m +3s", ArcadeContext(haidi=True), {"N28", "N7"}, set()),
    # N8 counts once per flower, N1 still applies with flowers (§7 item 44)
    ("456p23s55m [7'89m] [333z'] +1s", ArcadeContext(flowers=4), {"N1", "N8"}, set()),
    # limit hands drop everything else, flowers included (R4.12)
    ("1112345678999p +5p", ArcadeContext(self_drawn=True, flowers=2), {"L16"}, {"N8", "N22"}),
    # L16 needs natural tiles only (R1.9c): a wild 9p is not nine gates
    ("1112345678995p +9p", ArcadeContext(wild=Tile.P5, self_drawn=True), {"N22"}, {"L16"}),
    # L7 needs seven different pairs: 2233445566778 8 of a suit; with 3333 it is not
    ("2233445566788s +7s", RON, {"L7"}, set()),
    # L8: a discard completing a pung is open (R4.3); robbing counts as self-drawn (R2.11)
    ("111m333p555s77s99p +9p", ArcadeContext(robbing_kong=True), {"L8"}, set()),
    # L11 百万石: a wild counts at its resolved value; seven pairs qualify (any form)
    ("99m88m77m66m55m44m3m +3m", RON, {"N22"}, {"L11"}),
    ("9999m8888m7777m6m +6m", RON, {"L11"}, set()),
    # L12/L13/L15 need the all-pung standard form: seven pairs are not 字一色 (W = 9m)
    (
        "112233446677z9m +9m",
        ArcadeContext(wild=Tile.M9, self_drawn=True),
        {"N11"},
        {"L12"},
    ),
    # L14 free form (R5.1), with an open meld and a wild (W = 1m)
    ("2346888s66z1m [222s'] +4s", ArcadeContext(wild=Tile.M1), {"L14"}, set()),
    # L17 with a wild as White; L18 either way round
    ("19m19p19s1234z67z5s +5s", ArcadeContext(wild=Tile.S5, self_drawn=True), {"L17"}, set()),
    ("123456789p4441z +1z", RON, {"L18"}, set()),
    # L1–L3
    ("234m456p678s5599s +9s", ArcadeContext(first_turn=FirstTurn.DIHU), {"L2"}, {"L3"}),
    # L4 小四喜 and L5 大四喜 never together; L6
    ("11122233344z56m +7m", RON, {"L4"}, {"L5"}),
    ("123m9p555s666777z +9p", ArcadeContext(wild=Tile.S5), {"L6"}, set()),
    # L9/L10
    ("444555666p1z [333p'] +1z", RON, {"L9"}, {"L8"}),
    ("9m [1111m#] [2222p'] [3333s+] [4444z#] +9m", RON, {"L10"}, {"L8"}),
]


@pytest.mark.parametrize(("hand", "ctx", "present", "absent"), CASES, ids=[c[0] for c in CASES])
def test_pattern_case(hand: str, ctx: ArcadeContext, present: set[str], absent: set[str]) -> None:
    found = set(_ids(hand, ctx))
    assert present <= found, found
    assert not absent & found, found


@pytest.mark.parametrize(
    ("hand", "ctx", "message"),
    [
        ("234m567m234p45s77p1f +3s", RON, "no flower tiles"),
        ("234m567m234p45s5z5z +3s", RON, "flower kind"),
        ("234m567m234p45s77p +3s", ArcadeContext(wild=Tile.WHITE), "never"),  # F = 7z: fine
        ("234m567m45s77p [234p'] +3s", ArcadeContext(wild=Tile.P3), "never in a meld"),
        ("234m567m2p2p2p2p45s +3s", ArcadeContext(wild=Tile.P2), "at most three"),
        ("234m567m234p45s7p +7p", ArcadeContext(wild=Tile.P7), "dead"),
        (
            "234m567m234p45s7p +7p",
            ArcadeContext(wild=Tile.P7, robbing_kong=True),
            "dead",
        ),
        ("234m567m45s77p [234p'] +3s", ArcadeContext(first_turn=FirstTurn.DIHU), "first-turn"),
        ("234m567m45s77p [234p'] +3s", ArcadeContext(baoting=Baoting.MENQING), "open"),
        ("234m567m234p45s77p +3s", ArcadeContext(baoting=Baoting.OPEN), "open meld"),
        ("234m567m45s77p [2222p#] +3s", ArcadeContext(baoting=Baoting.TIANTING), "天听"),
    ],
)
def test_impossible(hand: str, ctx: ArcadeContext, message: str) -> None:
    if message == "never":  # W = 5z makes 7z the flower; a hand without 7z is fine
        score_arcade(Hand.parse(hand), ctx)
        return
    with pytest.raises(ImpossibleWinError, match=message):
        score_arcade(Hand.parse(hand, check_size=False), ctx)


def test_not_a_win() -> None:
    with pytest.raises(NotAWinError):
        score_arcade(Hand.parse("234m567m234p45s78p +3s"))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"flowers": 5},
        {"robbing_kong": True, "kong_replacement": True},
        {"haidi": True, "last_tile": True},
        {"first_turn": FirstTurn.TIANHU},
        {"first_turn": FirstTurn.RENHU, "dealer": True},
        {"first_turn": FirstTurn.DIHU, "self_drawn": True},
        {"first_turn": FirstTurn.TIANHU, "dealer": True, "baoting": Baoting.MENQING},
    ],
)
def test_contradictory_context(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        ArcadeContext(**kwargs)  # type: ignore[arg-type]


def test_four_copies_of_a_sequence_are_two_pairs() -> None:
    """N10: 「Four copies of one sequence count」 (the pung reading scores more here)."""
    found = [e for e in evaluate(Hand.parse("111122223333m5m +5m")) if "N10" in _n(e)]
    assert found and all("N9" not in _n(e) for e in found)


def _n(e: object) -> set[str]:
    return {p.id for p in getattr(e, "non_limit", ())}


def test_display_rules() -> None:
    e13 = score_arcade(Hand.parse("1113334466z [222z'] +4z"))
    assert str(e13) == "大四喜 ×2 + 字一色 ×1 = 3倍役满"
    e25 = score_arcade(
        Hand.parse("2233334455667p +7p"),
        ArcadeContext(self_drawn=True, baoting=Baoting.MENQING, flowers=1),
    )
    assert e25.key == (0, 13, 15) and e25.capped and e25.points == 13
    assert str(e25).endswith("= 15 → 封顶 13番")
    assert "两杯口 4 (234p 234p 567p 567p)" in e25.explain()
    e14 = score_arcade(Hand.parse("111m333p555s777s9p +9p"))
    assert str(e14) == "四暗刻 ×1 = 役满" and e14.versus_points(10) == 130


def test_tie_break_by_rank_list() -> None:
    # 123123123m: three chows or three pungs.  R5.5 breaks equal keys by the rank list; the
    # chosen interpretation is the one with the largest key, and equal keys keep rank order.
    hand = Hand.parse("111222333m456p7s +7s")
    evaluations = evaluate(hand)
    best = max(e.key for e in evaluations)
    result = score_arcade(hand)
    assert result.key == best
    tied = [e for e in evaluations if e.key == best]
    ranks = min(tuple(h.pattern.rank for h in e.patterns) for e in tied)
    assert tuple(h.pattern.rank for h in result.patterns) == ranks


# ---------------------------------------------------------------------------------------------
# Properties on random complete hands


def _random_hand(rng: random.Random) -> list[int]:
    """14 tiles of four random sets and a pair (no White: it is the flower kind)."""
    kinds = [k for k in range(34) if k != Tile.WHITE]
    while True:
        counts = [0] * 34
        pool = rng.choice([kinds, list(range(9)) + list(range(27, 31)), list(range(18, 27))])
        for _ in range(4):
            if rng.random() < 0.5:
                k = rng.choice([k for k in pool if k < 27 and k % 9 < 7] or pool)
                group = [k, k + 1, k + 2] if k < 27 and k % 9 < 7 else [k] * 3
            else:
                group = [rng.choice(pool)] * 3
            for k in group:
                counts[k] += 1
        counts[rng.choice(pool)] += 2
        if max(counts) <= 4 and all(k in kinds for k, n in enumerate(counts) if n):
            return [k for k, n in enumerate(counts) for _ in range(n)]


def _hand(tiles: list[int], win_index: int) -> Hand:
    rest = list(tiles)
    win = rest.pop(win_index)
    return Hand(tuple(Tile(t) for t in sorted(rest)), (), Tile(win))


@pytest.mark.parametrize("seed", range(6))
def test_wild_never_scores_less(seed: int) -> None:
    """Replacing up to three tiles by wilds keeps every assignment, so the key never drops
    (except 九莲宝灯, which needs natural tiles, R1.9c)."""
    rng = random.Random(seed)
    for _ in range(40):
        tiles = _random_hand(rng)
        natural = score_arcade(_hand(tiles, 13), TSUMO)
        if any(h.pattern.id == "L16" for h in natural.patterns):
            continue
        wild = next(k for k in range(34) if k not in tiles and k != Tile.WHITE)
        swapped = list(tiles)
        for i in rng.sample(range(14), rng.randint(1, 3)):
            swapped[i] = wild
        ctx = ArcadeContext(wild=Tile(wild), self_drawn=True)
        assert score_arcade(_hand(swapped, 13), ctx).key >= natural.key


@pytest.mark.parametrize("seed", range(4))
def test_one_wild_equals_every_assignment(seed: int) -> None:
    """R5.6: the search over a wild gives the same best key as trying all 34 kinds for it."""
    rng = random.Random(100 + seed)
    for _ in range(15):
        tiles = _random_hand(rng)
        wild = next(k for k in range(34) if k not in tiles and k != Tile.WHITE)
        i = rng.randrange(13)
        swapped = list(tiles)
        swapped[i] = wild
        hand = _hand(swapped, 13)
        ctx = ArcadeContext(wild=Tile(wild), self_drawn=True)
        h = HandInfo(hand, ctx)
        best = None
        for kind in range(34):
            plain = list(swapped)
            plain[i] = kind
            if plain.count(kind) > 4:
                continue
            found = _best(h, interpretations(_hand(plain, 13)))
            if found is not None and (best is None or found[0] > best):
                best = found[0]
        assert best is not None
        assert score_arcade(hand, ctx).key == best


@pytest.mark.parametrize("seed", range(4))
def test_result_is_the_best_interpretation(seed: int) -> None:
    rng = random.Random(200 + seed)
    for _ in range(40):
        tiles = _random_hand(rng)
        hand = _hand(tiles, rng.randrange(14))
        ctx = ArcadeContext(self_drawn=rng.random() < 0.5, flowers=rng.randrange(5))
        evaluations = evaluate(hand, ctx)
        result = score_arcade(hand, ctx)
        assert result.key == max(e.key for e in evaluations)
        assert result.interpretation in [e.interpretation for e in evaluations]
        assert all(e.interpretation.form is not Form.FREE_GREEN or e.key[0] for e in evaluations)
