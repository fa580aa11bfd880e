"""The hidden-information check of a spectator's stream (issue #29, point 3).

:func:`audit_watcher` walks one spectator connection's messages in order and checks each
against the hands' records, replayed step by step: every ``state`` is exactly the public view
(:func:`erren.engine.public.observe_public`) at its step, with no timer deadline; every event
is exactly :func:`~erren.engine.public.public_event` of the engine's; the ``settlement``
carries only its public fields (no record: the seed comes with the public replay) and comes
after the hand's last event; nothing names the seed, the salt or the wall before it; and only
the messages a spectator may get arrive (``watching``, ``snapshot`` with ``seat: null``,
``events``, ``watchers``, ``closed``, ``welcome``, ``pong``, an ``error``).  ``delay``: every
``events`` message before the settlement shows a step at least that many events older than
the step the hand had reached when it was sent (``heads``: the seats' newest event number
when each spectator message arrived, when known).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from erren.engine import Action, Record, State, find_family
from erren.engine.public import observe_public, public_event
from erren.server.protocol import event_json, observation_json, result_json
from erren.server.table.watchers import SETTLEMENT_PUBLIC

_KINDS = {"watching", "snapshot", "events", "watchers", "closed", "welcome", "pong", "error"}


class PublicHand:
    """One finished hand replayed: its public view after each step, its public events."""

    def __init__(self, record: dict[str, Any]) -> None:
        rec = Record.from_dict(record)
        state = State(
            find_family(rec.ruleset, rec.options),
            dealer=rec.dealer,
            round_wind=rec.round_wind,
            streak=rec.streak,
        )
        self.views: dict[int, dict[str, Any]] = {}
        replay = getattr(state, "apply_recorded", state.apply)
        for text in rec.actions:
            replay(Action.parse(text))
            if state.actor >= 0 or state.is_terminal:
                self.views[state.event_count] = observation_json(observe_public(state))
        self.events = {e.seq + 1: event_json(public_event(e), e.seq + 1) for e in state.events}
        self.end_n = state.event_count + 1
        self.result = result_json(state.result)
        self.secrets = [str(record["fairness"]["salt"]), str(record["seed"])]


@dataclass
class WatchAudit:
    """What the check saw and found."""

    checked: int = 0
    states: int = 0
    leaks: list[str] = field(default_factory=list)

    def find(self, what: str, message: Any) -> None:
        self.leaks.append(f"{what}: {str(message)[:300]}")


def audit_watcher(
    messages: list[dict[str, Any]], records: list[dict[str, Any]], audit: WatchAudit
) -> None:
    """Check every message of one spectator connection (see the module's docstring)."""
    hands = {int(r["game"]): PublicHand(r) for r in records}
    ended: set[int] = set()
    for message in messages:
        audit.checked += 1
        kind = message.get("type")
        if kind not in _KINDS:
            audit.find(f"a message of type {kind!r}", message)
            continue
        if kind == "watchers" and set(message) != {"type", "count"}:
            audit.find("watchers fields", message)
        if kind not in ("events", "snapshot") or "game" not in message:
            continue
        if kind == "snapshot" and message.get("seat") is not None:
            audit.find("a spectator's snapshot names a seat", message)
        game = message["game"]
        hand = hands.get(game)
        if hand is None:
            audit.find("a hand with no record", message)
            continue
        events = list(message.get("events", ()))
        if kind == "snapshot":
            events = [e for e in (message.get("start"), message.get("end")) if e is not None]
        for event in events:
            _event(event, hand, game, ended, audit=audit, message=message)
        if game not in ended:
            text = str(message)
            if any(secret in text for secret in hand.secrets):
                audit.find("the seed or salt before the settlement", message)
        state = message.get("state")
        if state is not None:
            audit.states += 1
            timer = state.get("timer")
            if timer is not None and "deadline" in timer:
                audit.find("a timer deadline to a spectator", message)
            if state != hand.views.get(state.get("last_n", -1)):
                audit.find("a state that is not the public view of its step", message)


def _event(
    event: dict[str, Any],
    hand: PublicHand,
    game: int,
    ended: set[int],
    *,
    audit: WatchAudit,
    message: Any,
) -> None:
    kind = event.get("kind")
    if kind == "start":
        return
    if kind == "settlement":
        if set(event) - set(SETTLEMENT_PUBLIC) or event.get("n") != hand.end_n:
            audit.find("settlement fields or number", event)
        if event.get("result") != hand.result:
            audit.find("settlement result", event)
        ended.add(game)
        return
    if event != hand.events.get(event.get("n", -1)):
        audit.find("an event that is not the public event", message)
