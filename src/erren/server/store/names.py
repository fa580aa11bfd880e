"""Account names: what a player may call himself, and when two names are "the same".

A name is taken in its NFKC form (full-width ``ａｌｉｃｅ`` is ``alice``, the ligature ``ﬁ`` is
``fi``).  It has 2–16 characters (code points after NFKC), each a letter, a mark, a digit or one of
``_ - . ·``; it starts with a letter or a digit and does not end with ``_ - . ·``.  Nothing
invisible is allowed: no spaces, control or format characters (zero-width joiners, bidi
overrides), default-ignorable code points (variation selectors, Hangul fillers) or unassigned
code points.  ``guest-…`` is reserved for guests.

Two names are the same account name when their **keys** are equal (:func:`name_key`: NFKC and
case folding — ``Alice``, ``ALICE`` and ``ａｌｉｃｅ`` are one name).  A new name is also refused
when it *looks like* an existing one: its **skeleton** (:func:`skeleton`) equals theirs.  The
skeleton is the Unicode confusables mapping of UTS #39 (data: ``confusable_homoglyphs``, which
ships Unicode's ``confusables.txt``), applied to the key: Cyrillic ``а`` and Greek ``α`` become
Latin ``a``, ``rn`` and ``m`` agree, ``I``/``l``/``1`` agree.  Both are stored with a unique index,
so the rule holds when two players register at the same moment, on SQLite and PostgreSQL.

Names registered before these rules keep logging in: a login looks the key up, and never checks
a name's shape beyond the key's length.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Final

import regex

__all__ = [
    "GUEST_PREFIX",
    "MAX_KEY",
    "MAX_NAME",
    "MAX_SKELETON",
    "MIN_NAME",
    "BadNameError",
    "check_name",
    "name_key",
    "skeleton",
]

MIN_NAME: Final = 2
MAX_NAME: Final = 16
MAX_KEY: Final = 80
"""The ``users.name_key`` column's length."""
MAX_SKELETON: Final = 255
"""The ``users.name_skeleton`` column's length."""
GUEST_PREFIX: Final = "guest-"
PUNCTUATION: Final = "_-.·"

_INVISIBLE = regex.compile(
    r"[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Z}\p{Default_Ignorable_Code_Point}\u2800]"
)
"""Controls, format characters, surrogates, private use, unassigned, separators (spaces), the
default-ignorable code points (Hangul fillers, variation selectors, ...) and the braille blank."""
_ALLOWED = regex.compile(r"[\p{L}\p{M}\p{N}" + regex.escape(PUNCTUATION) + r"]")
_FIRST = regex.compile(r"[\p{L}\p{N}]")
_BIDI_MARKS = str.maketrans("", "", "\u200e\u200f")


class BadNameError(ValueError):
    """A name the rules refuse; the message says which rule."""


def name_key(name: str) -> str:
    """The name as the account is found by: NFKC, then case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def _describe(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


def check_name(name: str) -> str:
    """The name to store (its NFKC form), or :class:`BadNameError` saying what is wrong."""
    if not isinstance(name, str):
        raise BadNameError("a name is text")
    shown = unicodedata.normalize("NFKC", name)
    bad = _INVISIBLE.search(shown)
    if bad:
        raise BadNameError(
            f"bad name: it contains a space, control or invisible character ({_describe(bad[0])});"
            " a name has no spaces, control, format or invisible characters"
        )
    if not MIN_NAME <= len(shown) <= MAX_NAME:
        raise BadNameError(
            f"bad name: a name has {MIN_NAME}–{MAX_NAME} characters, this one has {len(shown)}"
        )
    for char in shown:
        if not _ALLOWED.fullmatch(char):
            raise BadNameError(
                f"bad name: {char!r} ({_describe(char)}) is not allowed; a name is letters, "
                f"digits and {' '.join(PUNCTUATION)}"
            )
    if not _FIRST.fullmatch(shown[0]) or shown[-1] in PUNCTUATION:
        raise BadNameError(
            "bad name: a name starts with a letter or a digit and does not end with "
            f"{' '.join(PUNCTUATION)}"
        )
    key = name_key(shown)
    if len(key) > MAX_KEY:  # cannot happen within 16 characters; kept next to the column
        raise BadNameError(f"bad name: its normalised form is longer than {MAX_KEY} characters")
    if key.startswith(GUEST_PREFIX) or skeleton(shown).startswith(skeleton(GUEST_PREFIX)):
        raise BadNameError(f"bad name: names starting with {GUEST_PREFIX!r} are for guests")
    if len(skeleton(shown)) > MAX_SKELETON:
        raise BadNameError(
            f"bad name: its confusable form is longer than {MAX_SKELETON} characters"
        )
    return shown


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character → the representative of its confusable class.

    ``confusable_homoglyphs`` keeps ``confusables.txt`` as a symmetric table (each source lists
    its prototype and each prototype its sources), so the classes are its connected parts.  A
    class with a multi-character prototype (``m`` → ``rn``) is represented by that sequence; any
    other by its smallest code point.  Equal representatives ⇔ same UTS #39 skeleton."""
    from confusable_homoglyphs import confusables  # noqa: PLC0415 - 1 MB of data, on first use

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for source, homoglyphs in data.items():
        a = source.translate(_BIDI_MARKS)
        for homoglyph in homoglyphs:
            b = homoglyph["c"].translate(_BIDI_MARKS)
            if a and b:
                parent[find(a)] = find(b)
    members: dict[str, list[str]] = {}
    for x in list(parent):
        members.setdefault(find(x), []).append(x)
    table: dict[str, str] = {}
    for group in members.values():
        long = [m for m in group if len(m) > 1]
        rep = min(long) if long else min(group)
        for m in group:
            if len(m) == 1:
                table[m] = rep
    # a multi-character representative is written in its own characters' representatives
    return {c: "".join(table.get(x, x) for x in rep) for c, rep in table.items()}


def skeleton(name: str) -> str:
    """What the name looks like, whatever its case: UTS #39's confusable mapping (each
    character → its class's representative, on the NFD form) of the case-folded NFKC form, as
    UTS #39 gives it for case-insensitive names.  Two names with one skeleton can be mistaken
    for each other."""
    table = _prototypes()
    folded = unicodedata.normalize("NFD", name_key(name))
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in folded))
