"""The C fast path (``score_fast``, ``_fastfan.c``) against its oracle, the Python calculator.

Every run scores :data:`N_HANDS` random winning hands (the generator of the PyMahjongGB
differential test: one suit + honors, two and three suits, honors only, every meld kind, every
flag, seven pairs, 十三幺, 全不靠/七星不靠, 组合龙 with and without a meld, the rare patterns)
under both tables, with the ``2p`` flags (报听, 天听, 地胡, 天胡), the default seat wind and
hands without a winning tile added at random, plus the benchmark's near-complete deals (winning
or not): ``score_fast`` must give exactly :func:`score`'s total and (fan, count) list, or raise
:class:`NotAWinError` exactly when it does.  ``ERREN_FASTFAN_HANDS``/``ERREN_FASTFAN_SEED``
override the size and seed.

The random wins come from :mod:`erren.testing.wins`, the deals from :mod:`erren.testing.hands` and
the worked examples from this directory's ``_support`` module.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Callable

import pytest

from erren.families.guobiao.scoring import (
    FANS_2P,
    FANS_GB,
    Fan,
    NotAWinError,
    WinContext,
    _fastfan,
    gen_fastfan,
    score,
    score_fast,
)
from erren.families.guobiao.testing import win_context
from erren.hand import Hand
from erren.melds import Meld, MeldKind
from erren.testing.hands import deal_batch
from erren.testing.wins import Case, random_cases
from erren.tiles import Tile

from ._support import EXAMPLES_2P, WORKED

N_HANDS = int(os.environ.get("ERREN_FASTFAN_HANDS", "20000"))
SEED = int(os.environ.get("ERREN_FASTFAN_SEED", "20240601"))

Outcome = tuple[int, tuple[tuple[Fan, int], ...]] | None


def _oracle(hand: Hand, ctx: WinContext, table: str) -> Outcome:
    try:
        result = score(hand, ctx, table=table)
    except NotAWinError:
        return None
    return result.total, tuple((hit.fan, hit.count) for hit in result.fans)


def _fast(hand: Hand, ctx: WinContext, table: str) -> Outcome:
    try:
        return score_fast(hand, ctx, table=table)
    except NotAWinError:
        return None


def _show(outcome: Outcome) -> str:
    if outcome is None:
        return "not a win"
    total, fans = outcome
    return " + ".join(f"{fan.name} {fan.value}×{n}" for fan, n in fans) + f" = {total}"


def _variants(case: Case, rng: random.Random) -> list[tuple[Hand, WinContext, str]]:
    """The case under both tables; 2p with random 2p flags, sometimes the default seat wind
    or no winning tile (a 天胡 as dealt)."""
    hand = case.hand()
    ctx = win_context(case)
    out = [(hand, ctx, "gb")]
    ctx_2p = dataclasses.replace(
        ctx,
        ting=rng.random() < 0.2,
        tianting=rng.random() < 0.1,
        dihu=rng.random() < 0.05,
        tianhu=rng.random() < 0.03,
    )
    out.append((hand, ctx_2p, "2p"))
    if rng.random() < 0.1:
        out.append((hand, dataclasses.replace(ctx, seat_wind=None), rng.choice(("gb", "2p"))))
    if rng.random() < 0.03 and hand.winning is not None:
        dealt = Hand(tuple(sorted((*hand.concealed, hand.winning))), hand.melds, None)
        out.append((dealt, ctx, rng.choice(("gb", "2p"))))
    return out


def _deal_cases(n: int, seed: int) -> list[tuple[Hand, WinContext, str]]:
    """Near-complete deals of the benchmark (many do not win), melds as chi/peng."""
    rng = random.Random(f"erren-fastfan-deals:{seed}")
    out: list[tuple[Hand, WinContext, str]] = []
    for wall in ("64", "136"):
        for size in (14, 11, 8, 5, 2):
            for dealt in deal_batch(wall, size, n, seed=f"{seed}:{size}", method="near"):
                kinds = [k for k in range(34) for _ in range(dealt.concealed[k])]
                winning = kinds.pop(rng.randrange(len(kinds)))
                melds = []
                for meld in dealt.melds:
                    tiles = tuple(Tile(k) for k in meld)
                    kind = MeldKind.PENG if meld[0] == meld[1] else MeldKind.CHI
                    melds.append(Meld(kind, tiles, tiles[0]))
                hand = Hand(tuple(Tile(k) for k in kinds), tuple(melds), Tile(winning))
                ctx = WinContext(self_drawn=rng.random() < 0.5)
                out.append((hand, ctx, rng.choice(("gb", "2p"))))
    return out


@pytest.fixture(scope="module")
def compared() -> tuple[int, set[str], list[str]]:
    """(hands compared, names of the fans scored, disagreements)."""
    rng = random.Random(f"erren-fastfan:{SEED}")
    inputs: list[tuple[Hand, WinContext, str]] = []
    for case in random_cases(N_HANDS, SEED):
        inputs += _variants(case, rng)
    inputs += _deal_cases(max(1, N_HANDS // 100), SEED)
    seen: set[str] = set()
    wrong: list[str] = []
    for hand, ctx, table in inputs:
        expected = _oracle(hand, ctx, table)
        got = _fast(hand, ctx, table)
        if got is not None:
            seen.update(f"{table}:{fan.name}" for fan, _ in got[1])
        if got != expected:
            wrong.append(
                f"{table} {hand}  {ctx}\n    python: {_show(expected)}\n    fast:   {_show(got)}"
            )
    return len(inputs), seen, wrong


@pytest.mark.slow
def test_fast_path_equals_the_python_calculator(
    compared: tuple[int, set[str], list[str]],
) -> None:
    """Slow (about 10 s): the C fast path and the Python calculator on thousands of generated
    winning hands."""
    n, _, wrong = compared
    assert n >= 2 * N_HANDS
    if wrong:
        shown = "\n".join(wrong[:20])
        pytest.fail(f"{len(wrong)} of {n} hands differ (seed {SEED}):\n{shown}", pytrace=False)


@pytest.mark.slow
def test_every_fan_of_both_tables_is_exercised(
    compared: tuple[int, set[str], list[str]],
) -> None:
    _, seen, _ = compared
    if N_HANDS < 20_000:
        pytest.fail("too few hands to cover every fan", pytrace=False)
    missing = [f"gb:{f.name}" for f in FANS_GB if f"gb:{f.name}" not in seen]
    # 2p: the knitted shapes and 十三幺 are not 2p shapes; its other fans all occur.
    missing += [f"2p:{f.name}" for f in FANS_2P if f"2p:{f.name}" not in seen]
    assert not missing, f"never scored by the fast path: {missing}"


def _points(fans: tuple[tuple[Fan, int], ...]) -> dict[str, int]:
    return {fan.name: fan.value * n for fan, n in fans}


@pytest.mark.parametrize(
    ("hand", "ctx", "fans", "total"),
    [pytest.param(h, c, f, t, id=label) for label, h, c, f, t in EXAMPLES_2P],
)
def test_2p_examples(hand: str, ctx: WinContext, fans: dict[str, int], total: int) -> None:
    got_total, got = score_fast(Hand.parse(hand), ctx, table="2p")
    assert (_points(got), got_total) == (fans, total)


@pytest.mark.parametrize(
    ("hand", "ctx", "expected"),
    [pytest.param(row[1], row[2], row[3:], id=row[0]) for row in WORKED],
)
def test_worked_examples(
    hand: str, ctx: WinContext, expected: tuple[dict[str, int], int, dict[str, int], int]
) -> None:
    """§5.3: (2p fans, 2p total, gb fans, gb total)."""
    parsed = Hand.parse(hand)
    total_2p, fans_2p = score_fast(parsed, ctx, table="2p")
    total_gb, fans_gb = score_fast(parsed, ctx, table="gb")
    assert (_points(fans_2p), total_2p, _points(fans_gb), total_gb) == expected


def test_flowers_come_last_and_count() -> None:
    hand = Hand.parse("555m678m1z [1'23m] [2'34m] +1z")
    total, fans = score_fast(hand, WinContext(flowers=3), table="gb")
    assert total == 10
    assert [(f.name, n) for f, n in fans] == [("混一色", 1), ("单钓将", 1), ("花牌", 3)]


def test_the_generated_header_is_up_to_date() -> None:
    assert gen_fastfan.HEADER.read_text(encoding="utf-8") == gen_fastfan.render(), (
        "run python -m erren.families.guobiao.scoring.gen_fastfan and rebuild"
    )
    assert gen_fastfan.main(["--check"]) == 0


# ---------------------------------------------------------------------------------------------
# Bad input: a clear error, never a crash.


@pytest.mark.parametrize(
    "text",
    [
        "123m456m789m1z234z +5z",  # not complete
        "19m19p19s1234567z +1m",  # 十三幺 in table 2p only
        "123m456m789m11z +1z",  # too few tiles
        "11122m [4'56m] [7'89m] [456m'] +3m",  # the right size, not complete
    ],
)
def test_not_a_win_raises_like_score(text: str) -> None:
    hand = Hand.parse(text, check_size=False)
    for table in ("gb", "2p"):
        try:
            score(hand, table=table)
        except NotAWinError:
            with pytest.raises(NotAWinError, match="not a winning hand"):
                score_fast(hand, table=table)
        else:
            assert table == "gb"
            score_fast(hand, table=table)


def test_a_fifth_copy_is_not_a_win() -> None:
    five = Tile.M1
    hand = Hand(
        (five,) * 2 + tuple(Tile(k) for k in (1, 2, 3, 4, 5, 6, 7, 8, 9)),
        (Meld(MeldKind.PENG, (five,) * 3, five),),
        Tile(9),
    )
    with pytest.raises(NotAWinError):
        score(hand)
    with pytest.raises(NotAWinError):
        score_fast(hand)


def test_unknown_table() -> None:
    with pytest.raises(ValueError, match="unknown fan table"):
        score_fast(Hand.parse("123m456m789m1z [555z'] +1z"), table="riichi")


def _call(*args: object) -> object:
    fan_counts: Callable[..., object] = _fastfan.fan_counts
    return fan_counts(*args)


GOOD = ((0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 27, 27, 31), (), 31, 0, 28, 27, 0, 0)


def test_the_raw_call_works() -> None:
    result = _call(*GOOD)
    assert isinstance(result, tuple)
    hand = Hand.parse("123456789m111z5z +5z")
    rows = score_fast(hand, WinContext(), table="gb")
    assert result[0] == rows[0]
    assert [FANS_GB[i] for i, _ in result[1]] == [fan for fan, _ in rows[1]]


@pytest.mark.parametrize(
    ("index", "value", "error", "match"),
    [
        (0, tuple(range(15)), ValueError, "at most 14"),
        (0, b"\x00" * 33, ValueError, "34 bytes"),
        (0, b"\x05" + b"\x00" * 33, ValueError, "count of kind 0"),
        (0, (0, 1, 34), ValueError, "0..33"),
        (0, (0, 1, -1), ValueError, "0..33"),
        (0, ("1m",), TypeError, "must be an int"),
        (0, 5, TypeError, "sequence"),
        (1, (0, 0, 0, 0, 0), ValueError, "at most 4"),
        (1, (7,), ValueError, "bad meld code"),  # a chow starting at 8m
        (1, (5 << 6,), ValueError, "meld code"),
        (2, 34, ValueError, "winning"),
        (3, 1 << 9, ValueError, "flags"),
        (4, 26, ValueError, "seat_wind"),
        (5, None, TypeError, "round_wind"),
        (5, 31, ValueError, "round_wind"),
        (6, -1, ValueError, "flowers"),
        (7, 2, ValueError, "table"),
    ],
)
def test_bad_arguments(index: int, value: object, error: type[Exception], match: str) -> None:
    args = list(GOOD)
    args[index] = value
    with pytest.raises(error, match=match):
        _call(*args)


def test_bad_argument_count_and_rows() -> None:
    with pytest.raises(TypeError, match="8 or 9"):
        _call(*GOOD[:7])
    with pytest.raises(ValueError, match="rows"):
        _call(*GOOD, (1, 2, 3))


def test_the_wrong_size_is_not_a_win() -> None:
    assert _call((0, 1, 2), (), 3, 0, 28, 27, 0, 0) is None
    assert _call(b"\x04" * 3 + b"\x00" * 31, (), 3, 0, 28, 27, 0, 1) is None
