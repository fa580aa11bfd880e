"""The shared tile notation (``../shared/spec/NOTATION.md``): parse and print tiles, melds, hands.

Grammar (white space between parts is ignored)::

    hand    := run* meld* ("+" tile)?
    run     := digit+ suit                      e.g. 123m, 11z, 15f
    meld    := "[" (digit "'"? )+ suit ( (digit "'"?)+ suit )* mark? "]"
    mark    := "'" (claimed: chi, peng, 明杠) | "+" (加杠) | "#" (暗杠)
    tile    := digit suit

Every error is a :class:`~erren.errors.NotationError` naming the position and the reason;
nothing is guessed.  Printing is canonical: tiles sorted and grouped by suit, melds in the
order written, ``+X`` last, so ``parse(print(x)) == x`` for everything that parses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from erren.errors import NotationError
from erren.hand import Hand
from erren.melds import Meld, MeldKind
from erren.tiles import NUM_KINDS, SUIT_LETTERS, Tile

_MAX_NUMBER = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
_MARKS = "'+#"


@dataclass(frozen=True, slots=True)
class _Placed:
    """A tile as read, with where it stood and whether a ``'`` followed its digit."""

    tile: Tile
    position: int
    marked: bool = False


class _Reader:
    """A cursor over the text that knows how to report where it is."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def error(self, reason: str, position: int | None = None) -> NotationError:
        return NotationError(reason, self.text, self.pos if position is None else position)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def runs(self, *, allow_marks: bool, stop: str) -> list[_Placed]:
        """Read ``digit+ suit`` runs until a character in ``stop`` (or the end)."""
        placed: list[_Placed] = []
        pending: list[tuple[int, int, bool]] = []  # (digit, position, marked)
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            if ch in stop or ch.isspace():
                break
            if ch.isdigit():
                if ch == "0":
                    raise self.error("digit 0 is not a tile number (red fives are not used)")
                pending.append((int(ch), self.pos, False))
            elif ch == "'" and allow_marks and not pending:
                break  # the meld's closing mark
            elif ch == "'" and allow_marks and not pending[-1][2]:
                digit, where, _ = pending[-1]
                pending[-1] = (digit, where, True)
            elif ch.isalpha():
                if ch not in SUIT_LETTERS:
                    raise self.error(f"unknown suit letter {ch!r} (expected one of m, p, s, z, f)")
                if not pending:
                    raise self.error(f"suit letter {ch!r} with no digits before it")
                for digit, where, marked in pending:
                    if digit > _MAX_NUMBER[ch]:
                        raise self.error(f"there is no tile {digit}{ch}", where)
                    placed.append(_Placed(Tile.of(digit, ch), where, marked))
                pending = []
            else:
                raise self.error(f"unexpected character {ch!r}")
            self.pos += 1
        if pending:
            raise self.error("digits with no suit letter after them", pending[0][1])
        return placed


def parse_tile(text: str) -> Tile:
    """One tile, e.g. ``"5z"``."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(f"expected one tile, found {len(tiles)}", text)
    return tiles[0]


def parse_tiles(text: str) -> list[Tile]:
    """A plain list of tiles such as ``"123m 55z"``, in the order written (no count checks)."""
    reader = _Reader(text)
    tiles: list[Tile] = []
    reader.skip_space()
    while reader.pos < len(text):
        tiles.extend(p.tile for p in reader.runs(allow_marks=False, stop=""))
        reader.skip_space()
    return tiles


def parse_meld(text: str, *, plays_as: Mapping[int, int] | None = None) -> Meld:
    """One bracketed meld, e.g. ``"[1'23m]"`` or ``"[7777m#]"``.

    ``plays_as`` maps a kind to the kind it plays as in melds (xiamen: the White plays as the
    gold's face, so with ``{31: 2}`` the meld ``[2m5z4m]`` is the chow 2-3-4m).
    """
    reader = _Reader(text)
    reader.skip_space()
    meld = _read_meld(reader, plays_as or {})
    reader.skip_space()
    if reader.pos != len(text):
        raise reader.error("unexpected text after the meld")
    return meld


