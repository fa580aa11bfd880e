"""The one CJK-aware width helper of the terminal commands (``cli/_display.width``/``pad``)."""

from __future__ import annotations

import pytest

from erren.display import pad, width


@pytest.mark.parametrize(
    ("text", "columns"),
    [
        ("", 0),
        ("total", 5),
        ("清一色", 6),  # three CJK characters, two columns each
        ("清一色 Full Flush", 17),  # 6 + 1 space + 10
        ("5万", 3),  # a digit and a CJK character
        ("碰[5万 5万 5万]", 15),  # 碰 2, [ 1, 5万 3, space 1, 5万 3, space 1, 5万 3, ] 1
        ("水", 2),
        ("×2", 2),  # U+00D7 is ambiguous width: one column
        ("ＡＢ", 4),  # fullwidth Latin letters take two columns
        ("ｱ", 1),  # a halfwidth katakana takes one
    ],
)
def test_width_counts_cjk_as_two_columns(text: str, columns: int) -> None:
    assert width(text) == columns


def test_pad_left_aligns_by_default() -> None:
    assert pad("清一色", 10) == "清一色    "
    assert pad("ab", 5) == "ab   "
    assert width(pad("混一色 Half Flush", 20)) == 20


def test_pad_right_aligns_numbers() -> None:
    assert pad("24", 5, right=True) == "   24"
    assert pad("水", 4, right=True) == "  水"


def test_pad_never_cuts() -> None:
    assert pad("十三幺", 3) == "十三幺"
    assert pad("十三幺", 3, right=True) == "十三幺"
    assert pad("", 0) == ""
