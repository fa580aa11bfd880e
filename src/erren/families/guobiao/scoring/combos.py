"""Set-combination fans (guobiao-2p §5.2 A6 chows, A7 pungs), solved once per multiset of sets.

Every function here works on plain ints (a chow is its first kind, a pung its kind) and
returns, for each fan counted, the positions (in the sorted input) of the sets it is made of.
The solutions depend on the table's values (which relation is "most valuable"), so they are
memoised on ``(sets, values)`` where ``values`` is the table's value tuple for the fans involved.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

__all__ = ["CHOW_FANS", "PUNG_FANS", "chow_combos", "pung_combos"]

Combo = tuple[tuple[str, tuple[int, ...]], ...]

# The 2-chow relations in the tie order of A6 (prefer 一般高, then 喜相逢, 连六, 老少副).
_RELATIONS = ("pure_double_chow", "mixed_double_chow", "short_straight", "two_terminal_chows")
CHOW_FANS = (
    "pure_terminal_chows",
    "three_suited_terminal_chows",
    "quadruple_chow",
    "four_pure_shifted_chows",
    "pure_triple_chow",
    "pure_straight",
    "pure_shifted_chows",
    "mixed_straight",
    "mixed_triple_chow",
    "mixed_shifted_chows",
    *_RELATIONS,
)
PUNG_FANS = (
    "big_four_winds",
    "four_pure_shifted_pungs",
    "big_three_winds",
    "big_three_dragons",
    "pure_shifted_pungs",
    "triple_pung",
    "mixed_shifted_pungs",
    "little_four_winds",
    "little_three_dragons",
    "two_dragon_pungs",
    "double_pung",
)


def _relation(a: int, b: int) -> str | None:
    """The 2-chow relation of two chows given by their first kinds (§4.1), if any."""
    if a // 9 == b // 9:
        d = a - b if a > b else b - a
        if d == 0:
            return "pure_double_chow"
        if d == 3:
            return "short_straight"
        if d == 6:
            return "two_terminal_chows"
        return None
    return "mixed_double_chow" if a % 9 == b % 9 else None


def _three_chows(a: int, b: int, c: int) -> str | None:
    """The 3-chow fan of three chows sorted by first kind, if any."""
    sa, sb, sc = a // 9, b // 9, c // 9
    if sa == sb == sc:
        if a == b == c:
            return "pure_triple_chow"
        if b - a == 3 and c - b == 3:
            return "pure_straight"
        if b - a == c - b and b - a in (1, 2):
            return "pure_shifted_chows"
        return None
    if len({sa, sb, sc}) == 3:
        na, nb, nc = sorted((a % 9, b % 9, c % 9))
        if na == nb == nc:
            return "mixed_triple_chow"
        if (na, nb, nc) == (0, 3, 6):
            return "mixed_straight"
        if nb == na + 1 and nc == nb + 1:
            return "mixed_shifted_chows"
    return None


def _pairing(chows: tuple[int, ...], value: dict[str, int]) -> Combo:
    """The pairing rule of A6: the best forest of related chow pairs in which pairs scoring
    the same fan never share a chow (不得相同, 套算一次)."""
    edges = []
    for i, j in combinations(range(len(chows)), 2):
        rel = _relation(chows[i], chows[j])
        if rel is not None and value.get(rel, 0) > 0:
            edges.append((i, j, rel))
    best: tuple[tuple[int, ...], int] = ((0, 0, 0, 0, 0), 0)
    for mask in range(1, 1 << len(edges)):
        chosen = [edges[k] for k in range(len(edges)) if mask >> k & 1]
        parent = list(range(len(chows)))

        def find(x: int, parent: list[int] = parent) -> int:
            while parent[x] != x:
                x = parent[x]
            return x

        ok = True
        used: set[tuple[str, int]] = set()
        for i, j, rel in chosen:
            if (rel, i) in used or (rel, j) in used:
                ok = False
                break
            used.add((rel, i))
            used.add((rel, j))
            ri, rj = find(i), find(j)
            if ri == rj:  # a cycle
                ok = False
                break
            parent[ri] = rj
        if not ok:
            continue
        total = sum(value[rel] for _, _, rel in chosen)
        key = (total, *(sum(1 for e in chosen if e[2] == r) for r in _RELATIONS))
        if key > best[0]:
            best = (key, mask)
    return tuple((rel, (i, j)) for k, (i, j, rel) in enumerate(edges) if best[1] >> k & 1)


@lru_cache(maxsize=1 << 12)
def chow_combos(chows: tuple[int, ...], pair: int, values: tuple[int, ...]) -> Combo:
    """A6 for the chows (first kinds, sorted) of a reading; ``pair`` is the pair's kind
    (-1 if none); ``values`` the table's values of :data:`CHOW_FANS` (0: not in the table)."""
    value = dict(zip(CHOW_FANS, values, strict=True))
    n = len(chows)
    if n < 2:
        return ()
    if n == 4:
        a, b, c, d = chows
        if (
            value["pure_terminal_chows"]
            and a % 9 == 0
            and a == b
            and c == d == a + 6
            and pair == a + 4
        ):
            return (("pure_terminal_chows", (0, 1, 2, 3)),)
        if value["three_suited_terminal_chows"] and 0 <= pair < 27 and pair % 9 == 4:
            firsts = sorted(chows)
            suits = {t // 9 for t in firsts}
            if (
                len(suits) == 2
                and pair // 9 not in suits
                and all(firsts.count(s * 9) == 1 and firsts.count(s * 9 + 6) == 1 for s in suits)
            ):
                return (("three_suited_terminal_chows", (0, 1, 2, 3)),)
        if value["quadruple_chow"] and a == b == c == d:
            return (("quadruple_chow", (0, 1, 2, 3)),)
        if (
            value["four_pure_shifted_chows"]
            and a // 9 == d // 9
            and b - a == c - b == d - c
            and b - a in (1, 2)
        ):
            return (("four_pure_shifted_chows", (0, 1, 2, 3)),)
        best: tuple[tuple[int, int, int], Combo] | None = None
        for rest in range(3, -1, -1):
            trio = tuple(k for k in range(4) if k != rest)
            fan = _three_chows(*(chows[k] for k in trio))
            if fan is None or not value[fan]:
                continue
            combo: Combo = ((fan, trio),)
            extra = 0
            extra_rank = 0
            for rank, rel_name in enumerate(_RELATIONS):
                partner = next(
                    (k for k in trio if _relation(chows[k], chows[rest]) == rel_name), None
                )
                if partner is not None and value[rel_name] > extra:
                    extra = value[rel_name]
                    extra_rank = -rank
                    combo = ((fan, trio), (rel_name, (partner, rest)))
            key = (value[fan] + extra, value[fan], extra_rank)
            if best is None or key > best[0]:
                best = (key, combo)
        if best is not None:
            return best[1]
        return _pairing(chows, value)
    if n == 3:
        fan = _three_chows(*chows)
        if fan is not None and value[fan]:
            return ((fan, (0, 1, 2)),)
    return _pairing(chows, value)


def _three_pungs(a: int, b: int, c: int) -> str | None:
    """The 3-pung fan of three pungs sorted by kind, if any."""
    if a >= 27:
        if c <= 30:
            return "big_three_winds"
        if a >= 31:
            return "big_three_dragons"
        return None
    if c >= 27:
        return None
    sa, sb, sc = a // 9, b // 9, c // 9
    if sa == sb == sc:
        return "pure_shifted_pungs" if b == a + 1 and c == b + 1 else None
    if len({sa, sb, sc}) == 3:
        na, nb, nc = sorted((a % 9, b % 9, c % 9))
        if na == nb == nc:
            return "triple_pung"
        if nb == na + 1 and nc == nb + 1:
            return "mixed_shifted_pungs"
    return None


def _two_pungs(a: int, b: int) -> str | None:
    if a >= 31 and b >= 31:
        return "two_dragon_pungs"
    if a < 27 and b < 27 and a // 9 != b // 9 and a % 9 == b % 9:
        return "double_pung"
    return None


@lru_cache(maxsize=1 << 12)
def pung_combos(pungs: tuple[int, ...], pair: int, values: tuple[int, ...]) -> Combo:
    """A7 (and the pair adjustments of A9) for the pungs and kongs (kinds, sorted) of a
    reading; ``values`` the table's values of :data:`PUNG_FANS`."""
    value = dict(zip(PUNG_FANS, values, strict=True))
    n = len(pungs)
    if n < 2:
        return ()
    if n == 4:
        a, b, c, d = pungs
        if (a, b, c, d) == (27, 28, 29, 30) and value["big_four_winds"]:
            return (("big_four_winds", (0, 1, 2, 3)),)
        if (
            d < 27
            and a // 9 == d // 9
            and b == a + 1
            and c == b + 1
            and d == c + 1
            and value["four_pure_shifted_pungs"]
        ):
            return (("four_pure_shifted_pungs", (0, 1, 2, 3)),)
    out: list[tuple[str, tuple[int, ...]]] = []
    for trio in combinations(range(n), 3):
        fan = _three_pungs(*(pungs[k] for k in trio))
        if fan is None or not value[fan]:
            continue
        if fan == "big_three_winds" and 27 <= pair <= 30 and value["little_four_winds"]:
            out.append(("little_four_winds", trio))
        else:
            out.append((fan, trio))
        for rest in range(n):
            if rest in trio:
                continue
            for k in trio:
                two = _two_pungs(pungs[k], pungs[rest])
                if two is not None and value[two]:
                    out.append((two, (k, rest)))
                    break
        return tuple(out)
    for i, j in combinations(range(n), 2):
        two = _two_pungs(pungs[i], pungs[j])
        if two is None or not value[two]:
            continue
        if two == "two_dragon_pungs" and pair >= 31 and value["little_three_dragons"]:
            out.append(("little_three_dragons", (i, j)))
        else:
            out.append((two, (i, j)))
    return tuple(out)
