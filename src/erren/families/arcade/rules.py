"""arcade's rules page: its prose (tiles, the wild and the flower kind, turn flow, 换牌 and the
offers, scoring) and its pattern rows (§4: the 18 limit hands, then the 28 others)
(:mod:`erren.rules`)."""

# The Chinese sentences are whole lines: ruff measures CJK at double width.
# ruff: noqa: E501
from __future__ import annotations

from typing import Any

from erren.families.arcade.scoring.calculator import FAN_CAP
from erren.families.arcade.scoring.patterns import PATTERNS
from erren.rules.page import FamilyRules, Words
from erren.rules.prose import Para, Section
from erren.rules.rows import RuleRow, join_names

__all__ = ["PAGE", "SECTIONS", "names", "rows"]


def rows(table: str | None) -> tuple[RuleRow, ...]:
    """The patterns, limit hands first, with their notes."""
    by_id = {p.id: (p.name, p.english) for p in PATTERNS}
    out = []
    for p in PATTERNS:
        zh: list[str] = []
        en: list[str] = []
        if p.limit:
            zh.append(f"役满 ×{p.value}")
            en.append(f"limit hand ×{p.value}")
        if p.closed:
            zh.append("须门清")
            en.append("concealed hands only")
        if p.fallback:
            zh.append("无其他番（花牌除外）时计")
            en.append("only when no other pattern but Flowers scores")
        elif p.excludes:
            a, b = join_names([by_id[i] for i in p.excludes if i in by_id])
            zh.append(f"不计{a}")
            en.append(f"not counted with it: {b}")
        if p.bonus:
            zh.append("每张花计一次")
            en.append("once per flower")
        out.append(RuleRow(p.id, p.name, p.english, p.value, "；".join(zh), "; ".join(en), p.limit))
    return tuple(out)


def names() -> dict[str, Any]:
    """The settlement screen's names: every pattern, Chinese → English and id."""
    return {"arcade": {p.name: {"en": p.english, "id": p.id} for p in PATTERNS}}


SECTIONS: tuple[Section, ...] = (
    Section(
        "tiles",
        "用牌",
        "Tiles",
        (
            Para(
                "136 张：万饼条 1–9、东南西北白发中，各 4 张。每局只用 71 张，另有 64 张备牌。",
                "136 tiles: characters, dots and bamboo 1–9 and the seven honors, four of each. "
                "Each hand plays 71 of them; 64 more wait in a reserve.",
                "arcade R1.1, R1.3",
            ),
            Para(
                "财神：第 72 张翻开作指示牌，同种的其余三张是财神（百搭），不能吃碰杠。",
                "The wild (财神): the 72nd tile is turned up; the other three tiles of its kind are "
                "wild in a winning hand and never in a chow, pung or kong.",
                "arcade R1.9a–R1.9c",
            ),
            Para(
                "白板是花牌（财神是白板时红中为花）：摸到即亮出补牌，和牌时每张计 1 番。",
                "The White is the flower kind (the Red when the wild is White): it is set aside at "
                "once and replaced, and counts 1 fan each for a winner.",
                "arcade R1.10–R1.12",
            ),
        ),
    ),
    Section(
        "flow",
        "流程",
        "Turn flow",
        (
            Para(
                "庄家 14 张先打。轮流摸打；对手打出的牌可和、明杠、碰、吃。和牌型：四副面子一对将、七对、国士无双。",
                "The dealer starts with 14 tiles. Turns alternate; on a discard the opponent may "
                "win, kong, pung or chow. Shapes: four sets and a pair, seven pairs, thirteen orphans.",
                "arcade R1.14, R2.4, R2.6, R5.1",
            ),
            Para(
                "牌墙摸完后进入海底捞月：从备牌补摸。",
                "When the wall runs out, the post-draw sea-bottom phase (海底捞月) draws from the "
                "reserve.",
                "arcade R2.19",
            ),
        ),
    ),
    Section(
        "special",
        "特殊操作",
        "Special actions",
        (
            Para(
                "换牌：开局时可把任意张手牌换成备牌（每局一次）。",
                "Opening exchange (换牌): at the start you may swap any number of tiles for tiles of "
                "the reserve, once a hand.",
                "arcade R2.21",
            ),
            Para(
                "碰牌机会：摸牌后系统可能送来一副刻子，给出三张手牌即可换入。搓牌：摸牌前可能允许你点名要一张牌。",
                "Pung offer: after a draw the system may offer a pung; give three tiles to take it. "
                "Pick-any (搓牌): before a draw you may be allowed to name the tile you want.",
                "arcade R2.22, R2.23",
            ),
            Para(
                "报听：打牌时听牌可报听，之后不能换牌，系统代摸；门清报听、天听另计番。",
                "Declaring ready (报听): with a discard; the hand is then frozen and the system draws "
                "for you. A concealed declaration and heavenly ready (天听) score their own patterns.",
                "arcade R2.12, R2.13",
            ),
        ),
    ),
    Section(
        "scoring",
        "计分",
        "Scoring",
        (
            Para(
                "非役满牌型相加计番，13 番封顶；役满牌型按倍数计，对战得 13 分。取分值最高的拆法。",
                "Non-limit patterns add up in fan, capped at 13; a limit hand scores its multiple "
                "(13 points in versus). The best interpretation counts.",
                "arcade R5.3, R5.7",
            ),
        ),
    ),
)


PAGE = FamilyRules(
    sections=SECTIONS,
    rows=rows,
    cap=FAN_CAP,  # R5.7: 13 fan
    names=names,
    words=Words(
        flags={"haidi": ("海底", "post-draw sea-bottom")},
        tiles={"wild": ("财神", "wild")},
        words={
            "baoting": (
                ("报听", "declared ready"),
                {
                    "open": ("副露", "with an open hand"),
                    "menqing": ("门清", "concealed"),
                    "tianting": ("天听", "on the first discard"),
                },
            ),
            "first_turn": (
                ("首巡", "first turn"),
                {
                    "tianhu": ("天和", "heavenly hand"),
                    "dihu": ("地和", "earthly hand"),
                    "renhu": ("人和", "human hand"),
                },
            ),
        },
    ),
    constructed={
        None: {
            "L3": ("234m567m234p45s77p +3s", {"first_turn": "renhu"}),
            "L6": ("9s9s9s666z777z123m4p +4p", {"wild": "9s"}),  # three wilds play the Whites
            "L15": ("111s555s777s99s77z +9s", {}),
        },
    },
)
"""The page: hands written for the three rows the corpus never scores."""
