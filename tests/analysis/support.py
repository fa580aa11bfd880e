"""Helpers shared by the analysis tests: hand text to counts, and a reference decomposition."""

from __future__ import annotations

from strategies import counts_of

NUM_KINDS = 34


def parse(text: str) -> list[int]:
    """Counts of a tenhou-style string such as ``"123m456p11z"``."""
    kinds: list[int] = []
    digits: list[int] = []
    for char in text:
        if char.isdigit():
            digits.append(int(char))
        else:
            base = "mpsz".index(char) * 9
            kinds.extend(base + d - 1 for d in digits)
            digits = []
    return counts_of(kinds)


def ref_decomposes(counts: list[int], n: int) -> bool:
    """Whether ``counts`` (any copies per kind) split into exactly n sets and a pair."""

    def sets_only(c: list[int], left: int) -> bool:
        i = next((k for k in range(NUM_KINDS) if c[k]), None)
        if i is None:
            return left == 0
        if left == 0:
            return False
        if c[i] >= 3:
            c[i] -= 3
            ok = sets_only(c, left - 1)
            c[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for k in (i, i + 1, i + 2):
                c[k] -= 1
            ok = sets_only(c, left - 1)
            for k in (i, i + 1, i + 2):
                c[k] += 1
            if ok:
                return True
        return False

    for p in range(NUM_KINDS):
        if counts[p] >= 2:
            counts[p] -= 2
            ok = sets_only(counts, n)
            counts[p] += 2
            if ok:
                return True
    return False
