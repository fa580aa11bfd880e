"""docs/rl.md tabulates the encodings as the code has them."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import erren.rl
from erren.rl.actions import ACTIONS, NUM_ACTIONS
from erren.rl.planes import GAME_COLUMNS, PLANES, SEAT_COLUMNS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")


def test_the_planes_tables_list_every_plane_and_column() -> None:
    planes = "\n".join(
        ["| row | plane | meaning |", "| ---: | --- | --- |"]
        + [f"| {i} | `{name}` | {meaning} |" for i, (name, meaning) in enumerate(PLANES)]
    )
    seat = "\n".join(
        ["| column | `me.facts`, `opp.facts` |", "| ---: | --- |"]
        + [f"| {i} | {name} |" for i, name in enumerate(SEAT_COLUMNS)]
    )
    game = "\n".join(
        ["| column | `game` |", "| ---: | --- |"]
        + [f"| {i} | {name} |" for i, name in enumerate(GAME_COLUMNS)]
    )
    for table in (planes, seat, game):
        assert table in DOC


def test_the_action_table_covers_every_index_once() -> None:
    section = DOC[DOC.index("## Actions") : DOC.index("## Observation planes")]
    covered: list[int] = []
    for first, last, verb in re.findall(r"^\| (\d+)(?:–(\d+))? \| `(\w+)` \|", section, re.M):
        start = int(first)
        end = int(last) if last else start
        for index in range(start, end + 1):
            assert ACTIONS[index][0].value == verb
            covered.append(index)
    assert covered == list(range(NUM_ACTIONS))


def test_the_package_example_runs() -> None:
    failed, tried = doctest.testmod(erren.rl)
    assert (failed, tried) == (0, 5)
