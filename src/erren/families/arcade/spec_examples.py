"""The worked examples of arcade's spec as win rows' inputs: (example id, hand, context), the
context being ``erren score --rules arcade --jsonl``'s request without ``hand``.

Extracted once from the scoring tests' tables (``tests/scoring``), which hold the spec's
expected figures; the corpus rows carry erren's answers, labelled with these ids, first in the
family's win file (:mod:`erren.conformance.generate`)."""

from __future__ import annotations

from typing import Any

EXAMPLES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("arcade §6 E1", "234m567m234p45s77p +3s", {}),
    (
        "arcade §6 E2",
        "123m789m456p78s99p +9s",
        {"self_drawn": True, "baoting": "menqing"},
    ),
    ("arcade §6 E3", "22334m556677p99s +4m", {}),
    ("arcade §6 E4", "111222333m456p7s +7s", {}),
    ("arcade §6 E5", "12345678p22z [666z'] +9p", {}),
    ("arcade §6 E6", "1234556777789m +5m", {"self_drawn": True}),
    (
        "arcade §6 E7",
        "234m67p345s55p [9999s#] +8p",
        {"self_drawn": True, "kong_replacement": True},
    ),
    (
        "arcade §6 E8",
        "345m67m345p345s88p +8m",
        {"flowers": 1, "self_drawn": True, "kong_replacement": True},
    ),
    ("arcade §6 E9", "345m78p66s [4'56s] [222p'] +6p", {"last_tile": True}),
    ("arcade §6 E10", "456p23s55m [7'89m] [333z'] +1s", {"flowers": 2}),
    ("arcade §6 E11", "12345678m1112z5s +2z", {"wild": "5s", "self_drawn": True}),
    ("arcade §6 E12", "19m19p19s123467z5s +1m", {"wild": "5s"}),
    ("arcade §6 E13", "1113334466z [222z'] +4z", {}),
    ("arcade §6 E14", "111m333p555s777s9p +9p", {}),
    ("arcade §6 E15", "111m333p555s77s99p +9p", {}),
    ("arcade §6 E16", "1112345678999p +5p", {"self_drawn": True}),
    ("arcade §6 E17", "1112345678899p +9p", {"self_drawn": True}),
    ("arcade §6 E18", "666777888999m5m +5m", {"self_drawn": True}),
    ("arcade §6 E19", "55599m1122p3344s +5m", {}),
    ("arcade §6 E20", "55559m1122p3344s +9m", {}),
    ("arcade §6 E21", "234m56p666z777z5s5s +7p", {"wild": "5s"}),
    ("arcade §6 E22", "2233446688s666z +4s", {"self_drawn": True}),
    ("arcade §6 E23", "123456789s1114z +4z", {}),
    (
        "arcade §6 E24",
        "2233445566788p +7p",
        {"flowers": 1, "self_drawn": True, "baoting": "menqing"},
    ),
    (
        "arcade §6 E25",
        "2233334455667p +7p",
        {"flowers": 1, "self_drawn": True, "baoting": "menqing"},
    ),
    (
        "arcade §6 E26",
        "234m456p789s13s66z +5s",
        {"wild": "5s", "haidi": True, "baoting": "menqing"},
    ),
    ("arcade §6 E27", "678m345p234s56s77p +7s", {"robbing_kong": True}),
    (
        "arcade §6 E28",
        "123m456m789p1112z +2z",
        {"flowers": 3, "dealer": True, "first_turn": "tianhu"},
    ),
    ("arcade §6 E29", "234m456p678s5599s +9s", {"first_turn": "dihu"}),
    ("arcade §6 E30", "12345m33456p789s +6m", {"baoting": "tianting"}),
    ("arcade §6 E31", "111m999p99s11122z +2z", {}),
    ("arcade §6 E32", "345m11345p3789s5z +4s", {"wild": "5z", "flowers": 1}),
    ("arcade §6 E33", "1112223334z555s +4z", {"wild": "5s", "self_drawn": True}),
    ("arcade §6 E34", "567m567p56s99s [111z'] +7s", {}),
    ("arcade §6 E35", "345m456p12s789s66m +3s", {"self_drawn": True, "last_tile": True}),
)
