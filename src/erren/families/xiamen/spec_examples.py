"""The worked examples of xiamen's spec as win rows' inputs: (example id, hand, context), the
context being ``erren score --rules xiamen --jsonl``'s request without ``hand``.

Extracted once from the scoring tests' tables (``tests/scoring``), which hold the spec's
expected figures; the corpus rows carry erren's answers, labelled with these ids, first in the
family's win file (:mod:`erren.conformance.generate`)."""

from __future__ import annotations

from typing import Any

EXAMPLES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    (
        "xiamen §5.1 X-01",
        "123m678m222z9m [111z'] +9m",
        {"gold": "4m", "win_type": "pinghu", "flowers": "2f6f"},
    ),
    (
        "xiamen §5.1 X-02",
        "123m456m567m11m33z +3z",
        {"gold": "9m", "win_type": "pinghu", "dealer": True},
    ),
    (
        "xiamen §5.1 X-03",
        "777m555z234m6z [5555m#] +6z",
        {"gold": "1z", "win_type": "zimo", "flowers": "1f2f3f4f", "dealer": True},
    ),
    (
        "xiamen §5.1 X-04",
        "46m5m888m123m99m33z +3z",
        {"gold": "5m", "win_type": "zimo", "flowers": "5f"},
    ),
    (
        "xiamen §5.1 X-05",
        "111222333m456m9m +9m",
        {"gold": "7z", "win_type": "zimo", "dealer": True, "streak": 1},
    ),
    (
        "xiamen §5.1 X-06",
        "1m2m3m5z5z5z456m789m1z +1z",
        {"gold": "2m", "win_type": "zimo"},
    ),
    ("xiamen §5.1 X-07", "1m5z5z456m789m11z33z +3z", {"gold": "5z", "win_type": "zimo"}),
    (
        "xiamen §5.1 X-08",
        "8m [2222m+] [3333z'] [6666m#] [7777z#] +8m",
        {"gold": "9m", "win_type": "zimo"},
    ),
    (
        "xiamen §5.1 X-09",
        "456m456m789m11z22z +2z",
        {"gold": "3m", "win_type": "pinghu", "flowers": "12345678f", "dealer": True},
    ),
    (
        "xiamen §5.1 X-10",
        "67m345m111z444z99m +8m",
        {"gold": "2m", "win_type": "qianggang", "flowers": "7f"},
    ),
    (
        "xiamen §5.1 X-11",
        "123m456m789m111z3z +9m",
        {"gold": "3z", "win_type": "youjin", "flowers": "3f8f"},
    ),
    ("xiamen §5.1 X-12", "111m345m678m222z9m +4z", {"gold": "9m", "win_type": "youjin"}),
    (
        "xiamen §5.1 X-13",
        "234m345m666m8m [777z'] +1z",
        {"gold": "8m", "win_type": "youjin", "flowers": "1f2f3f", "dealer": True, "streak": 2},
    ),
    (
        "xiamen §5.1 X-14",
        "123m789m222z444z6m +1z",
        {"gold": "6m", "win_type": "shuangyou", "flowers": "1f2f3f4f"},
    ),
    (
        "xiamen §5.1 X-15",
        "345m345m88m111z33z +3z",
        {"gold": "6m", "win_type": "zimo", "flowers": "5f", "dealer": True},
    ),
    (
        "xiamen §5.1 X-16",
        "234m567m111z9m [777z']",
        {"gold": "9m", "win_type": "sanyou", "dealer": True},
    ),
    (
        "xiamen §5.1 X-17",
        "123m567m999m22z77z +4z",
        {"gold": "4z", "win_type": "qiangjin", "flowers": "5f6f7f8f"},
    ),
    (
        "xiamen §5.1 X-18",
        "234m456m888m11z55z +2z",
        {"gold": "2z", "win_type": "qiangjin", "dealer": True},
    ),
    (
        "xiamen §5.1 X-19",
        "777m111z2m5m9m3z4z6z5z",
        {"gold": "7m", "win_type": "sanjindao", "flowers": "1f"},
    ),
    (
        "xiamen §5.1 X-20",
        "123m789m444z66z77z +7z",
        {"gold": "5m", "win_type": "pinghu", "streak": 2},
    ),
)