def parse_hand(
    text: str,
    *,
    extra: int = 0,
    check_size: bool = True,
    plays_as: Mapping[int, int] | None = None,
) -> Hand:
    """A whole hand: concealed part, melds, then ``+X``.  See :meth:`Hand.parse`."""
    reader = _Reader(text)
    concealed: list[_Placed] = []
    melds: list[tuple[Meld, int]] = []
    winning: _Placed | None = None
    reader.skip_space()
    while reader.pos < len(text):
        ch = reader.peek()
        if winning is not None:
            raise reader.error("nothing may follow the winning tile")
        if ch == "[":
            melds.append((_read_meld(reader, plays_as or {}), reader.pos))
        elif ch == "+":
            start = reader.pos
            reader.pos += 1
            tiles = reader.runs(allow_marks=False, stop="[]+")
            if len(tiles) != 1:
                raise reader.error("'+' must be followed by exactly one winning tile", start)
            winning = tiles[0]
        elif ch == "]":
            raise reader.error("']' with no '[' before it")
        else:
            if melds:
                raise reader.error("concealed tiles must come before the melds")
            concealed.extend(reader.runs(allow_marks=False, stop="[]+"))
        reader.skip_space()

    flowers = [p for p in concealed if p.tile.is_flower]
    playing = [p for p in concealed if not p.tile.is_flower]
    if winning is not None and winning.tile.is_flower:
        raise reader.error("a flower cannot be the winning tile", winning.position)
    _check_copies(reader, playing, melds, winning, flowers)
    hand = Hand(
        concealed=tuple(sorted(p.tile for p in playing)),
        melds=tuple(m for m, _ in melds),
        winning=winning.tile if winning else None,
        flowers=tuple(sorted(p.tile for p in flowers)),
    )
    if check_size:
        _check_size(text, hand, extra)
    return hand


def _read_meld(reader: _Reader, plays_as: Mapping[int, int]) -> Meld:
    start = reader.pos
    if reader.peek() != "[":
        raise reader.error("a meld starts with '['")
    reader.pos += 1
    placed = reader.runs(allow_marks=True, stop="]" + "+#")
    mark = ""
    if reader.peek() in _MARKS:
        mark = reader.peek()
        reader.pos += 1
    if reader.peek() != "]":
        if not reader.peek():
            raise reader.error("meld not closed: ']' is missing", start)
        raise reader.error(f"unexpected {reader.peek()!r} in a meld")
    reader.pos += 1
    return _make_meld(reader, placed, mark, start, plays_as)


def _make_meld(
    reader: _Reader, placed: list[_Placed], mark: str, start: int, plays_as: Mapping[int, int]
) -> Meld:
    if any(p.tile.is_flower for p in placed):
        raise reader.error("a flower cannot be part of a meld", start)
    tiles = tuple(sorted(p.tile for p in placed))
    kinds = sorted(plays_as.get(t, t) for t in tiles)
    marked = [p.tile for p in placed if p.marked]
    if len(marked) > 1:
        raise reader.error("a meld marks at most one claimed tile", start)
    if marked and mark:
        raise reader.error("mark the claimed tile either after its digit or at the end", start)
    same = len(set(kinds)) == 1
    if len(tiles) == 4:
        if not same:
            raise reader.error("not a meld: a kong needs four identical tiles", start)
        if marked:
            raise reader.error("a kong is marked at the end: ' (明杠), + (加杠) or # (暗杠)", start)
        kind = {"'": MeldKind.MING_GANG, "+": MeldKind.JIA_GANG, "#": MeldKind.AN_GANG}.get(mark)
        if kind is None:
            raise reader.error("a kong needs a mark: ' (明杠), + (加杠) or # (暗杠)", start)
        return Meld(kind, tiles, None if kind is MeldKind.AN_GANG else tiles[0])
    if len(tiles) != 3:
        raise reader.error(f"not a meld: {len(tiles)} tiles (a meld has 3, a kong 4)", start)
    if mark in "+#" and mark:
        raise reader.error(f"mark {mark!r} is for kongs; a 3-tile meld is marked with '", start)
    if same:
        return Meld(MeldKind.PENG, tiles, tiles[0])
    is_run = kinds == list(range(kinds[0], kinds[0] + 3))
    if is_run and kinds[0] < 27 and kinds[0] // 9 == kinds[2] // 9:
        return Meld(MeldKind.CHI, tiles, marked[0] if marked else None)
    raise reader.error("not a meld: the tiles are neither a chow nor a pung", start)


