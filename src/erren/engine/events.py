"""Events: what happened, numbered, each saying who may see it (lila's numbered events).

The state appends one :class:`Event` per happening (a draw, a discard, a claim, the end...).
``seq`` numbers them from 0 so a client can ask for "events since N".  An event with
``private=True`` shows its ``tile`` and ``tiles`` only to ``player``; :meth:`Event.seen_by`
returns the copy another viewer may receive (the tile blanked, the event still there, so both
players see that a draw happened).  The shuffle is never shown to anyone.
"""

from __future__ import annotations

from typing import NamedTuple

from erren.tiles import Tile

__all__ = ["Event"]

NOBODY = -2
"""``player`` of an event nobody may see in full (the shuffle)."""


class Event(NamedTuple):
    """``kind`` is a short verb (``draw``, ``discard``, ``chi``, ``flower``, ``hu``...).
    ``player`` is the seat it concerns (``-1`` for chance/table events).  ``auto`` marks a
    move the engine made for a player (报听 or 托管 auto-play, a timeout).  A named tuple: cheap
    to build on the hot path, immutable, and compared by value."""

    seq: int
    kind: str
    player: int
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()
    private: bool = False
    auto: bool = False
    text: str = ""

    def seen_by(self, viewer: int) -> Event:
        """The event as ``viewer`` may receive it."""
        if not self.private or viewer == self.player:
            return self
        return self._replace(tile=None, tiles=())

    def __str__(self) -> str:
        who = "table" if self.player < 0 else f"seat {self.player}"
        what = str(self.tile) if self.tile is not None else ""
        if self.tiles:
            what = "".join(str(t) for t in self.tiles)
        extra = f" {self.text}" if self.text else ""
        return f"#{self.seq} {who} {self.kind} {what}{extra}".rstrip()
