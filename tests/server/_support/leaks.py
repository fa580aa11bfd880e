"""The server-level hidden-information check: every message a seat receives, replayed.

:func:`audit_seat` walks one connection's messages in the order they arrived and checks each
against the hand's record, replayed step by step with the engine:

* ``events``: each event is exactly ``Event.seen_by(seat)`` (a private event of the opponent
  carries no tile and no tile in its text), and the ``state`` is exactly ``observe(seat)`` at
  that step; the ``settlement`` comes after the engine's last event;
* the ``hints`` of a state (the ready hints: each ready-making discard's waits and unseen
  counts, the waits of the hand held) are allowed because they are exactly
  ``hints_json(observe(seat))`` at that step, a function of the seat's own observation;
* ``snapshot``: its state and its ``start``/``end`` as above;
* ``error``: its fields are the sender's own (``action`` of his seat, ``last_n`` the step it
  was refused at); its text names no action of the opponent or of chance, no action that is
  neither the sender's own nor in his own legal list, and no tile the seat has not been shown
  (his hand, the melds, discards, flowers, indicators, or a tile he named himself);
* ``presence``, ``ready``, ``table``, ``joined``, ``welcome``, ``pong``, ``closed``,
  ``replaced``, ``watchers``: exactly their documented fields, with nothing about the
  opponent's hand;
* ``chat``: the seat and one id of the closed lists of phrases and stickers, nothing else;
* ``advice`` (the hint): its fields, and its action one of the seat's own legal moves at its
  event (or none); ``review``: its fields (erren-review/1's hand), the receiving seat's own,
  only after that hand's settlement revealed the record, each decision at a step of that
  record where the seat moved, with his recorded move and both moves among his legal ones;
  its ``hindsight`` (the seat's best line with every tile known, or ``null``): its fields, the
  seat's own, sent only after the settlement revealed the hand's record (its seed and wall: the
  line reads no more than the record shows anyone then), the line the record's actions up to
  where it departs and its chance outcomes the record's in order (any beyond the record drawn
  from the record's own seed);
* every message before a hand's settlement: no trace of the seed, the salt, the wall or the
  in-play seeds of that hand (those are revealed by the settlement's record);
* a seat's view right after its own discard must not depend on whether the opponent had a
  claim (鸣牌保护, guobiao-2p §2.4): a view seen only when he had one reveals it.

A tile is checked by kind: a hidden tile of a kind the seat can also see is not caught.

Findings whose exact signature is in :data:`KNOWN_LEAKS` are counted, not failed: the list is
the lead's, each entry names the code that leaks and who fixes it; remove an entry when its
fix is merged.  Anything else fails the test.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from erren.bots import Bot
from erren.engine import Action, Record, State, find_family
from erren.engine.actions import ActionKind
from erren.engine.state import Phase
from erren.families.xiamen.game.vocabulary import XiamenVerb
from erren.server.chat import Phrase, Sticker
from erren.server.client import PlayerClient
from erren.server.protocol import (
    action_text,
    event_json,
    hints_json,
    observation_from_json,
    observation_json,
    result_json,
)

KNOWN_LEAKS: dict[str, str] = {}

_TILE_GROUP = re.compile(r"(?<![\w§.\-])((?:[1-9]+[mpszf])+)(?![\w])")
_ACTION = re.compile(r"(?<![\w])([01c]):([a-z]+)(?::([0-9mpszf,]+))?")
_STATE_MESSAGES = ("events", "snapshot")
_NUMBER = re.compile(r"(?<![\w.§\-])(-?\d+)(?![\w.])")
"""A number in an error's text (not a clause such as §2.4 or R-2.11, not part of a word)."""
_LIMITS = {-1, 0, 1, 2, 13, 14, 16, 17, 4096, 2**63 - 1}
"""Numbers an error may cite besides the seat's own: seats, the hand sizes of the rules (13/14,
xiamen 16/17), the protocol's limits."""
_STATED = {
    "chat-too-fast": ("retry_ms", "interval_s"),
    "trustee-limit": ("limit",),
    "busy": ("waiting",),
}
"""Error codes whose named params are numbers the seat knows whatever the hand's counts are: the
pace of his own sending (how long since *he* last spoke, the interval he must keep), the server's
public limits."""


