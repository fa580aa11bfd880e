"""The settlement screen of ``erren play`` and ``erren arcade``: who won how, the winning
hand, the rows of the score and the points."""

from __future__ import annotations

from erren.cli.words import HUMAN, NAMES
from erren.display import Palette, score_lines
from erren.engine.state import HandResult

_HOW = {
    "zimo": "自摸 self-drawn",
    "discard": "点和 on a discard",
    "robbing": "抢杠和 robbing a kong",
    "youjin": "游金 swimming gold",
    "shuangyou": "双游 double swim",
    "sanyou": "三游 triple swim",
    "qiangjin": "抢金胡 robbing the gold",
    "sanjindao": "三金倒 three golds",
}
_XIAMEN_HOW = {"zimo": "自摸 self-drawn", "discard": "平和 on a discard", "robbing": "抢杠胡"}


def settlement_lines(result: HandResult, pal: Palette, *, family: str = "") -> list[str]:
    """The settlement screen: who won how (in ``family``'s words), the winning hand, the rows
    of the score (:class:`~erren.scoring.detail.FamilyScore`: fans, 水 or patterns, each
    family alike), its total and steps, and the points."""
    if result.kind == "draw":
        return ["荒庄 — the wall is empty and nobody won. No points; the deal passes."]
    if result.kind == "abort":
        return [f"The hand was aborted ({NAMES[result.loser or 0]} left the table)."]
    winner = result.winner if result.winner is not None else 0
    lines = []
    names = dict(_HOW)
    if family == "xiamen":
        names.update(_XIAMEN_HOW)
    how = names.get(result.how or "", result.how)
    if winner == HUMAN:
        lines.append(pal.paint(f"You win — {how}!", "1;32"))
    else:
        lines.append(pal.paint(f"The computer wins — {how}.", "1;31"))
    hand = result.hand
    if hand is not None:
        text = pal.tiles(hand.concealed)
        if hand.melds:
            text += "   " + pal.melds(hand.melds)
        if hand.winning is not None:
            text += "   + " + pal.tile(hand.winning)
        lines.append("Winning hand  " + text)
    lines.append("")
    if result.detail is not None:
        lines += score_lines(result.detail)
        lines.append("")
    lines.append(_points_line(result))
    return lines


def _points_line(result: HandResult) -> str:
    d0, d1 = result.deltas
    return f"Points: {result.points}   You {d0:+d}   Computer {d1:+d}"
