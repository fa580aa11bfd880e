"""guobiao-2p's rules page: its prose (tiles, turn flow, 报听 and 托管, scoring) and its fan
rows, read from the ``2p`` and ``gb`` fan tables (:mod:`erren.rules`)."""

# The Chinese sentences are whole lines: ruff measures CJK at double width.
# ruff: noqa: E501
from __future__ import annotations

from typing import Any

from erren.families.guobiao.scoring.fans import TABLES
from erren.rules.page import FamilyRules, Words
from erren.rules.prose import Para, Section
from erren.rules.rows import RuleRow, join_names

__all__ = ["PAGE", "SECTIONS", "names", "rows"]


def rows(table: str | None) -> tuple[RuleRow, ...]:
    """The fans of ``table`` (``2p`` by default) with their notes."""
    fans = TABLES[table or "2p"]
    by_id = {f.id: (f.name, f.english) for f in fans}
    out = []
    for fan in fans:
        zh: list[str] = []
        en: list[str] = []
        excluded = [by_id[i] for i in fan.excludes if i in by_id]
        if excluded:
            a, b = join_names(excluded)
            zh.append(f"不计{a}")
            en.append(f"not counted with it: {b}")
        if fan.per:
            zh.append("每个计一次")
            en.append("counted once per occurrence")
        if fan.bonus:
            zh.append("每张花计一次，不计入起和")
            en.append("once per flower; not part of the minimum fan")
        if fan.fallback:
            zh.append("无其他番时计")
            en.append("only when no other fan scores")
        out.append(RuleRow(fan.id, fan.name, fan.english, fan.value, "；".join(zh), "; ".join(en)))
    return tuple(out)


def names() -> dict[str, Any]:
    """The settlement screen's names: every fan of both tables, Chinese → English and id."""
    fans: dict[str, dict[str, str]] = {}
    for table in TABLES.values():
        for fan in table:
            fans.setdefault(fan.name, {"en": fan.english, "id": fan.id})
    return {"guobiao-2p": fans}


SECTIONS: tuple[Section, ...] = (
    Section(
        "tiles",
        "用牌",
        "Tiles",
        (
            Para(
                "64 张：一门序数牌（万，房间可选饼或条）1–9 各 4 张，东南西北、白发中各 4 张。无花牌（房间可开）。",
                "64 tiles: one suit (characters; a room may choose dots or bamboo) 1–9, four each, "
                "and the four winds and three dragons, four each. No flowers unless the room adds them.",
                "guobiao-2p §1.1",
            ),
            Para(
                "庄家 14 张、闲家 13 张；正常摸牌从牌墙前端，杠后补牌从尾端；没有死牌墙。",
                "The dealer gets 14 tiles, the non-dealer 13. Draws come from the front of the wall, "
                "replacements after a kong from the back; there is no dead wall.",
                "guobiao-2p §1.4, §1.5",
            ),
        ),
    ),
    Section(
        "flow",
        "流程",
        "Turn flow",
        (
            Para(
                "庄家先打一张。之后轮流：摸一张、打一张。对手打出的牌可以和、杠、碰或吃（两人对局时对手既是上家也是下家，每张都能吃）。",
                "The dealer discards first; then turns alternate: draw one, discard one. On the "
                "opponent's discard you may win, kong, pung or chow (with two players he is always "
                "the player before you, so every discard can be chowed).",
                "guobiao-2p §2.3, §2.4",
            ),
            Para(
                "吃、碰后只能打牌，不能杠也不能自摸。暗杠、加杠后从牌尾补一张；加杠可被抢杠和。",
                "After a chow or pung you must discard: no kong, no self-drawn win. A concealed or "
                "added kong draws a replacement from the back; an added kong can be robbed.",
                "guobiao-2p §2.3, §2.6, §2.7",
            ),
            Para(
                "和牌型：四副面子加一对将，或七对（四张相同算两对）。牌墙摸完无人和牌为荒庄。",
                "Winning shapes: four sets and a pair, or seven pairs (four of a kind counts as two "
                "pairs). If the wall runs out with no win, the hand is drawn (荒庄).",
                "guobiao-2p §3.1, §3.2, §1.8",
            ),
        ),
    ),
    Section(
        "special",
        "特殊操作",
        "Special actions",
        (
            Para(
                "报听：打牌时若剩下的 13 张已听牌，可同时报听。之后手牌锁定（不能吃碰杠），系统代摸代打，和牌时自动和（可设为询问）。",
                "Declaring ready (报听): with a discard that leaves a ready hand you may declare ready. "
                "The hand is then locked (no chow, pung or kong); the system draws and discards for "
                "you and takes the win when it comes (a room may ask instead).",
                "guobiao-2p §2.8",
            ),
            Para(
                "天听：在自己的第一次出牌时就报听（二人番表计番）。",
                "Heavenly ready (天听): declaring ready with your very first discard (a fan of the "
                "2-player table).",
                "guobiao-2p §2.8",
            ),
            Para(
                "托管：超时或离线时系统代打：有和就和，否则打出刚摸的牌。",
                "Auto-play (托管): on a timeout or while away the system plays for you: it wins when "
                "it can, otherwise discards the tile just drawn.",
                "guobiao-2p §2.9",
            ),
        ),
    ),
    Section(
        "scoring",
        "计分",
        "Scoring",
        (
            Para(
                "1 番 = 1 分。二人番表（54 番）起和 0 番、不封顶；国标番表（81 番）起和 8 番、13 分封顶。花牌不计入起和。",
                "1 fan = 1 point. The 2-player table (54 fans): no minimum, no cap. The Guobiao table "
                "(the 81 Chinese Official fans): 8 fan to win, payment capped at 13. Flowers never count toward the "
                "minimum.",
                "guobiao-2p §3.5, §6.1",
            ),
            Para(
                "计番按国标五原则：不重复、不拆移、不得相同、就高不就低、套算一次；取番数最高的拆法。",
                "Fans follow the five counting principles (no double counting, no splitting, no "
                "repeats, the higher reading, one use per set); the reading with the most fan counts.",
                "guobiao-2p §5.1, §5.2",
            ),
        ),
    ),
)


PAGE = FamilyRules(
    sections=SECTIONS,
    rows=rows,
    tables=("2p", "gb"),
    names=names,
    words=Words(
        flags={
            "ting": ("报听", "declared ready"),
            "tianting": ("天听", "heavenly ready"),
            "dihu": ("地和", "earthly win"),
        }
    ),
)
"""The page (its rows in the fan unit, no cap: the room's cap is a payment's, §6.1)."""
