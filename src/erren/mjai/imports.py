"""A full mjai log back into erren records (the inverse of :mod:`erren.mjai.export`).

Only the full log can be imported: it alone holds the wall (``erren:shuffle``), the arcade event
seed (``erren:seed``) and every pass (``erren:pass``).  A seat's stream (its ``start_game`` has
an ``id``) hides the opponent's tiles and the wall, so no replay can come of it.

Each hand is replayed as it is read: a chance outcome comes from the log's ``erren:shuffle`` /
``erren:seed`` / ``erren:dice`` messages; at a seat's decision the move is the legal action
whose messages (written by the same :class:`~erren.mjai.stream.MjaiStream` as the export) are
the log's next messages.  So the log is checked message by message, and a hand that reads
yields a :class:`~erren.engine.Record` that replays to the same game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import NoReturn

from erren.engine.actions import CHANCE, Action, ActionKind
from erren.engine.family import Family
from erren.engine.record import Record, replay
from erren.engine.registry import find_family
from erren.engine.state import State
from erren.errors import IllegalActionError, NotationError
from erren.mjai.stream import PREFIX, Message, MjaiError, MjaiStream
from erren.mjai.tiles import mjai_tile, parse_mjai_tile

__all__ = ["import_mjai"]

_CHANCE_TYPES = (PREFIX + "shuffle", PREFIX + "seed")
"""Full-log messages of chance outcomes that no event writes (dice come with their event)."""

Line = tuple[int, object]
"""A message and the line number it was read from."""


@dataclass
class _Hand:
    ruleset: Family
    start: int
    messages: list[tuple[int, Message]] = field(default_factory=list)


def import_mjai(lines: Iterable[Line]) -> Iterator[Record]:
    """The records of the hands of a full mjai log (``(line number, parsed JSON)`` pairs, in
    order).  Raises :class:`MjaiError` naming the line and the problem."""
    ruleset: Family | None = None
    hand: _Hand | None = None
    for number, raw in lines:
        message = _message(number, raw)
        kind = message["type"]
        if kind == "start_game":
            if hand is not None:
                yield _record(hand)
                hand = None
            ruleset = _ruleset(number, message)
        elif kind == "start_kyoku":
            if ruleset is None:
                raise MjaiError(f"line {number}: start_kyoku before start_game")
            if hand is not None:
                yield _record(hand)
            hand = _Hand(ruleset, number, [(number, message)])
        elif kind == "end_game":
            if hand is not None:
                yield _record(hand)
                hand = None
        elif hand is None:
            raise MjaiError(f"line {number}: {kind} outside a hand (no start_kyoku before it)")
        else:
            hand.messages.append((number, message))
            if kind == "end_kyoku":
                yield _record(hand)
                hand = None
    if hand is not None:
        yield _record(hand)


def _message(number: int, raw: object) -> Message:
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise MjaiError(f"line {number}: an mjai message is a JSON object with a string 'type'")
    return raw


def _ruleset(number: int, start: Message) -> Family:
    if "id" in start:
        raise MjaiError(
            f"line {number}: this is seat {start['id']}'s stream, not a full log: a seat's "
            "stream hides the wall and the opponent's tiles, so it cannot be imported "
            "(export the full log: erren export FILE --format mjai, without --seat)"
        )
    name = start.get(PREFIX + "ruleset")
    options = start.get(PREFIX + "options", {})
    if not isinstance(name, str) or not isinstance(options, dict):
        raise MjaiError(
            f"line {number}: start_game needs 'erren:ruleset' (a name) and 'erren:options' "
            "(an object): not an erren mjai log"
        )
    try:
        return find_family(name, options)
    except ValueError as err:
        raise MjaiError(f"line {number}: {err}") from None


def _int(number: int, message: Message, key: str) -> int:
    value = message.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise MjaiError(f"line {number}: {message['type']} needs the whole number {key!r}")
    return value


class _Reader:
    """One hand being replayed against its messages."""

    def __init__(self, hand: _Hand) -> None:
        number, start = hand.messages[0]
        self.start_line = number
        dealer = _int(number, start, "oya")
        if dealer not in (0, 1):
            raise MjaiError(f"line {number}: oya must be seat 0 or 1, not {dealer}")
        try:
            wind = parse_mjai_tile(start.get("bakaze"))
        except NotationError as err:
            raise MjaiError(f"line {number}: bakaze: {err}") from None
        streak = _int(number, start, "honba")
        scores = start.get("scores", [0, 0])
        if not (isinstance(scores, list) and len(scores) == 2):
            raise MjaiError(f"line {number}: scores must be two numbers")
        seed = start.get(PREFIX + "seed")
        seed = seed if isinstance(seed, int) else None
        ruleset = hand.ruleset
        record = Record(ruleset.name, ruleset.options_dict(), seed, dealer, wind, (), streak=streak)
        self.state = replay(record)
        self.stream = MjaiStream(
            ruleset,
            None,
            dealer=dealer,
            round_wind=wind,
            streak=streak,
            scores=(int(scores[0]), int(scores[1])),
            seed=seed,
        )
        self.chance: dict[str, list[tuple[int, Message]]] = {}
        self.expected: list[tuple[int, Message]] = []
        for number, message in hand.messages:
            kind = str(message["type"])
            if kind in _CHANCE_TYPES or kind == PREFIX + "dice":
                self.chance.setdefault(kind, []).append((number, message))
            if kind not in _CHANCE_TYPES:
                self.expected.append((number, message))
        if not self.chance.get(PREFIX + "shuffle"):
            raise MjaiError(
                f"line {self.start_line}: the hand has no erren:shuffle (its wall): only a full "
                "log (erren export --format mjai, without --seat) can be imported"
            )
        self.pos = 0

    def run(self) -> Record:
        while not self.state.is_terminal:
            if self.state.actor == CHANCE:
                self._chance()
            elif self.pos >= len(self.expected):
                break  # the log stops in the middle of the hand: so does the record
            else:
                self._move()
        if self.pos < len(self.expected):
            number, message = self.expected[self.pos]
            raise MjaiError(f"line {number}: {message['type']} after the end of the hand")
        return Record.of(self.state)

    def _chance(self) -> None:
        kind = self.state.next_chance()
        wanted = {
            ActionKind.SHUFFLE: PREFIX + "shuffle",
            ActionKind.SEED: PREFIX + "seed",
            ActionKind.DICE: PREFIX + "dice",
        }[kind or ActionKind.SHUFFLE]
        queue = self.chance.get(wanted, [])
        if not queue:
            raise MjaiError(f"line {self.start_line}: the hand needs one more {wanted} message")
        number, message = queue.pop(0)
        try:
            if wanted == PREFIX + "shuffle":
                wall = message.get("wall")
                if not isinstance(wall, list):
                    raise MjaiError(f"line {number}: erren:shuffle needs the 'wall' (a list)")
                action = Action.shuffle(tuple(int(parse_mjai_tile(t)) for t in wall))
            elif wanted == PREFIX + "seed":
                action = Action.seed(_int(number, message, "seed"))
            else:
                dice = message.get("dice")
                if not isinstance(dice, list) or not all(isinstance(d, int) for d in dice):
                    raise MjaiError(f"line {number}: erren:dice needs 'dice' (whole numbers)")
                action = Action.dice(*dice)
            self._take(action, number=number)
        except (NotationError, IllegalActionError) as err:
            if isinstance(err, MjaiError):
                raise
            raise MjaiError(f"line {number}: {wanted}: {err}") from None

    def _move(self) -> None:
        number, message = self.expected[self.pos]
        best: tuple[int, list[Message]] = (0, [])
        for action in self._candidates(message):
            state = self.state.clone()
            stream = self.stream.copy()
            try:
                written = _apply(state, stream, action)
            except IllegalActionError:
                continue
            agree = self._agree(written)
            if agree == len(written):
                self.state, self.stream = state, stream
                self.pos += agree
                return
            best = max(best, (agree, written), key=lambda b: b[0])
        if best[0]:
            self._differ(*best)
        legal = ", ".join(str(a) for a in self.state.legal_actions()) or "none"
        shown = json.dumps(message, ensure_ascii=False)[:160]
        raise MjaiError(
            f"line {number}: {shown} does not follow: no move of seat {self.state.actor} "
            f"writes it here (legal: {legal})"
        )

    def _candidates(self, message: Mapping[str, object]) -> list[Action]:
        kind = message["type"]
        actor = message.get("actor")
        if isinstance(actor, int) and actor in (0, 1):
            if kind == PREFIX + "trustee":
                return [Action.trustee(actor, bool(message.get("on")))]
            if kind == PREFIX + "timeout":
                return [Action.make(ActionKind.TIMEOUT, actor)]
            if kind == PREFIX + "escape":
                return [Action.make(ActionKind.ESCAPE, actor)]
        legal = self.state.legal_actions()
        pai = message.get("pai")
        return sorted(legal, key=lambda a: a.tile is None or mjai_tile(a.tile) != pai)

    def _take(self, action: Action, *, number: int) -> None:
        """Apply the chance ``action`` read on line ``number``; its messages must be next."""
        written = _apply(self.state, self.stream, action)
        agree = self._agree(written)
        if agree < len(written):
            self._differ(agree, written)
        self.pos += agree

    def _agree(self, written: list[Message]) -> int:
        """How many of ``written`` are the log's next messages."""
        n = 0
        for message in written:
            at = self.pos + n
            if at >= len(self.expected) or self.expected[at][1] != message:
                break
            n += 1
        return n

    def _differ(self, agree: int, written: list[Message]) -> NoReturn:
        at = self.pos + agree
        want = json.dumps(written[agree], ensure_ascii=False)[:160]
        if at >= len(self.expected):
            number = self.expected[-1][0] if self.expected else self.start_line
            raise MjaiError(f"line {number}: the hand stops early; the game goes on with {want}")
        number, message = self.expected[at]
        shown = json.dumps(message, ensure_ascii=False)[:160]
        raise MjaiError(f"line {number}: {shown} does not follow: the game writes {want} here")


def _apply(state: State, stream: MjaiStream, action: Action) -> list[Message]:
    """Apply ``action``; the messages it writes (the chance messages no event writes left out,
    as they are read apart)."""
    seen = state.event_count
    written = stream.chance(action) if action.kind.is_chance else []
    state.apply_recorded(action)
    for event in state.events[seen:]:
        written += stream.feed(event, result=state.result)
    return [m for m in written if m["type"] not in _CHANCE_TYPES]


def _record(hand: _Hand) -> Record:
    return _Reader(hand).run()