def _check_copies(
    reader: _Reader,
    concealed: list[_Placed],
    melds: list[tuple[Meld, int]],
    winning: _Placed | None,
    flowers: list[_Placed],
) -> None:
    seen = [0] * (NUM_KINDS + 8)
    for p in flowers:
        seen[p.tile] += 1
        if seen[p.tile] > 1:
            raise reader.error(f"flower {p.tile} appears twice (there is one of each)", p.position)
    for p in concealed:
        seen[p.tile] += 1
        if seen[p.tile] > 4:
            raise reader.error(f"a fifth copy of {p.tile}", p.position)
    for meld, end in melds:
        for tile in meld.tiles:
            seen[tile] += 1
            if seen[tile] > 4:
                raise reader.error(f"a fifth copy of {tile} (in a meld)", end - 1)
    if winning is not None:
        seen[winning.tile] += 1
        if seen[winning.tile] > 4:
            raise reader.error(f"a fifth copy of {winning.tile}", winning.position)


def _check_size(text: str, hand: Hand, extra: int) -> None:
    size = hand.size + extra
    held = f"{size} tiles" + (f" ({extra} outside the string)" if extra else "")
    if hand.winning is not None:
        if size != 14:
            hint = ""
            if size == 15 and hand.winning in hand.concealed:
                hint = " (the concealed part must not repeat the +X tile)"
            raise NotationError(
                f"a winning hand holds 14 tiles counting three per meld and the +X tile; "
                f"this one holds {held}{hint}",
                text,
            )
    elif size not in (13, 14):
        raise NotationError(
            f"a hand holds 13 or 14 tiles counting three per meld; this one holds {held}", text
        )


def format_tiles(tiles: Iterable[int]) -> str:
    """Canonical compact form: sorted, one suit letter per run, e.g. ``123m55z``."""
    out: list[str] = []
    suit = ""
    for tile in sorted(tiles):
        t = Tile(tile)
        if t.suit != suit and suit:
            out.append(suit)
        suit = t.suit
        out.append(str(t.number))
    if suit:
        out.append(suit)
    return "".join(out)


def format_meld(meld: Meld) -> str:
    """``[1'23m]``, ``[789m']``, ``[555z']``, ``[7777m']``, ``[7777m+]``, ``[7777m#]``."""
    if meld.kind is MeldKind.CHI and meld.claimed is not None:
        out: list[str] = []
        suit = ""
        marked = False
        for t in meld.tiles:
            if t.suit != suit and suit:
                out.append(suit)
            suit = t.suit
            out.append(str(t.number))
            if t == meld.claimed and not marked:
                out.append("'")
                marked = True
        return "[" + "".join(out) + suit + "]"
    mark = {
        MeldKind.CHI: "'",
        MeldKind.PENG: "'",
        MeldKind.MING_GANG: "'",
        MeldKind.JIA_GANG: "+",
        MeldKind.AN_GANG: "#",
    }[meld.kind]
    return "[" + format_tiles(meld.tiles) + mark + "]"


def format_hand(hand: Hand) -> str:
    """``123m456m11z [555z'] [789m'] +1z`` in canonical form (``123456m11z [555z'] …``)."""
    parts = [format_tiles(hand.concealed) + format_tiles(hand.flowers)]
    parts.extend(format_meld(m) for m in hand.melds)
    if hand.winning is not None:
        parts.append(f"+{hand.winning}")
    return " ".join(p for p in parts if p)
