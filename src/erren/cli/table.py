"""The screen before a decision in ``erren play`` and ``erren arcade``: the header, the board
and the player's hand with a number under each tile."""

from __future__ import annotations

from collections.abc import Sequence

from erren.cli.console import Console
from erren.cli.words import NAMES
from erren.display import Palette, board_lines, golds_first, wild_of
from erren.engine import Observation
from erren.tiles import Tile


def drawn_tile(obs: Observation) -> Tile | None:
    """The tile the player just drew (not after a chi or peng, where nothing was drawn): the
    observation's ``last_drawn``, which the engine shows only then — in a turn after a draw, and
    in the family's phases that decide on a drawn tile (``Family.drawn_tile_phases``)."""
    return obs.last_drawn


def hand_order(obs: Observation) -> list[Tile]:
    """The hand as shown: sorted, the tile just drawn set apart at the end."""
    tiles = golds_first(obs.hand, wild_of(obs))
    drawn = drawn_tile(obs)
    if drawn is not None and drawn in tiles:
        del tiles[len(tiles) - 1 - tiles[::-1].index(drawn)]
        tiles.append(drawn)
    return tiles


def hand_lines(obs: Observation, pal: Palette, *, numbered: bool) -> list[str]:
    """The hand in :func:`hand_order`, golds and wilds marked, with the tile numbers under it
    if ``numbered``."""
    tiles = hand_order(obs)
    apart = drawn_tile(obs) is not None
    cells: list[str] = []
    keys: list[str] = []
    wild, mark = wild_of(obs), obs.view.wild_mark
    for i, t in enumerate(tiles):
        gap = "  " if apart and i == len(tiles) - 1 else ""
        if wild is not None and t == wild:  # marked: xiamen's golds 金, arcade's 财
            cells.append(gap + pal.paint(mark, "1;33") + pal.tile(t))
            keys.append(gap + f"{i + 1:>5}")
            continue
        cells.append(gap + pal.tile(t))
        keys.append(gap + f"{i + 1:>3}")
    lines = ["Your hand  " + " ".join(cells)]
    if numbered:
        lines.append("           " + " ".join(keys))
    return lines


def show_table(
    io: Console,
    pal: Palette,
    obs: Observation,
    *,
    header: str,
    note: str | None,
    hand: Sequence[str],
    names: tuple[str, str] = NAMES,
) -> None:
    """The screen before a decision: the header, a note (the gold or wild), the board (the
    seats called ``names``, the player's first) and the hand."""
    io.say("")
    io.say(pal.dim("─" * 78))
    io.say(header)
    if note is not None:
        io.say(note)
    io.say("")
    for line in board_lines(obs, pal, names=names):
        io.say(line)
    io.say("")
    for line in hand:
        io.say(line)
    io.say("")
