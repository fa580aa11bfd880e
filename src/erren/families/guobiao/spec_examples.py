"""The worked examples of guobiao-2p's spec as win rows' inputs: (example id, hand, context), the
context being ``erren score --rules guobiao-2p --jsonl``'s request without ``hand``.

Extracted once from the scoring tests' tables (``tests/scoring``), which hold the spec's
expected figures; the corpus rows carry erren's answers, labelled with these ids, first in the
family's win file (:mod:`erren.conformance.generate`)."""

from __future__ import annotations

from typing import Any

EXAMPLES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    (
        "guobiao-2p §4.2.3 example 1",
        "444z2m [111z'] [222z'] [333z'] +2m",
        {"table": "2p"},
    ),
    ("guobiao-2p §4.2.3 example 2", "123m1z555z666z [777z'] +1z", {"table": "2p"}),
    (
        "guobiao-2p §4.2.3 example 3",
        "2m [1111z'] [2222z+] [5555m#] [9999m'] +2m",
        {"table": "2p"},
    ),
    ("guobiao-2p §4.2.3 example 4", "1122334455667m +7m", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 5", "123m111z222z333z4z +4z", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 6", "123m456m555z666z7z +7z", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 7", "111z222z555z66z77z +7z", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 8", "111m333m555m999m2m +2m", {"table": "2p"}),
    (
        "guobiao-2p §4.2.3 example 9",
        "234m234m5z [2'34m] [2'34m] +5z",
        {"table": "2p"},
    ),
    ("guobiao-2p §4.2.3 example 10", "1112345678999m +5m", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 11", "123m123m789m789m5m +5m", {"table": "2p"}),
    (
        "guobiao-2p §4.2.3 example 12",
        "123m456m789m111z22z",
        {"table": "2p", "self_drawn": True},
    ),
    (
        "guobiao-2p §4.2.3 example 13",
        "333m444m5z [111m'] [222m'] +5z",
        {"table": "2p"},
    ),
    ("guobiao-2p §4.2.3 example 14", "123m234m345m456m7z +7z", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 15", "666m777m888m9m [7'89m] +9m", {"table": "2p"}),
    (
        "guobiao-2p §4.2.3 example 16",
        "123m456m789m111z2z +2z",
        {"table": "2p", "dihu": True},
    ),
    ("guobiao-2p §4.2.3 example 17", "1112222333344m +4m", {"table": "2p"}),
    (
        "guobiao-2p §4.2.3 example 18",
        "123m5z [1111z'] [2222z#] [9999m+] +5z",
        {"table": "2p"},
    ),
    ("guobiao-2p §4.2.3 example 19", "113355m6m112277z +6m", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 20", "123m123m555z7z [1'23m] +7z", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 21", "222m333m444m567m1z +1z", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 22", "123m456m789m111z2z +2z", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 23", "123m234m345m999m1z +1z", {"table": "2p"}),
    (
        "guobiao-2p §4.2.3 example 24",
        "5z [1'23m] [4'56m] [777z'] [999m'] +5z",
        {"table": "2p"},
    ),
    ("guobiao-2p §4.2.3 example 25", "111m555m777z234m9m +9m", {"table": "2p"}),
    (
        "guobiao-2p §4.2.3 example 26",
        "111m999m2z [333z'] [555m'] +2z",
        {"table": "2p"},
    ),
    ("guobiao-2p §4.2.3 example 27", "123m111z222z333z5m +5m", {"table": "2p"}),
    (
        "guobiao-2p §4.2.3 example 28",
        "123m456m8m [2'34m] [555z'] +8m",
        {"table": "2p", "self_drawn": True, "last_tile": True},
    ),
    (
        "guobiao-2p §4.2.3 example 29",
        "123m456m8m [2'34m] [555z'] +8m",
        {"table": "2p", "last_tile": True},
    ),
    ("guobiao-2p §4.2.3 example 30", "123m234m678m999m5m +5m", {"table": "2p"}),
    (
        "guobiao-2p §4.2.3 example 31",
        "123m456m78m11z [2222z#] +9m",
        {"table": "2p", "self_drawn": True, "kong_replacement": True},
    ),
    (
        "guobiao-2p §4.2.3 example 32",
        "123m456m78m11z [555z'] +9m",
        {"table": "2p", "last_copy": True, "robbing_kong": True},
    ),
    ("guobiao-2p §4.2.3 example 33", "123m456m555z666z1z +1z", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 34", "123m456m999m555z1z +1z", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 35", "123m789m555m111z2z +2z", {"table": "2p"}),
    (
        "guobiao-2p §4.2.3 example 36",
        "123m456m1z [2222z#] [9999m#] +1z",
        {"table": "2p"},
    ),
    (
        "guobiao-2p §4.2.3 example 37",
        "123m234m678m999m5z +5z",
        {"table": "2p", "self_drawn": True},
    ),
    (
        "guobiao-2p §4.2.3 example 38",
        "123m456m1z [2222z'] [9999m+] +1z",
        {"table": "2p"},
    ),
    (
        "guobiao-2p §4.2.3 example 39",
        "123m234m678m111z5z +5z",
        {"table": "2p", "ting": True, "tianting": True},
    ),
    (
        "guobiao-2p §4.2.3 example 40",
        "123m234m67m111z55z +8m",
        {"table": "2p", "last_copy": True},
    ),
    ("guobiao-2p §4.2.3 example 41", "123m234m678m555z1z +1z", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 42", "123m234m678m999m1z +1z", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 43", "123m234m567m678m9m +9m", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 44", "123m345m678m3m111z +3m", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 45", "111m555m234m678m9m +9m", {"table": "2p"}),
    (
        "guobiao-2p §4.2.3 example 46",
        "123m234m1z [6'78m] [555m'] +1z",
        {"table": "2p", "self_drawn": True},
    ),
    ("guobiao-2p §4.2.3 example 47", "123m234m678m1z [5555m#] +1z", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 48", "234m345m567m678m8m +8m", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 49", "123m123m555z666z1z +1z", {"table": "2p"}),
    ("guobiao-2p §4.2.3 example 50", "123m234m678m999m1z +1z", {"table": "2p"}),
    (
        "guobiao-2p §4.2.3 example 51",
        "555m678m1z [1'23m] [2'34m] +1z",
        {"table": "2p", "ting": True},
    ),
    (
        "guobiao-2p §4.2.3 example 52",
        "555m678m1z [1'23m] [2'34m] +1z",
        {"table": "2p"},
    ),
    (
        "guobiao-2p §4.2.3 example 53",
        "123m234m1z [2222z'] [6'78m] +1z",
        {"table": "2p"},
    ),
    (
        "guobiao-2p §4.2.3 example 54",
        "555m678m1z [1'23m] [2'34m] +1z",
        {"table": "2p", "flowers": 2},
    ),
    ("guobiao-2p §5.3 W1 (table 2p)", "123456789m5z [111z'] +5z", {"table": "2p"}),
    ("guobiao-2p §5.3 W1 (table gb)", "123456789m5z [111z'] +5z", {"table": "gb"}),
    ("guobiao-2p §5.3 W2 (table 2p)", "1111m33m55m7m22z55z +7m", {"table": "2p"}),
    ("guobiao-2p §5.3 W2 (table gb)", "1111m33m55m7m22z55z +7m", {"table": "gb"}),
    (
        "guobiao-2p §5.3 W3 (table 2p)",
        "111m999m2z [555m'] [666z'] +2z",
        {"table": "2p"},
    ),
    (
        "guobiao-2p §5.3 W3 (table gb)",
        "111m999m2z [555m'] [666z'] +2z",
        {"table": "gb"},
    ),
    (
        "guobiao-2p §5.3 W4 (table 2p)",
        "234m567m8m [6'78m] [777z'] +8m",
        {"table": "2p"},
    ),
    (
        "guobiao-2p §5.3 W4 (table gb)",
        "234m567m8m [6'78m] [777z'] +8m",
        {"table": "gb"},
    ),
    ("guobiao-2p §5.3 W5 (table 2p)", "123m234m678m999m5m +5m", {"table": "2p"}),
    ("guobiao-2p §5.3 W5 (table gb)", "123m234m678m999m5m +5m", {"table": "gb"}),
    ("guobiao-2p §5.3 W6 (table 2p)", "222233334444m5z +5z", {"table": "2p"}),
    ("guobiao-2p §5.3 W6 (table gb)", "222233334444m5z +5z", {"table": "gb"}),
    (
        "guobiao-2p §5.3 W7 (table 2p)",
        "123m456m78m11z [555z'] +9m",
        {"table": "2p", "last_copy": True, "robbing_kong": True},
    ),
    (
        "guobiao-2p §5.3 W7 (table gb)",
        "123m456m78m11z [555z'] +9m",
        {"table": "gb", "last_copy": True, "robbing_kong": True},
    ),
    (
        "guobiao-2p §5.3 W8 (table 2p)",
        "234m456m9m [111z'] [7'89m] +9m",
        {"table": "2p", "self_drawn": True, "last_tile": True},
    ),
    (
        "guobiao-2p §5.3 W8 (table gb)",
        "234m456m9m [111z'] [7'89m] +9m",
        {"table": "gb", "self_drawn": True, "last_tile": True},
    ),
    (
        "guobiao-2p §5.3 W9 (table 2p)",
        "5z [1'23m] [4'56m] [777z'] [999m'] +5z",
        {"table": "2p", "last_tile": True},
    ),
    (
        "guobiao-2p §5.3 W9 (table gb)",
        "5z [1'23m] [4'56m] [777z'] [999m'] +5z",
        {"table": "gb", "last_tile": True},
    ),
    (
        "guobiao-2p §5.3 W10 (table 2p)",
        "12m456m11z [5555z#] [9999m+] +3m",
        {"table": "2p", "self_drawn": True, "kong_replacement": True},
    ),
    (
        "guobiao-2p §5.3 W10 (table gb)",
        "12m456m11z [5555z#] [9999m+] +3m",
        {"table": "gb", "self_drawn": True, "kong_replacement": True},
    ),
    (
        "guobiao-2p §5.3 W11 (table 2p)",
        "123m234m678m111z5z +5z",
        {"table": "2p", "ting": True},
    ),
    (
        "guobiao-2p §5.3 W11 (table gb)",
        "123m234m678m111z5z +5z",
        {"table": "gb", "ting": True},
    ),
    (
        "guobiao-2p §5.3 W12 (table 2p)",
        "123m456m789m111z22z",
        {"table": "2p", "self_drawn": True, "seat_wind": "1z"},
    ),
    (
        "guobiao-2p §5.3 W12 (table gb)",
        "123m456m789m111z22z",
        {"table": "gb", "self_drawn": True, "seat_wind": "1z"},
    ),
    (
        "guobiao-2p §5.3 W13 (table 2p)",
        "123m345m567m999m8m +8m",
        {"table": "2p", "dihu": True},
    ),
    (
        "guobiao-2p §5.3 W13 (table gb)",
        "123m345m567m999m8m +8m",
        {"table": "gb", "dihu": True},
    ),
    (
        "guobiao-2p §5.3 W14 (table 2p)",
        "555m678m1z [1'23m] [2'34m] +1z",
        {"table": "2p"},
    ),
    (
        "guobiao-2p §5.3 W14 (table gb)",
        "555m678m1z [1'23m] [2'34m] +1z",
        {"table": "gb"},
    ),
    (
        "guobiao-2p §5.3 W14 self-drawn (table 2p)",
        "555m678m1z [1'23m] [2'34m] +1z",
        {"table": "2p", "self_drawn": True},
    ),
    (
        "guobiao-2p §5.3 W14 self-drawn (table gb)",
        "555m678m1z [1'23m] [2'34m] +1z",
        {"table": "gb", "self_drawn": True},
    ),
    ("guobiao-2p §5.3 W15 (table 2p)", "123m456m456m111z2z +2z", {"table": "2p"}),
    ("guobiao-2p §5.3 W15 (table gb)", "123m456m456m111z2z +2z", {"table": "gb"}),
    ("guobiao-2p §5.3 W16 (table 2p)", "123m456m456m5z [1'23m] +5z", {"table": "2p"}),
    ("guobiao-2p §5.3 W16 (table gb)", "123m456m456m5z [1'23m] +5z", {"table": "gb"}),
    ("guobiao-2p §5.3 W17 (table 2p)", "123m1z555z666z [777z'] +1z", {"table": "2p"}),
    ("guobiao-2p §5.3 W17 (table gb)", "123m1z555z666z [777z'] +1z", {"table": "gb"}),
    ("guobiao-2p §5.3 W18 (table 2p)", "112233445566m5z +5z", {"table": "2p"}),
    ("guobiao-2p §5.3 W18 (table gb)", "112233445566m5z +5z", {"table": "gb"}),
)
