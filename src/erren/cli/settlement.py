"""The settlement screen of ``erren play`` and ``erren arcade``: who won how, the winning
hand, the rows of the score and the points."""

from __future__ import annotations

from collections.abc import Mapping

from erren.cli.words import HUMAN, NAMES
from erren.display import Palette, score_lines
from erren.engine.result import AnyWinHow, ResultKind, WinHow
from erren.engine.state import HandResult

_HOW: dict[AnyWinHow, str] = {
    WinHow.ZIMO: "自摸 self-drawn",
    WinHow.DISCARD: "点和 on a discard",
    WinHow.ROBBING: "抢杠和 robbing a kong",
}
"""The shared ways to win, in the terminal's words (a family's own: its ``win_words``)."""


def settlement_lines(
    result: HandResult, pal: Palette, *, words: Mapping[AnyWinHow, str] | None = None
) -> list[str]:
    """The settlement screen: who won how (in the family's ``words``,
    :attr:`erren.engine.Family.win_words`, over the shared ones), the winning hand, the rows
    of the score (:class:`~erren.scoring.detail.FamilyScore`: fans, 水 or patterns, each
    family alike), its total and steps, and the points."""
    if result.kind is ResultKind.DRAW:
        return ["荒庄 — the wall is empty and nobody won. No points; the deal passes."]
    if result.kind is ResultKind.ABORT:
        return [f"The hand was aborted ({NAMES[result.loser or 0]} left the table)."]
    winner = result.winner if result.winner is not None else 0
    lines = []
    names = dict(_HOW)
    names.update(words or {})
    how = names.get(result.how, result.how) if result.how is not None else None
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
