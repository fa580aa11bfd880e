"""erren records as mjai logs: the full log (``seat=None``) or one seat's stream.

A hand's messages come from replaying its record action by action: each chance outcome goes to
:meth:`MjaiStream.chance` (the full log keeps it), each new event to :meth:`MjaiStream.feed`
(as the seat sees it).  Several hands make one game: ``start_game`` once, and again whenever the
ruleset or its options change (the previous game closed by ``end_game``); the scores in
``start_kyoku`` run on from hand to hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from erren.engine.record import Record, replay
from erren.mjai.stream import Message, MjaiStream

__all__ = ["export_mjai", "hand_messages"]


def hand_messages(
    record: Record, seat: int | None, *, scores: tuple[int, int] = (0, 0)
) -> tuple[list[Message], tuple[int, int]]:
    """The messages of one hand (``start_kyoku`` .. ``end_kyoku``) for ``seat`` (``None``: the
    full log), and the scores after it."""
    from erren.engine.actions import Action  # noqa: PLC0415

    state = replay(record, upto=0)
    stream = MjaiStream(
        state.ruleset,
        seat,
        dealer=record.dealer,
        round_wind=record.round_wind,
        streak=record.streak,
        scores=scores,
        seed=record.seed,
    )
    out: list[Message] = []
    seen = 0
    for text in record.actions:
        action = Action.parse(text)
        if action.kind.is_chance:
            out += stream.chance(action)
        state.apply_recorded(action)
        events = state.events
        for event in events[seen:]:
            shown = event if seat is None else event.seen_by(seat)
            out += stream.feed(shown, result=state.result)
        seen = len(events)
    return out, (stream.scores[0], stream.scores[1])


def export_mjai(
    records: Iterable[Record],
    seat: int | None = None,
    *,
    names: Sequence[str] = ("seat 0", "seat 1"),
) -> Iterator[Message]:
    """The mjai log of ``records`` (hands in order): ``start_game``, each hand's messages,
    ``end_game``; a new game whenever the ruleset or its options change."""
    game: tuple[str, str] | None = None
    scores = (0, 0)
    for record in records:
        key = (record.ruleset, repr(sorted(record.options.items())))
        if key != game:
            if game is not None:
                yield {"type": "end_game", "scores": list(scores)}
            game, scores = key, (0, 0)
            state = replay(record, upto=0)
            start = MjaiStream(
                state.ruleset, seat, dealer=record.dealer, round_wind=record.round_wind
            )
            yield start.start_game(names)
        messages, scores = hand_messages(record, seat, scores=scores)
        yield from messages
    if game is not None:
        yield {"type": "end_game", "scores": list(scores)}
