"""Quick chat (快捷语) and stickers at a table: closed lists of ids, no free text.

A player says something at his table by sending the id of one of the :class:`Phrase` s or
:class:`Sticker` s (``{"type": "chat", "phrase": "hurry"}``); both seats hear the seat and the
id (:func:`erren.server.wire.chat_json`), and each client words the phrase in its own language
or draws the sticker.  Nothing else travels: no text, no number, no tile, so chat can carry no
hidden information.  A seat may speak once every :data:`CHAT_INTERVAL_S` game seconds
(:class:`ChatLimit`, on the table's clock); chat never reaches the game: it is not an action,
not an event, not in the record, and resets no timer.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Final

__all__ = [
    "CHAT_INTERVAL_S",
    "ChatLimit",
    "Phrase",
    "Said",
    "Sticker",
    "retry_ms",
]

CHAT_INTERVAL_S: Final = 3.0
"""The shortest time (game seconds) between two chat messages of one seat."""


class Phrase(StrEnum):
    """A quick-chat phrase (快捷语); the client words it (``web/js/i18n.js``, ``chat_<id>``)."""

    HURRY = "hurry"
    """快点吧，等得花儿都谢了 / Hurry up please."""
    NICE_PLAY = "nice-play"
    """你的牌打得也太好了 / Nice play."""
    DROPPED = "dropped"
    """不好意思，刚才掉线了 / Sorry, I dropped."""
    ONE_MORE = "one-more"
    """再来一局 / One more?"""
    GREAT_HAND = "great-hand"
    """好牌！/ Great hand!"""
    THANKS = "thanks"
    """谢谢 / Thanks."""
    HELLO = "hello"
    """你好，请多关照 / Hello, have a good game."""
    GOOD_GAME = "good-game"
    """打得不错，下次再战 / Good game."""
    SO_CLOSE = "so-close"
    """就差一张啊 / So close!"""
    LUCKY = "lucky"
    """运气真好 / Lucky you."""
    THINKING = "thinking"
    """让我想想 / Let me think."""
    BYE = "bye"
    """我先走了，再见 / Got to go, bye."""


class Sticker(StrEnum):
    """A sticker (表情); the client draws it (``web/js/chat.js``)."""

    SMILE = "smile"
    LAUGH = "laugh"
    CRY = "cry"
    ANGRY = "angry"
    SHOCK = "shock"
    COOL = "cool"
    SLEEPY = "sleepy"
    SWEAT = "sweat"
    LOVE = "love"
    THUMBS = "thumbs"
    TEA = "tea"
    FLOWER = "flower"


Said = Phrase | Sticker
"""What one chat message says."""


class ChatLimit:
    """When each seat last spoke: one message per :data:`CHAT_INTERVAL_S` game seconds, on
    the times the table's clock gives (``Clock.now``, real seconds; ``real`` the scaled
    interval)."""

    def __init__(self, seats: int, interval_real_s: float) -> None:
        self.interval = interval_real_s
        self._last: list[float | None] = [None] * seats

    def wait(self, seat: int, now: float) -> float:
        """The real seconds ``seat`` must still wait before it may speak (0: it may now)."""
        last = self._last[seat]
        if last is None:
            return 0.0
        return max(0.0, self.interval - (now - last))

    def spoke(self, seat: int, now: float) -> None:
        self._last[seat] = now


def retry_ms(wait_s: float) -> int:
    """A wait as the whole milliseconds the client greys its chat button for (rounded up; a
    clock's float noise below a microsecond is not a millisecond more)."""
    return max(1, math.ceil(round(wait_s * 1000, 3)))
