"""The shared notation: every form parses and prints back; every bad string names its fault."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from erren import Hand, Meld, MeldKind, NotationError, Tile
from erren.notation import format_tiles, parse_hand, parse_meld, parse_tile, parse_tiles
from erren.tiles import ALL_KINDS, FLOWERS

# --- tiles -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tile"),
    [
        ("1m", Tile.M1),
        ("9p", Tile.P9),
        ("1s", Tile.S1),
        ("1z", Tile.EAST),
        ("5z", Tile.WHITE),
        ("6z", Tile.GREEN),
        ("7z", Tile.RED),
        ("1f", Tile.F1),
        ("8f", Tile.F8),
    ],
)
def test_tile_names_and_indices(text: str, tile: Tile) -> None:
    assert parse_tile(text) is tile
    assert str(tile) == text


def test_every_kind_round_trips_and_repr_is_code() -> None:
    for tile in (*ALL_KINDS, *FLOWERS):
        assert parse_tile(str(tile)) is tile
        assert eval(repr(tile), {"Tile": Tile}) is tile
    assert [t.index if False else int(t) for t in ALL_KINDS] == list(range(34))


def test_tile_properties() -> None:
    assert Tile.M1.is_terminal and Tile.S9.is_terminal and not Tile.P5.is_terminal
    assert Tile.EAST.is_wind and Tile.RED.is_dragon and Tile.WHITE.is_honor
    assert Tile.EAST.is_terminal_or_honor and not Tile.M2.is_terminal_or_honor
    assert Tile.P3.suit == "p" and Tile.P3.number == 3 and Tile.NORTH.number == 4
    assert Tile.F5.is_flower and Tile.F5.number == 5 and not Tile.RED.is_flower


@pytest.mark.parametrize(
    ("text", "reason", "position"),
    [
        ("1x", "unknown suit letter 'x'", 1),
        ("10m", "digit 0", 1),
        ("8z", "no tile 8z", 0),
        ("9f", "no tile 9f", 0),
        ("12", "digits with no suit letter", 0),
        ("m", "suit letter 'm' with no digits", 0),
        ("1m!", "unexpected character '!'", 2),
    ],
)
def test_bad_tiles_name_position_and_reason(text: str, reason: str, position: int) -> None:
    with pytest.raises(NotationError) as caught:
        parse_tiles(text)
    assert reason in str(caught.value)
    assert caught.value.position == position


# --- melds -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "claimed"),
    [
        ("[1'23m]", MeldKind.CHI, Tile.M1),
        ("[12'3m]", MeldKind.CHI, Tile.M2),
        ("[789m']", MeldKind.CHI, None),
        ("[555z']", MeldKind.PENG, Tile.WHITE),
        ("[7777m']", MeldKind.MING_GANG, Tile.M7),
        ("[7777m+]", MeldKind.JIA_GANG, Tile.M7),
        ("[7777m#]", MeldKind.AN_GANG, None),
    ],
)
def test_melds_parse_and_print_back(text: str, kind: MeldKind, claimed: Tile | None) -> None:
    meld = parse_meld(text)
    assert meld.kind is kind
    assert meld.claimed == claimed
    assert str(meld) == text
    assert eval(repr(meld), {"Meld": Meld}) == meld
    assert meld.is_kong == (len(meld.tiles) == 4)
    assert meld.is_concealed == (kind is MeldKind.AN_GANG)


def test_chi_written_out_of_order_is_sorted() -> None:
    meld = parse_meld("[3'12p]")
    assert meld.tiles == (Tile.P1, Tile.P2, Tile.P3) and meld.claimed is Tile.P3
    assert str(meld) == "[123'p]"


def test_white_plays_as_the_gold_in_xiamen_melds() -> None:
    meld = parse_meld("[2m5z4m]", plays_as={Tile.WHITE: Tile.M3})
    assert meld.kind is MeldKind.CHI
    assert parse_meld(str(meld), plays_as={Tile.WHITE: Tile.M3}) == meld
    with pytest.raises(NotationError, match="neither a chow nor a pung"):
        parse_meld("[2m5z4m]")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[124m]", "neither a chow nor a pung"),
        ("[123z']", "neither a chow nor a pung"),
        ("[891m']", "neither a chow nor a pung"),
        ("[1111m]", "a kong needs a mark"),
        ("[111m#]", "is for kongs"),
        ("[12m]", "2 tiles"),
        ("[11111m#]", "5 tiles"),
        ("[1'2'3m]", "at most one claimed tile"),
        ("[1'23m']", "either after its digit or at the end"),
        ("[11'11m]", "a kong is marked at the end"),
        ("[123m", "']' is missing"),
        ("[1f2f3f]", "flower cannot be part of a meld"),
        ("[1112m']", "four identical tiles"),
    ],
)
def test_bad_melds(text: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason.replace("(", r"\(").replace("[", r"\[")):
        parse_meld(text)


# --- hands -------------------------------------------------------------------------------

SPEC_HANDS = [
    "123678m222z9m [111z'] +9m",
    "777m555z234m6z [5555m#] +6z",
    "8m [2222m+] [3333z'] [6666m#] [7777z#] +8m",
    "444z2m [111z'] [222z'] [333z'] +2m",
    "1122334455667m +7m",
    "234m234m5z [2'34m] [2'34m] +5z",
    "1112345678999m +5m",
    "456p23s55m [7'89m] [333z'] +1s",
    "123m456m789m111z22z",  # the dealer's 14 dealt tiles: no winning tile
]


@pytest.mark.parametrize("text", SPEC_HANDS)
def test_spec_hands_round_trip(text: str) -> None:
    hand = Hand.parse(text)
    assert Hand.parse(str(hand)) == hand
    assert eval(repr(hand), {"Hand": Hand}) == hand
    assert hand.size == 14


def test_hand_parts() -> None:
    hand = Hand.parse("123m456m11z [555z'] [7'89m] +1z", check_size=False)
    assert hand.concealed == (
        Tile.M1,
        Tile.M2,
        Tile.M3,
        Tile.M4,
        Tile.M5,
        Tile.M6,
        Tile.EAST,
        Tile.EAST,
    )
    assert [m.kind for m in hand.melds] == [MeldKind.PENG, MeldKind.CHI]
    assert hand.winning is Tile.EAST
    assert str(hand) == "123456m11z [555z'] [7'89m] +1z"
    assert hand.concealed_counts()[Tile.EAST] == 3
    assert hand.concealed_counts(with_winning=False)[Tile.EAST] == 2
    assert hand.meld_counts()[Tile.WHITE] == 3
    assert sum(hand.all_counts()) == 15


def test_flowers_are_kept_apart() -> None:
    hand = Hand.parse("123456789m1234z15f")
    assert hand.flowers == (Tile.F1, Tile.F5)
    assert len(hand.concealed) == 13
    assert str(hand) == "123456789m1234z15f"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("11111m23456789m", "a fifth copy of 1m"),
        ("11m2345678m1234z [111m']", "a fifth copy of 1m (in a meld)"),
        ("1111m2345678m9m +1m", "a fifth copy of 1m"),
        ("123m456m789m12345z +6z", "holds 15 tiles"),
        ("123456789m1z", "holds 10 tiles"),
        ("123m456m789m11z [555z'] +1z", "must not repeat the +X tile"),
        ("123m [1'23m] 456m", "concealed tiles must come before the melds"),
        ("123456789m1234z +5z5z", "exactly one winning tile"),
        ("123456789m123z +5z 1m", "nothing may follow the winning tile"),
        ("123456789m123z ]", "']' with no '['"),
        ("12345678m1234z +1f", "a flower cannot be the winning tile"),
        ("1f1f123456789m1234z", "flower 1f appears twice"),
    ],
)
def test_bad_hands_name_the_fault(text: str, reason: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_hand(text)
    assert reason in str(caught.value)
    assert text in str(caught.value)


def test_size_counts_extra_tiles() -> None:
    assert len(Hand.parse("123456789m12z", extra=2).concealed) == 11
    with pytest.raises(NotationError, match="2 outside the string"):
        Hand.parse("123456789m1234z", extra=2)


# --- property: whatever parses prints back to itself -------------------------------------


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """Random legal hands: up to four melds of every kind, a winning tile or not, flowers."""
    pool = [k for k in range(34) for _ in range(4)]
    order = draw(st.permutations(pool))
    used = iter(order)
    melds: list[Meld] = []
    left = [4] * 34
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(list(MeldKind)))
        if kind is MeldKind.CHI:
            start = draw(st.sampled_from([s * 9 + n for s in range(3) for n in range(7)]))
            tiles = [start, start + 1, start + 2]
        else:
            tiles = [draw(st.integers(0, 33))] * (3 if kind is MeldKind.PENG else 4)
        if any(left[t] < tiles.count(t) for t in set(tiles)):
            continue
        for t in tiles:
            left[t] -= 1
        meld_tiles = tuple(Tile(t) for t in tiles)
        claimed: Tile | None
        if kind is MeldKind.CHI:
            claimed = draw(st.sampled_from([None, *meld_tiles]))
        else:
            claimed = None if kind is MeldKind.AN_GANG else meld_tiles[0]
        melds.append(Meld(kind, meld_tiles, claimed))
    size = 14 - 3 * len(melds)
    concealed: list[Tile] = []
    for t in used:
        if len(concealed) == size:
            break
        if left[t]:
            left[t] -= 1
            concealed.append(Tile(t))
    winning = concealed.pop() if draw(st.booleans()) else None
    flowers = tuple(sorted(draw(st.sets(st.sampled_from(FLOWERS), max_size=8))))
    return Hand(tuple(sorted(concealed)), tuple(melds), winning, flowers)


@given(hands())
def test_printing_then_parsing_gives_the_hand_back(hand: Hand) -> None:
    text = str(hand)
    assert Hand.parse(text) == hand
    assert str(Hand.parse(text)) == text


@given(st.text(alphabet="0123456789mpszfx[]'+# ", max_size=30))
def test_any_string_parses_or_raises_notation_error(text: str) -> None:
    try:
        hand = Hand.parse(text, check_size=False)
    except NotationError as error:
        assert error.position is None or 0 <= error.position <= len(text)
    else:
        assert Hand.parse(str(hand), check_size=False) == hand


def test_format_tiles_is_canonical() -> None:
    assert format_tiles(parse_tiles("5z 3m1m2m 9p")) == "123m9p5z"
