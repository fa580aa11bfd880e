"""An external bot program speaking mjai JSON lines, seated as an erren :class:`Bot`.

``MjaiBot("node examples/mjai-bot/bot.js")`` runs the program (:mod:`erren.mjai.process`) and
writes it its seat's mjai stream (:class:`~erren.mjai.stream.MjaiStream`, ``docs/mjai-2p.md``),
one JSON message a line, as the seat sees the hand.  The answering rule:

* a message that gives the bot a decision carries the extension key ``"erren:legal"``: the
  seat's legal moves in mjai form (:func:`~erren.mjai.stream.action_to_mjai`), in erren's
  order.  It is the last message written before the decision (``{"type": "erren:decide"}``
  when the seat saw no new message since its last decision);
* the bot answers such a message, and only such a message, with one line: an mjai action
  message (``dahai``, ``pon``, ``hora``...) or ``{"type": "none"}`` to pass.  Other messages
  get no answer;
* the answer must come within ``timeout`` seconds (default 5).

An answer that is late, not JSON, not one of the legal moves, or missing because the program
exited, gets a one-line error on stderr (the bot, its seat, what was wrong, the text trimmed),
and the driver plays the spec's default move for the seat: a ``timeout``, as a server table
does when a player's clock runs out (:class:`~erren.bots.base.BotError`).  A program that
exited is not restarted: its seat plays by timeouts for the rest of the run, and the error
says so once.  :meth:`MjaiBot.close` sends ``end_game`` and ends the program (its process
group).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import ClassVar

from erren.bots.base import Bot, BotError
from erren.engine import Action, Event, EventKind, Family, Observation
from erren.jsontext import JSONTextError, read_json
from erren.mjai.process import BotProgram, ProgramError, ProgramGoneError
from erren.mjai.stream import MjaiError, MjaiStream, action_to_mjai, mjai_to_action

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "LEGAL_KEY",
    "MJAI_PREFIX",
    "MjaiBot",
    "mjai_command",
    "split_bot_specs",
]

MJAI_PREFIX = "mjai:"
"""A bot spec ``mjai:COMMAND`` names an external program (``--bots mjai:COMMAND,expert``)."""
DEFAULT_TIMEOUT_S = 5.0
"""Seconds an external bot has for each decision."""
LEGAL_KEY = "erren:legal"
"""The extension key of a message that asks for an answer: the legal moves in mjai form."""
DECIDE = "erren:decide"
"""The type of the message sent when a decision follows no new message."""
_TRIM = 80
"""Characters of a bad answer shown in its error line."""
_TRIM_REASON = 140
"""Characters of the reason (the legal moves it lists) shown in the error line."""


def mjai_command(spec: str) -> str | None:
    """The command of a bot spec ``mjai:COMMAND``, or ``None`` for any other spec."""
    if spec.startswith(MJAI_PREFIX):
        return spec[len(MJAI_PREFIX) :].strip()
    return None


def split_bot_specs(text: str) -> list[str]:
    """The bot specs of a ``--bots`` value, split at commas, except that a command after
    ``mjai:`` may hold commas: an ``mjai:`` spec runs up to the comma that starts the next
    spec, i.e. up to ``,mjai:``, or, when the spec that follows is a plain bot name, up to the
    last comma.

    >>> split_bot_specs("mjai:node bot.js --style a,b,expert")
    ['mjai:node bot.js --style a,b', 'expert']
    >>> split_bot_specs("efficiency,mjai:node bot.js")
    ['efficiency', 'mjai:node bot.js']
    """
    specs: list[str] = []
    rest = text.strip()
    while rest:
        if rest.startswith(MJAI_PREFIX):
            cut = rest.find("," + MJAI_PREFIX, len(MJAI_PREFIX))
            if cut < 0:
                last = rest.rfind(",")
                cut = last if last >= 0 and specs == [] and _plain(rest[last + 1 :]) else -1
        else:
            cut = rest.find(",")
        if cut < 0:
            specs.append(rest.strip())
            break
        specs.append(rest[:cut].strip())
        rest = rest[cut + 1 :].strip()
        if not rest:
            specs.append("")
    return specs


def _plain(spec: str) -> bool:
    """Whether ``spec`` reads as a bot or level name (no spaces, no path)."""
    spec = spec.strip()
    return bool(spec) and not any(c in spec for c in " /\\.=") and not spec.startswith("-")


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _trim(text: str, width: int = _TRIM) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


class MjaiBot(Bot):
    """The external program of ``command`` as a bot (module docstring).  ``label`` names it
    in errors (default ``mjai:COMMAND``); ``report`` receives each error line (default:
    stderr).  The program starts at its first message, so building the bot is cheap."""

    name: ClassVar[str] = "mjai"
    listens: ClassVar[bool] = True
    deliberate: ClassVar[bool] = True  # a decision waits for another process

    def __init__(
        self,
        command: str,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        label: str | None = None,
        report: Callable[[str], None] | None = None,
        names: Sequence[str] = ("seat 0", "seat 1"),
    ) -> None:
        if timeout <= 0:
            raise ValueError(f"an mjai bot's timeout must be > 0 seconds, not {timeout:g}")
        self.program = BotProgram(command)
        self.command = command
        self.timeout = timeout
        self.label = label or MJAI_PREFIX + command
        self.report = report or _stderr
        self.names = tuple(names)
        self.ruleset: Family | None = None
        self.seat: int | None = None
        self.scores = (0, 0)
        """The seat-indexed points of the hands played so far (mjai ``scores``)."""
        self.faults = 0
        """Decisions the program did not answer well."""
        self._stream: MjaiStream | None = None
        self._pending: list[dict[str, object]] = []
        self._last: MjaiStream | None = None
        """The stream of the latest hand (its ``end_game`` closes the run)."""
        self._gone = False

    def __repr__(self) -> str:
        return f"MjaiBot({self.command!r})"

    def bind(self, ruleset: Family) -> None:
        self.ruleset = ruleset

    # ------------------------------------------------------------------ the stream
    def hear(self, observation: Observation, events: Sequence[Event]) -> None:
        self.seat = observation.player
        ended = False
        for event in events:
            if self._stream is None or event.seq == 0:
                self._stream = self._new_stream(observation)
            self._pending.extend(self._stream.feed(event, result=observation.result))
            if event.kind is EventKind.END:
                ended = True
        if ended:
            result = observation.result
            if result is not None:
                self.scores = (
                    self.scores[0] + result.deltas[0],
                    self.scores[1] + result.deltas[1],
                )
            self._flush()
            self._stream = None

    def _new_stream(self, observation: Observation) -> MjaiStream:
        if self.ruleset is None:
            raise RuntimeError("an mjai bot must be bound to its table's ruleset (Bot.bind)")
        stream = MjaiStream(
            self.ruleset,
            observation.player,
            dealer=observation.dealer,
            round_wind=observation.round_wind,
            streak=observation.streak,
            scores=self.scores,
        )
        if self._last is None:
            self._pending.append(stream.start_game(self.names))
        self._last = stream
        return stream

    def _flush(self) -> None:
        """Write the messages that expect no answer (the end of a hand)."""
        if not self._pending or self._gone:
            self._pending.clear()
            return
        lines = [_dumps(m) for m in self._pending]
        self._pending.clear()
        try:
            self.program.send(lines)
        except ProgramError as error:
            self._fault(str(error), gone=True)

    # ------------------------------------------------------------------ decisions
    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        self.seat = observation.player
        if self._gone:
            raise BotError(f"{self.label} has exited", gone=True)
        ask = self._pending or [{"type": DECIDE}]
        self._pending = []
        ask[-1] = {**ask[-1], LEGAL_KEY: [action_to_mjai(a, observation) for a in legal_actions]}
        try:
            answer = self.program.ask([_dumps(m) for m in ask], self.timeout)
        except ProgramGoneError as error:
            raise self._fault(str(error), gone=True) from None
        except ProgramError as error:
            raise self._fault(str(error)) from None
        try:
            message = read_json(answer)
        except JSONTextError as error:
            raise self._fault(f"answer is {error.what}: {_trim(answer)!r}") from None
        if not isinstance(message, dict):
            raise self._fault(f"answer is not a JSON object: {_trim(answer)!r}")
        try:
            return mjai_to_action(message, legal_actions, observation)
        except MjaiError as error:
            reason = _trim(error.reason, _TRIM_REASON)
            raise self._fault(f"{reason} (answer {_trim(answer)!r})") from None

    def _fault(self, what: str, *, gone: bool = False) -> BotError:
        self.faults += 1
        seat = "?" if self.seat is None else str(self.seat)
        tail = "; the default move is played (a timeout)"
        if gone:
            self._gone = True
            tail += " now and for the rest of the run"
        self.report(f"erren: mjai bot {self.label!r} at seat {seat}: {what}{tail}")
        return BotError(what, gone=gone)

    def close(self) -> None:
        goodbye = [_dumps(m) for m in self._pending]
        self._pending.clear()
        if self._last is not None:
            goodbye.append(_dumps(self._last.end_game(self.scores)))
        self.program.close([] if self._gone else goodbye)
        self._gone = True


def _dumps(message: dict[str, object]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
