"""The prose of the rules pages, in Chinese and English: each family's tiles, turn flow, special
actions and scoring, short and each paragraph citing the clause of ``/spec`` it summarises.
The values of fans, patterns and 水 items are not here: they come from the scorers' tables
(:mod:`erren.rules.rows`)."""

# The Chinese sentences are whole lines: ruff measures CJK at double width.
# ruff: noqa: E501
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PROSE", "Para", "Section"]


@dataclass(frozen=True, slots=True)
class Para:
    """A paragraph in both languages and the spec clause it follows."""

    zh: str
    en: str
    ref: str


@dataclass(frozen=True, slots=True)
class Section:
    """A section of a rules page: ``id`` (``tiles``, ``flow``, ``special``, ``scoring``)."""

    id: str
    title_zh: str
    title_en: str
    paras: tuple[Para, ...]


_GUOBIAO = (
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

_XIAMEN = (
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

_ARCADE = (
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

PROSE: dict[str, tuple[Section, ...]] = {
    "guobiao-2p": _GUOBIAO,
    "xiamen": _XIAMEN,
    "arcade": _ARCADE,
}
"""Each family's sections, in page order."""