def _ints(data: Any) -> set[int]:
    """Every integer in a state (counts, event numbers, dice, timers...): what a seat knows."""
    if isinstance(data, bool):
        return set()
    if isinstance(data, int):
        return {data}
    if isinstance(data, float):
        return {int(data)}
    if isinstance(data, dict):
        return set().union(*(_ints(v) for v in data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(_ints(v) for v in data)) if data else set()
    return set()


_EXAMPLES = re.compile(r"e\.g\. [a-z]+:[0-9mpszf]+")
"""The notation's fixed examples in the server's texts (``e.g. chi:345m``), nobody's tiles."""


def tiles_in(text: str) -> set[str]:
    """Every tile kind named in ``text`` in the record notation (``5m``, ``123m55z``)."""
    out: set[str] = set()
    for group in _TILE_GROUP.findall(text):
        for digits, suit in re.findall(r"([1-9]+)([mpszf])", group):
            out.update(f"{d}{suit}" for d in digits)
    return out


def _strip_timer(state: dict[str, Any]) -> dict[str, Any]:
    out = dict(state)
    timer = out.get("timer")
    if timer is not None:
        out["timer"] = {"player": timer["player"], "kind": timer["kind"]}
    out.pop("result", None)
    return out


@dataclass
class Finding:
    kind: str
    seat: int
    game: int | None
    detail: str
    message: dict[str, Any]

    def __str__(self) -> str:
        text = json.dumps(self.message, ensure_ascii=False)
        return f"[{self.kind}] seat {self.seat} game {self.game}: {self.detail}\n  {text[:400]}"


@dataclass
class Audit:
    """What the check saw: messages checked (by type), findings, known findings."""

    checked: int = 0
    by_type: Counter[str] = field(default_factory=Counter)
    leaks: list[Finding] = field(default_factory=list)
    known: Counter[str] = field(default_factory=Counter)
    example: dict[str, Finding] = field(default_factory=dict)
    """The first finding of each known kind (shown in the summary)."""
    hands: Counter[str] = field(default_factory=Counter)
    """Hands checked, by family (each seen by both seats)."""
    replays: dict[int, Hand] = field(default_factory=dict)
    """Each hand's replay, by game (shared by the two seats)."""
    windows: dict[str, dict[bool, Counter[str]]] = field(default_factory=dict)
    """Per family: the discarder's view after his discard, by whether the opponent could claim."""

    def find(self, kind: str, seat: int, game: int | None, detail: str, msg: Any) -> None:
        if kind in KNOWN_LEAKS:
            self.known[kind] += 1
            self.example.setdefault(kind, Finding(kind, seat, game, detail, msg))
        else:
            self.leaks.append(Finding(kind, seat, game, detail, msg))

    def close_windows(self) -> None:
        """The claim-window check over every hand seen: a discarder's view that occurs only when
        the opponent had a claim tells him so.  A rare view (a 加杠's rob window, seen once) can
        fall on the claim side by chance alone: a view counts as a leak when it was seen often
        enough that chance explains it less than once in a hundred runs, i.e. when
        ``share ** count < 0.01``, ``share`` being the part of all views with a claim."""
        for family, groups in self.windows.items():
            yes, no = groups.get(True, Counter()), groups.get(False, Counter())
            n_yes, n_no = sum(yes.values()), sum(no.values())
            if n_yes < 3 or n_no < 3:
                continue
            share = n_yes / (n_yes + n_no)
            only = sorted(shape for shape in set(yes) - set(no) if share ** yes[shape] < 0.01)
            for shape in only:
                self.find(
                    "claim-window-visible-to-the-discarder",
                    -1,
                    None,
                    f"{family}: the discarder's view {shape} occurs {yes[shape]} times, only when "
                    "the opponent could claim",
                    {"family": family, "shape": shape},
                )

    def summary(self) -> str:
        lines = [
            f"hidden-information check: {self.checked} messages checked "
            f"({dict(sorted(self.by_type.items()))}), hands {dict(sorted(self.hands.items()))}"
        ]
        for kind, count in sorted(self.known.items()):
            lines.append(f"  known (KNOWN_LEAKS[{kind!r}]): {count} occurrence(s), e.g.")
            lines.append(f"    {self.example[kind]}")
        lines.extend(f"  LEAK {leak}" for leak in self.leaks[:20])
        if len(self.leaks) > 20:
            lines.append(f"  ... and {len(self.leaks) - 20} more")
        return "\n".join(lines)


class Hand:
    """One finished hand, replayed once for both seats: each step's view of each seat, the
    events as each may see them, what stays secret until the settlement."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        rec = Record.from_dict(record)
        self.family = rec.ruleset
        ruleset = find_family(rec.ruleset, rec.options)
        state = State(ruleset, dealer=rec.dealer, round_wind=rec.round_wind, streak=rec.streak)
        self.views: tuple[dict[int, dict[str, Any]], ...] = ({}, {})
        self.hints: tuple[dict[int, dict[str, Any]], ...] = ({}, {})
        """Each seat's ready hints at each step (from its own observation alone)."""
        self.after_discard: list[tuple[str, bool]] = []
        """For every discard (and 加杠): the mover's view right after it, and whether the
        opponent then had a claim (rob) window with a choice other than passing."""
        self.legal_at: tuple[dict[int, list[str]], ...] = ({}, {})
        """Each seat's legal moves (wire text) before each step it was to act at, by the step's
        index in the record's actions (a review's decisions are at these)."""
        replay = getattr(state, "apply_recorded", state.apply)  # system actions too
        for step, text in enumerate(rec.actions):
            action = Action.parse(text)
            if not state.is_terminal and state.actor in (0, 1):
                legal = state.observe(state.actor).legal_actions
                self.legal_at[state.actor][step] = [action_text(a) for a in legal]
            replay(action)
            if not (state.actor >= 0 or state.is_terminal):
                continue
            for seat in (0, 1):
                seen = state.observe(seat)
                view = _strip_timer(observation_json(seen))
                self.views[seat][state.event_count] = view
                self.hints[seat][state.event_count] = hints_json(seen)
                if action.player == seat and action.kind in _DISCARDS:
                    opp = 1 - seat
                    window = state.phase in (Phase.CLAIM, Phase.ROB) and state.actor == opp
                    choice = window and any(
                        a.kind is not ActionKind.PASS for a in state.legal_actions(opp)
                    )
                    who = {seat: "me", opp: "opponent", None: None}
                    timer = view["timer"]
                    shape = (
                        f"phase={view['phase']} to_act={who[view['to_act']]} "
                        f"timer={None if timer is None else (who[timer['player']], timer['kind'])}"
                    )
                    self.after_discard.append((shape, choice))
        every = state.events
        self.events = tuple(
            {e.seq + 1: event_json(e.seen_by(seat), e.seq + 1) for e in every} for seat in (0, 1)
        )
        self.end_n = state.event_count + 1
        self.result = result_json(state.result)
        secrets = [str(record["fairness"]["salt"]), str(record["seed"])]
        for text in rec.actions:
            kind = text.split(":")[1] if ":" in text else ""
            if text.startswith("c:") and kind in ("shuffle", "seed"):
                secrets.append(text.split(":", 2)[2])
        self.secrets = [s for s in secrets if len(s) >= 6]


Sent = tuple[int, str, int | None]
"""An action a seat sent: (messages it had received before, the text, the event stamp n)."""

_DISCARDS = (ActionKind.DISCARD, ActionKind.TING, XiamenVerb.DISCARD_GOLD, ActionKind.JIA_GANG)
"""The moves after which the opponent may get a claim (or rob) window on the mover's tile."""


def _data_text(event: dict[str, Any]) -> str:
    """The values of an event's ``data``, as one text to look for tiles in."""
    return " ".join(str(value) for value in (event.get("data") or {}).values())


def _state_tiles(state: dict[str, Any]) -> set[str]:
    """Every tile a state shows its seat."""
    out = set(state.get("hand", ()))
    for name in ("last_drawn", "pending"):
        if state.get(name):
            out.add(state[name])
    view = state.get("view") or {}
    for name in ("gold", "wild", "flower_kind", "offer"):
        if view.get(name):
            out.add(view[name])
    for seat in (0, 1):
        out.update(state["discards"][seat])
        out.update(state["flowers"][seat])
        for meld in state["melds"][seat]:
            out.update(meld["tiles"])
    for action in state.get("legal", ()):
        out |= tiles_in(action)
    result = state.get("result")
    if result:
        out |= tiles_in(str(result.get("hand")))
    return out


_START_KEYS = {"n", "kind", "game", "hand", "dealer", "round_wind", "streak", "commitment", "seats"}
_SETTLEMENT_KEYS = {
    *("n", "kind", "game", "result", "hands", "ready", "stake", "beans", "record"),
    "ranks",  # both seats' public rank moves (erren.server.ranks.move_json), no tile in them
    "ranked",  # whether the table's hands count for rank (a friend's table does not): a flag
}
_REVIEW_KEYS = {"hand", "ruleset", "seat", "threshold", "result", "summary", "decisions"}
_DECISION_KEYS = {
    *("hand", "step", "seat", "category", "player", "bot", "match", "ev_player", "ev_bot"),
    *("loss", "stderr", "bad", "reasons"),
}
_HINDSIGHT_KEYS = {
    *("seat", "unit", "actual", "best", "gain", "moves", "departs_at", "departs_action"),
    *("departures", "ending", "result", "actions", "complete", "steps", "lines"),
}
_ERROR_KEYS = {"type", "code", "message", "params", "action", "last_n"}
_TABLE_KEYS = {
    "id",
    "kind",
    "family",
    "options",
    "room",
    "invite",
    "bot",
    "level",
    "seats",
    "hand",
    "game",
    "running",
    "closed",
}
_SEAT_KEYS = {"name", "bot", "level", "online", "ready"}


class SeatAudit:
    """One connection's messages, in order, for one seat (see the module's docstring)."""

    def __init__(
        self,
        seat: int,
        hands: dict[int, Hand],
        sent: list[Sent],
        audit: Audit,
    ) -> None:
        self.seat = seat
        self.hands = hands
        self.sent = sent
        self.audit = audit
        self.game: int | None = None
        self.view: dict[str, Any] | None = None
        self.shown: dict[int, set[str]] = {}
        self.named: set[str] = set()
        self.own: set[str] = set()
        self.texts: list[str] = []
        self.numbers: set[int] = set()
        """Numbers the seat sent (event stamps, numbers in its actions)."""
        self.ended: set[int] = set()

    def leak(self, kind: str, detail: str, message: Any) -> None:
        self.audit.find(kind, self.seat, self.game, detail, message)

    def run(self, messages: list[dict[str, Any]]) -> None:
        sent = sorted(self.sent, key=lambda item: item[0])
        k = 0
        for index, message in enumerate(messages):
            while k < len(sent) and sent[k][0] <= index:
                self._sent(sent[k][1], sent[k][2])
                k += 1
            self.check(message)

    def _sent(self, text: str, stamp: int | None) -> None:
        """What the seat itself named: its tiles, the action as the server reads it, the event
        number it stamped the action with."""
        self.texts.append(text)
        self.numbers.update(int(x) for x in re.findall(r"-?\d+", text))
        if stamp is not None:
            self.numbers.add(stamp)
        self.named |= tiles_in(text)
        parts = text.split(":")
        rest = parts[1:] if parts[0] in ("0", "1", "c") else parts
        own = ":".join([str(self.seat), *rest])
        self.own.add(own)
        with contextlib.suppress(Exception):
            self.own.add(str(Action.parse(own)))

    # ------------------------------------------------------------------ per message
    def check(self, message: dict[str, Any]) -> None:
        kind = str(message.get("type"))
        game = message.get("game")
        if kind in _STATE_MESSAGES and isinstance(game, int):
            self.game = game
        hand = self.hands.get(self.game) if self.game is not None else None
        self._secrets(message, hand)
        handler = getattr(self, "_" + kind.replace("-", "_"), None)
        if handler is None:
            self.leak("unknown-message", f"a message of type {kind!r}", message)
        else:
            handler(message, hand)
        self.audit.checked += 1
        self.audit.by_type[kind] += 1

    def _secrets(self, message: dict[str, Any], hand: Hand | None) -> None:
        if hand is None or self.game in self.ended:
            return
        text = json.dumps(message, ensure_ascii=False)
        if message.get("type") == "snapshot" and message.get("end") is not None:
            return  # the settlement reveals the record; checked in _event
        if message.get("type") == "events" and any(
            e.get("kind") == "settlement" for e in message.get("events", ())
        ):
            return
        for secret in hand.secrets:
            if secret in text:
                self.leak("secret-before-settlement", "seed, salt or wall before the end", message)

    def _state(self, got: dict[str, Any] | None, hand: Hand, message: Any) -> None:
        if got is None:
            return
        view = hand.views[self.seat].get(got.get("last_n", -1))
        if view is None:
            self.leak("state-at-no-step", f"no step of the hand has {got.get('last_n')}", message)
            return
        if "hints" in got:
            got = dict(got)
            hints = got.pop("hints")
            if hints != hand.hints[self.seat].get(got.get("last_n", -1)):
                self.leak("hints-not-the-observation", "hints not from observe(seat)", message)
                return
        if _strip_timer(got) != view:
            diff = {
                k: (got.get(k), view.get(k)) for k in view if _strip_timer(got).get(k) != view[k]
            }
            self.leak("state-not-the-observation", f"differs from observe(): {diff}", message)
            return
        timer = got.get("timer")
        if timer is not None and timer["player"] != self.seat and "deadline" in timer:
            self.leak("deadline-to-the-waiting-seat", "the opponent's timer deadline", message)
        if got.get("legal") and got.get("to_act") != self.seat:
            self.leak("legal-while-waiting", "legal actions for a seat not to act", message)
        self.view = got
        if self.game is not None:
            self.shown.setdefault(self.game, set()).update(_state_tiles(got))

    def _show(self, event: dict[str, Any]) -> None:
        if self.game is not None:
            shown = self.shown.setdefault(self.game, set())
            if "tile" in event:
                shown.add(event["tile"])
            shown.update(event.get("tiles", ()))
            shown |= tiles_in(_data_text(event))

    def _event(self, event: dict[str, Any], hand: Hand, message: Any) -> None:
        n = event.get("n")
        kind = event.get("kind")
        if kind == "start":
            if set(event) - _START_KEYS:
                self.leak("start-fields", f"start has {sorted(set(event) - _START_KEYS)}", message)
            return
        if kind == "settlement":
            if n != hand.end_n or set(event) - _SETTLEMENT_KEYS:
                self.leak("settlement", f"settlement n={n}, the hand ends at {hand.end_n}", message)
            if event.get("result") != hand.result:
                self.leak("settlement-result", "the settlement's result is not the hand's", message)
            if self.game is not None:
                self.ended.add(self.game)
            return
        expected = hand.events[self.seat].get(n) if isinstance(n, int) else None
        if event != expected:
            self.leak("event-not-seen-by", f"expected {expected}", message)
            return
        hidden = event.get("private") and event.get("player") != self.seat
        if hidden and ("tile" in event or "tiles" in event or tiles_in(_data_text(event))):
            self.leak("private-event-shows-tiles", "the opponent's private tile", message)
        self._show(event)

    def _events(self, message: dict[str, Any], hand: Hand | None) -> None:
        if hand is None:
            self.leak("events-of-unknown-game", "no record for this game", message)
            return
        for event in message.get("events", ()):
            self._event(event, hand, message)
        self._state(message.get("state"), hand, message)

    def _snapshot(self, message: dict[str, Any], hand: Hand | None) -> None:
        self._table_info(message.get("table"), message)
        if message.get("seat") != self.seat:
            self.leak("snapshot-seat", "a snapshot of another seat", message)
        if "game" not in message:
            return
        if hand is None:
            self.leak("snapshot-of-unknown-game", "no record for this game", message)
            return
        self._event(message["start"], hand, message)
        end = message.get("end")
        if end is not None:
            self._event(end, hand, message)
        self._state(message.get("state"), hand, message)

    def _error(self, message: dict[str, Any], hand: Hand | None) -> None:
        if set(message) - _ERROR_KEYS:
            self.leak("error-fields", f"fields {sorted(set(message) - _ERROR_KEYS)}", message)
        action = message.get("action")
        if action is not None and action not in self.own:
            self.leak("error-action", f"names {action!r}, not an action this seat sent", message)
        view = self.view
        last_n = message.get("last_n")
        if last_n is not None and (view is None or last_n != view.get("last_n")):
            self.leak("error-last-n", f"last_n {last_n} is not the seat's step", message)
        text = json.dumps({k: v for k, v in message.items() if k != "action"}, ensure_ascii=False)
        text = _EXAMPLES.sub("", text)
        legal = {f"{self.seat}:{a}" for a in (view or {}).get("legal", ())}
        for who, verb, found in _ACTION.findall(text):
            arg = found.rstrip(",")
            named = f"{who}:{verb}" + (f":{arg}" if arg else "")
            if who == str(self.seat) and (named in self.own or named in legal):
                continue
            bare = named.split(":", 1)[1]
            if any(
                named in text or (who == str(self.seat) and bare in text) for text in self.texts
            ):
                continue  # his own text, echoed
            family = self.hands[self.game].family if self.game in self.hands else ""
            known = (
                family == "xiamen"
                and message.get("code") == "not-now"
                and who == str(1 - self.seat)
            )
            kind = "xiamen-not-now-lists-the-actors-moves" if known else "error-names-an-action"
            self.leak(kind, f"the error names {named!r}", message)
            break
        seen = self.shown.get(self.game, set()) if self.game is not None else set()
        unknown = tiles_in(text) - seen - self.named
        if unknown:
            self.leak("error-names-a-hidden-tile", f"tiles {sorted(unknown)}", message)
        words = _TILE_GROUP.sub(" ", _ACTION.sub(" ", str(message.get("message", ""))))
        numbers = {int(x) for x in _NUMBER.findall(words)}
        params = message.get("params") or {}
        stated = {int(params[k]) for k in _STATED.get(str(message.get("code")), ()) if k in params}
        counts = numbers - _LIMITS - _ints(view) - self.numbers - stated
        if counts:
            self.leak(
                "error-names-a-count", f"numbers {sorted(counts)} the seat cannot know", message
            )

    def _table_info(self, info: Any, message: Any) -> None:
        if not isinstance(info, dict):
            self.leak("table-info", "no table info", message)
            return
        if set(info) - _TABLE_KEYS:
            self.leak("table-fields", f"fields {sorted(set(info) - _TABLE_KEYS)}", message)
        for seat in info.get("seats", ()):
            if set(seat) - _SEAT_KEYS:
                self.leak("table-seat-fields", f"fields {sorted(set(seat) - _SEAT_KEYS)}", message)
        if tiles_in(json.dumps(info.get("seats", []), ensure_ascii=False)):
            self.leak("table-tiles", "tiles in the table's seats", message)

    def _joined(self, message: dict[str, Any], hand: Hand | None) -> None:
        if set(message) != {"type", "table", "seat"} or message["seat"] != self.seat:
            self.leak("joined", "joined fields or seat", message)
        self._table_info(message.get("table"), message)

    def _table(self, message: dict[str, Any], hand: Hand | None) -> None:
        if set(message) != {"type", "table"}:
            self.leak("table", "table fields", message)
        self._table_info(message.get("table"), message)

    def _presence(self, message: dict[str, Any], hand: Hand | None) -> None:
        if set(message) != {"type", "seat", "online"} or message["seat"] not in (0, 1):
            self.leak("presence", "presence fields", message)

    def _ready(self, message: dict[str, Any], hand: Hand | None) -> None:
        if set(message) != {"type", "seat"} or message["seat"] not in (0, 1):
            self.leak("ready", "ready fields", message)

    def _chat(self, message: dict[str, Any], hand: Hand | None) -> None:
        """Quick chat: the seat and one id of a closed list, nothing else (no tile, no text)."""
        said = set(message) - {"type", "seat"}
        ids = {"phrase": {p.value for p in Phrase}, "sticker": {s.value for s in Sticker}}
        if (
            message.get("seat") not in (0, 1)
            or len(said) != 1
            or (field_ := said.pop()) not in ids
            or message[field_] not in ids[field_]
        ):
            self.leak("chat", "chat fields (the seat and one closed id)", message)

    def _welcome(self, message: dict[str, Any], hand: Hand | None) -> None:
        if set(message) != {"type", "user", "version"}:
            self.leak("welcome", "welcome fields", message)

    def _watchers(self, message: dict[str, Any], hand: Hand | None) -> None:
        if set(message) != {"type", "count"} or not isinstance(message["count"], int):
            self.leak("watchers", "watchers fields (a count, no names)", message)

    def _pong(self, message: dict[str, Any], hand: Hand | None) -> None:
        if message != {"type": "pong"}:
            self.leak("pong", "pong fields", message)

    def _replaced(self, message: dict[str, Any], hand: Hand | None) -> None:
        if set(message) - {"type", "code", "message"}:
            self.leak("replaced", "replaced fields", message)

    def _advice(self, message: dict[str, Any], hand: Hand | None) -> None:
        if set(message) != {"type", "n", "action", "reason"}:
            self.leak("advice-fields", "advice fields", message)
            return
        action = message["action"]
        if action is None:
            return
        view = hand.views[self.seat].get(message["n"]) if hand is not None else None
        if view is None or action not in view.get("legal", ()):
            self.leak("advice-not-own-move", f"{action!r} is no legal move of the seat", message)

    def _review(self, message: dict[str, Any], hand: Hand | None) -> None:
        review = message.get("review")
        keys = {"type", "game", "seat", "review", "hindsight"}
        if set(message) != keys or not isinstance(review, dict):
            self.leak("review-fields", "review fields", message)
            return
        if message.get("game") not in self.ended:
            self.leak("review-before-end", "a review of a hand not settled", message)
        if message.get("seat") != self.seat or review.get("seat") != self.seat:
            self.leak("review-not-own-seat", "a review of the other seat", message)
        if not set(review) <= _REVIEW_KEYS:
            self.leak("review-fields", "review fields (erren-review/1's hand)", message)
        reviewed = self.hands.get(message.get("game", -1))
        actions = reviewed.record["actions"] if reviewed else []
        for decision in review.get("decisions", ()):
            # each decision is one of the seat's own, in the settled (public) record: his move
            # there, and both moves among his legal ones at that step
            step = decision.get("step")
            legal = reviewed.legal_at[self.seat].get(step) if reviewed else None
            player = (decision.get("player") or {}).get("text")
            bot = (decision.get("bot") or {}).get("text")
            if (
                legal is None
                or not set(decision) <= _DECISION_KEYS
                or decision.get("seat") != self.seat
                or actions[step] != f"{self.seat}:{player}"
                or player not in legal
                or bot not in legal
            ):
                self.leak(
                    "review-not-own-view", "a review decision not of the seat's view", decision
                )
        self._hindsight(message["hindsight"], actions)

    def _hindsight(self, found: Any, actions: list[str]) -> None:
        """A review's hindsight: ``None``, or the seat's own line off the settled record, its
        chance outcomes the record's in order (the record, seed and wall, is public by then)."""
        if found is None:
            return
        if not isinstance(found, dict) or set(found) != _HINDSIGHT_KEYS:
            self.leak("hindsight-fields", "hindsight fields", found)
            return
        if found["seat"] != self.seat:
            self.leak("hindsight-not-own-seat", "the other seat's hindsight", found)
        line: list[str] = list(found["actions"])
        departs = found["departs_action"]
        same = len(actions) if departs is None else departs
        chance = [a for a in line if a.startswith("c:")]
        recorded = [a for a in actions if a.startswith("c:")]
        if (
            line[:same] != actions[:same]
            or (departs is None and line != actions)
            or chance[: len(recorded)] != recorded[: len(chance)]
        ):
            self.leak("hindsight-not-the-record", "a hindsight line off the record", found)

    def _closed(self, message: dict[str, Any], hand: Hand | None) -> None:
        if set(message) - {"type", "table", "code", "reason", "params"}:
            self.leak("closed-fields", "closed fields", message)
        params = message.get("params") or {}
        if "balance" in params and message.get("code") != "below-entry":
            self.leak("closed-balance", "a balance sent to the other seat", message)
        reason = str(message.get("reason", ""))
        if "balance" in reason and message.get("code") not in (None, "below-entry"):
            self.leak("closed-balance", "a balance in the reason", message)


def records_of(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records of the hands a connection saw end: from each ``settlement`` event, or the
    ``end`` of a snapshot when the hand ended while it was away."""
    found: dict[int, dict[str, Any]] = {}
    for message in messages:
        ends = [e for e in message.get("events", ()) if e.get("kind") == "settlement"]
        if message.get("type") == "snapshot" and message.get("end") is not None:
            ends.append(message["end"])
        for end in ends:
            found[int(end["game"])] = end["record"]
    return list(found.values())


def audit_seat(
    messages: list[dict[str, Any]],
    seat: int,
    records: list[dict[str, Any]],
    audit: Audit,
    sent: list[Sent] | None = None,
) -> None:
    """Check every message of one connection of ``seat`` (``sent``: the actions it sent, as
    ``(number of messages received before it, text, its event stamp n)``)."""
    hands: dict[int, Hand] = {}
    for record in records:
        game = int(record["game"])
        hand = audit.replays.get(game)
        if hand is None:
            hand = audit.replays[game] = Hand(record)
            audit.hands[hand.family] += 1
            groups = audit.windows.setdefault(hand.family, {})
            for shape, choice in hand.after_discard:
                groups.setdefault(choice, Counter())[shape] += 1
        hands[game] = hand
    SeatAudit(seat, hands, sent or [], audit).run(messages)


# ---------------------------------------------------------------------------- junk moves
_ALL_TILES = [f"{d}{s}" for s in "mps" for d in range(1, 10)] + [f"{d}z" for d in range(1, 8)]
_PLAIN = ["pass", "peng", "minggang", "hu", "zimo", "sanjindao", "qiangjin", "win", "exchange"]
_WITH_TILE = ["discard", "ting", "chi", "angang", "jiagang", "qiangjin", "pick"]


def junk_action(rng: random.Random, seat: int, state: dict[str, Any] | None) -> str:
    """An action that is most likely illegal now: out of turn, a claim with no window, a tile
    not held, another seat's prefix, a system action, nonsense."""
    hand = list((state or {}).get("hand", ())) or _ALL_TILES
    roll = rng.random()
    tile = rng.choice(hand) if rng.random() < 0.6 else rng.choice(_ALL_TILES)
    if (state or {}).get("phase") not in (None, "turn") and rng.random() < 0.5:
        return rng.choice(["peng", "minggang", "hu", f"chi:{tile}", "pass", "qiangjin"])
    if roll < 0.35:
        return rng.choice(_PLAIN)
    if roll < 0.75:
        return f"{rng.choice(_WITH_TILE)}:{tile}"
    if roll < 0.82:
        three = "".join(sorted(rng.sample(hand, min(3, len(hand)))))
        return f"{rng.choice(['takepung', 'exchange'])}:{three}"
    if roll < 0.88:
        return f"{1 - seat}:{rng.choice(['pass', 'hu', 'discard:' + tile])}"
    if roll < 0.93:
        return rng.choice(["timeout", "escape", "trustee:on", "c:dice:1,2"])
    return rng.choice(["fly:5m", "discard:", "discard:99z", "chi:9m", ":", "discard:5m:5m"])


# ---------------------------------------------------------------------------- the players
class Adversary:
    """A player that plays ``bot``'s moves and, at random moments, sends junk: illegal and
    out-of-turn actions while the opponent decides (claim and rob windows, the xiamen opening,
    arcade prompts) and on its own turn, stale stamps, resyncs, pings, reconnections; and asks
    for the hint, and for a review while the hand runs (refused)."""

    def __init__(
        self, client: PlayerClient, table: str, bot: Bot, rng: random.Random, sent: list[Sent]
    ) -> None:
        self.client, self.table, self.bot, self.rng, self.sent = client, table, bot, rng, sent
        self.stay = False
        """Keep the connection (no reconnection): a review asked on it is still to come."""

    async def act(self, text: str, n: int | None) -> None:
        self.sent.append((len(self.client.messages), text, n))
        await self.client.send({"type": "act", "action": text, "n": n})

    async def react(self, state: dict[str, Any]) -> None:
        """After a state: junk while the opponent decides; junk or a move on one's turn."""
        client, rng = self.client, self.rng
        stamp = client.last_n if rng.random() < 0.8 else rng.choice([None, client.last_n - 1])
        if state.get("to_act") == 1 - client.seat:
            for _ in range(rng.choice([0, 1, 1, 2])):
                await self.act(junk_action(rng, client.seat, state), stamp)
            return
        if not client.my_turn():
            return
        roll = rng.random()
        if roll < 0.15:
            await self.act(junk_action(rng, client.seat, state), stamp)
        elif roll < 0.17:
            await client.send({"type": "resync"})
        elif roll < 0.18:
            await client.send({"type": "ping"})
            await client.send({"type": "chat", "phrase": "hurry"})  # heard, or chat-too-fast
        elif roll < 0.19:
            await client.send({"type": "advice"})  # the hint: answered on its own
        elif roll < 0.195:
            await client.send({"type": "review"})  # refused while the hand runs
        elif roll < 0.2 and client.ws is not None and not self.stay:
            await client.disconnect()
            await client.connect()
            await client.join(self.table, resume=rng.random() < 0.5)
            return
        obs = observation_from_json(state)
        legal = obs.legal_actions
        action = self.bot.pick(legal) if self.bot.blind else self.bot.choose(obs, legal)
        await self.act(action_text(action), client.last_n)


async def review_over_http(client: PlayerClient, game: int, wait_s: float = 240) -> dict[str, Any]:
    """The review of ``client``'s seat in finished ``game`` from ``GET /games/{id}/review``, the
    same message the socket sends, asked again while the review process is busy (503) or the
    address has asked for too many (429), for up to ``wait_s`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait_s
    while True:
        reply = await client.http.get(
            f"/games/{game}/review", params={"seat": client.seat}, timeout=wait_s
        )
        if reply.status_code == 200:
            return dict(reply.json())
        assert reply.status_code in (429, 503), reply.text
        assert loop.time() < deadline, f"no review of game {game} in {wait_s} s: {reply.text}"
        await asyncio.sleep(min(2.0, float(reply.headers.get("retry-after", 1))))


def _review_refused(message: dict[str, Any]) -> bool:
    """Whether ``message`` refuses a review: the review process is full, or the hand cannot be
    reviewed (``no-review``)."""
    params = message.get("params") or {}
    code = message.get("code")
    return code == "no-review" or (code == "busy" and params.get("work") == "review")


async def play_adversarially(
    client: PlayerClient,
    table: str,
    bot: Bot,
    rng: random.Random,
    sent: list[Sent],
    *,
    leader: bool,
    hands_wanted: int,
    reviewer: bool = False,
) -> int:
    """Play hands at ``table`` as an :class:`Adversary`.  The ``leader`` leaves once
    ``hands_wanted`` hands are over; the other plays on until the table closes.  A
    ``reviewer`` asks for the review of each hand until one comes, plays on meanwhile (a review
    takes seconds in its low-priority process, longer than the table waits for a seat's
    ``ready``) and keeps his connection, which the review is sent to; on a loaded machine none
    may come before he leaves (:func:`review_over_http` asks for one then).  No other seat asks
    between hands: the one review process, at low priority, would queue them ahead of his on a
    loaded machine (any seat asks now and then while a hand runs, and is refused).  Returns the
    hands finished."""
    player = Adversary(client, table, bot, rng, sent)
    client.keep = True
    await client.connect()
    await client.join(table)
    hands = 0
    leaving = False
    reviewed = False
    while True:
        message = await client.recv(30)
        kind = message.get("type")
        if kind == "closed":
            return hands
        if kind == "error" and message.get("code") == "not-seated" and hands:
            return hands  # the table closed (the leader left) while this seat reconnected
        if kind == "error" and message.get("code") in ("auth", "not-seated", "logged-out"):
            raise AssertionError(message)
        if kind == "review" or _review_refused(message):  # the review asked is no longer due
            reviewed = reviewed or kind == "review"
            player.stay = False
        if leaving:
            continue
        if client.hand_over(message):
            hands += 1
            leaving = leader and hands >= hands_wanted
            if reviewer and not reviewed and not player.stay:
                await client.send({"type": "review"})  # the review of the hand
                player.stay = True
            await client.send({"type": "leave" if leaving else "ready"})
            continue
        state = client.state
        if kind in ("events", "snapshot") and state is not None and state.get("result") is None:
            await player.react(state)
