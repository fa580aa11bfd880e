"""A family's part of the two-seat mjai profile: the messages of its own event kinds and of its
own moves (``erren:gold``, ``erren:sanjindao``, ``erren:exchange``…, docs/mjai-2p.md).

The shared stream (:mod:`erren.mjai.stream`) writes the shared events and moves and asks the
family's :class:`MjaiExtension` (``Family.mjai()``) for the rest; a family without one writes
nothing for its own events, and its own moves have no mjai message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from erren.engine.actions import Action
from erren.engine.events import Event
from erren.engine.observation import Observation

__all__ = ["PREFIX", "Answer", "Message", "MjaiExtension", "extension"]

PREFIX = "erren:"
"""The namespace of the profile's extensions: message types and keys."""

Message = dict[str, object]
"""One mjai message, JSON-serialisable."""


def extension(kind: str, **fields: object) -> Message:
    """An extension message of the profile: ``{"type": "erren:<kind>", ...fields}``."""
    return {"type": PREFIX + kind, **fields}


@dataclass(frozen=True, slots=True)
class Answer:
    """What picks the move an answer of one mjai type asks for, besides its type: the fields the
    message must carry (tiles, ``consumed``, ``target``) and those it may (a tile that tells two
    moves of the type apart when present)."""

    fields: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()


class MjaiExtension(Protocol):
    """A family's own mjai messages."""

    @property
    def answers(self) -> Mapping[str, Answer]:
        """The types of the answers that make the family's own moves (``erren:sanjindao``...)
        and what picks the move among the legal ones (:func:`erren.mjai.stream.mjai_to_action`)."""
        ...

    def event(self, event: Event, forget_draw: Callable[[int], None]) -> list[Message] | None:
        """The messages of one of the family's own events as the stream's reader receives it
        (``forget_draw(seat)``: the seat's drawn tile is no longer the one a tsumogiri names);
        ``None``: not one of its kinds."""
        ...

    def action(self, action: Action, observation: Observation) -> Message | None:
        """The message a seat sends to make one of the family's own moves; ``None``: not one
        of its moves."""
        ...
