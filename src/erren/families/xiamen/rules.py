"""xiamen's rules page: its prose (tiles and golds, turn flow, 游金, scoring), its 水 rows
(R-4.3) and its win types with their multiplier and bonus (R-4.6) (:mod:`erren.rules`)."""

# The Chinese sentences are whole lines: ruff measures CJK at double width.
# ruff: noqa: E501
from __future__ import annotations

from typing import Any

from erren.families.xiamen.scoring.context import WinType
from erren.families.xiamen.scoring.water import WATER
from erren.rules.page import FamilyRules, Label, Words, label
from erren.rules.prose import Para, Section
from erren.rules.rows import RuleRow, join_names
from erren.scoring.detail import ScoreUnit

__all__ = ["PAGE", "SECTIONS", "names", "rows", "win_types"]


def rows(table: str | None) -> tuple[RuleRow, ...]:
    """The 水 items, each counted per occurrence (R-4.3)."""
    by_id = {r.id: (r.name, r.english) for r in WATER}
    out = []
    for r in WATER:
        zh = ["每个计"]
        en = ["per occurrence"]
        if r.replaces:
            a, b = join_names([by_id[i] for i in r.replaces])
            zh.append(f"不计{a}")
            en.append(f"replaces {b}")
        out.append(RuleRow(r.id, r.name, r.english, r.value, "；".join(zh), "; ".join(en)))
    return tuple(out)


def win_types() -> list[dict[str, Any]]:
    """The win types with their multiplier and bonus (R-4.6), from the scorer's enum."""
    return [
        {"id": t.value, "zh": t.chinese, "en": t.english, "m": t.multiplier, "bonus": t.bonus}
        for t in WinType
    ]


def names() -> dict[str, Any]:
    """The settlement screen's names: the 水 items (``"S-1 name"`` → English and id) and the
    win types (id → Chinese, English, ``m`` and bonus)."""
    water = {f"{r.id} {r.name}": {"en": r.english, "id": r.id} for r in WATER}
    win_types = {
        t.value: {"zh": t.chinese, "en": t.english, "m": t.multiplier, "bonus": t.bonus}
        for t in WinType
    }
    return {"xiamen": water, "xiamen_win": win_types}


def _win_type(key: str, value: Any) -> Label | None:
    if key != "win_type":
        return None
    try:
        kind = WinType(str(value))
    except ValueError:
        return label(f"和法 {value}", f"win type: {value}")
    return label(f"和法 {kind.chinese}", f"win type: {kind.english}")


SECTIONS: tuple[Section, ...] = (
    Section(
        "tiles",
        "用牌",
        "Tiles",
        (
            Para(
                "72 张：万子 1–9 各 4 张，东南西北白发中各 4 张，春夏秋冬梅兰竹菊 8 张花。没有饼和条。",
                "72 tiles: characters 1–9 and the seven honors, four of each, and 8 flowers: the "
                "four seasons (春夏秋冬) and the four plants (梅兰竹菊). No dots, no bamboo.",
                "xiamen R-1.1",
            ),
            Para(
                "开金：发牌、补花后翻开一张牌，同种的其余三张是金（百搭，可当任何牌），但不能用来吃碰杠，打出的金不能被吃碰或和。",
                "The gold reveal (开金): after the deal and the flower replacements (补花) a tile is "
                "turned up; the other three tiles of its kind "
                "are golds, wild for any tile in a winning hand, never in a chow, pung or kong; a "
                "discarded gold cannot be claimed or won on.",
                "xiamen R-1.6, R-1.7",
            ),
            Para(
                "白板是假金：当作金的那种牌使用（金是白板时除外）。",
                "The White is a fake gold: it plays as a natural tile of the gold's kind (unless the "
                "gold is the White).",
                "xiamen R-1.8",
            ),
        ),
    ),
    Section(
        "flow",
        "流程",
        "Turn flow",
        (
            Para(
                "庄家 14 张先打。轮流摸打；对手打出的牌可平和、明杠、碰、吃。花牌摸到即亮出并从牌尾补牌。",
                "The dealer starts with 14 tiles and discards. Turns alternate; on a discard the "
                "opponent may win (平和), kong, pung or chow. A flower is laid out at once and "
                "replaced from the back of the wall.",
                "xiamen R-2.2, R-2.4, R-2.6",
            ),
            Para(
                "跟打：对手打过的字牌，你手里恰有一张时必须跟着打出它。",
                "Follow-discard (跟打): if the opponent has discarded an honor and you hold exactly "
                "one of it, you must discard it.",
                "xiamen R-2.5",
            ),
            Para(
                "和牌型只有四副面子加一对将，金可补任何位置。手里有金时不能平和，只能自摸或游金。",
                "The only winning shape is four sets and a pair; golds fill any place. Holding a "
                "gold you cannot win on a discard, only by drawing.",
                "xiamen R-3.1, R-3.6",
            ),
        ),
    ),
    Section(
        "special",
        "特殊操作",
        "Special actions",
        (
            Para(
                "三金倒：开局时手握三张金，可直接和。抢金胡：开局时听牌者可把翻开的金拿进手里和牌。",
                "Three golds (三金倒): holding all three golds in the opening window wins at once. "
                "Robbing the gold (抢金胡): a ready "
                "hand in the opening window may take the revealed gold into the hand and win.",
                "xiamen R-2.3",
            ),
            Para(
                "游金：打牌后金单吊（金作将的一张，其余都成面子），从此摸到任何非金牌都自动和牌（游金）；摸到金可选择和，或打出金升为双游、再打为三游。",
                "Swimming gold (游金): a discard that leaves a gold alone as the pair (every other tile "
                "in sets) starts the swim; any non-gold draw then wins. Drawing a gold, you may win "
                "or discard it to climb to the double swim (双游), then the triple swim (三游).",
                "xiamen R-2.9",
            ),
            Para(
                "游金中不能吃碰杠；三游后对手只剩一次摸牌机会，摸不和则三游成功。",
                "While swimming you cannot claim or kong; after the triple swim the opponent gets one "
                "last draw, and if it does not win, the triple swim wins.",
                "xiamen R-2.9.1, R-2.9.4",
            ),
        ),
    ),
    Section(
        "scoring",
        "计分",
        "Scoring",
        (
            Para(
                "输家付 (底 + 水) × 倍数，封顶 100，再加和牌奖励。底 8 水，连庄每次翻倍。",
                "The loser pays (base + water) × M, capped at 100, plus the win type's bonus. The base "
                "(底) is 8, doubled for each consecutive dealer win; the water (水) is the sum of the "
                "table below.",
                "xiamen R-4.1, R-4.2, R-4.6",
            ),
        ),
    ),
)


PAGE = FamilyRules(
    sections=SECTIONS,
    rows=rows,
    unit=ScoreUnit.WATER,  # 水 items, each counted per occurrence
    win_types=win_types,
    words=Words(tiles={"gold": ("金", "gold")}, counts={"streak": ("连庄", "dealer streak")}),
    value_label=_win_type,
    names=names,
)
"""The page."""
