"""The real timer settings, at real speed.

Every other server test runs its timers faster (``--time-scale``, a 20 s turn in 0.2 s) or
shortens one (the browser tests' 鸣牌保护 pause).  Here a server runs with the defaults of ``erren
serve`` — time scale 1, nothing overridden but the password hash — and the tests check what a
player meets in real seconds: the turn and claim timers the table announces (guobiao-2p §2.9:
20 s and 10 s; waiting them out would take minutes, so their deadlines are read), the 鸣牌保护
pause (§2.4: 0.8 s after a discard before the next draw, measured on the server's own clock:
from the window's deadline to the next turn's, so that a loaded test process reading the
messages late cannot shorten it), and the computer's thinking time (1 s, measured).  The longer
server timers (the 60 s grace period and ready wait, the 600 s idle close) are checked as the
settings ``erren serve`` starts with; their effect is tested at a faster time scale in
``test_runtime.py`` and ``test_trust_runtime.py``.  The other real-time settings have
real-speed tests of their own: the login window (``test_accounts_http.py``) and the cluster's
leases (every cluster test: a lease runs on Redis's clock).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from erren.cli import serve as serve_command
from erren.server.client import PlayerClient
from erren.server.table import TableConfig

from ._support.harness import Server, run, serving
from ._support.helpers import player

pytestmark = pytest.mark.services

TURN_S = 20  # guobiao-2p §2.9 (Appendix A turn_timeout_s)
CLAIM_S = 10  # guobiao-2p §2.9 (Appendix A claim_timeout_s)
CLAIM_PAUSE_S = 0.8  # guobiao-2p §2.4, 鸣牌保护
COMPUTER_S = 1.0  # erren serve --bot-delay default
SLACK_S = 5.0
"""How late the first turn's message may reach the test on a loaded machine (the deadline
shows the 20 s, not a scaled 0.2 s or 2 s: either would be 18 s or more off)."""
ROUNDING_S = 0.002
"""The wire's deadlines are rounded to the millisecond: a difference of two is within 2 ms."""


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``erren serve`` with its defaults: real time, the computer's real delay."""
    tmp = tmp_path_factory.mktemp("real-timers")
    with serving("sqlite", tmp, time_scale=1, bot_delay=COMPUTER_S, ready_timeout=60) as srv:
        yield srv


def test_erren_serve_starts_with_the_documented_timers() -> None:
    """The settings a plain ``erren serve`` passes to its tables: the documented defaults."""
    parser = argparse.ArgumentParser()
    serve_command.add_arguments(parser)
    args = parser.parse_args([])
    assert (args.time_scale, args.grace, args.ready_timeout, args.idle_timeout) == (1, 60, 60, 600)
    assert (args.bot_delay, args.claim_pause, args.trustee_toggles) == (1, CLAIM_PAUSE_S, 10)
    config = TableConfig()
    assert (config.grace_s, config.ready_timeout_s, config.idle_timeout_s) == (60, 60, 600)
    assert (config.bot_delay_s, config.claim_min_pause_s) == (COMPUTER_S, CLAIM_PAUSE_S)


def test_a_hand_against_the_computer_runs_on_the_real_timers(real: Server) -> None:
    """Slow (about 10 s, real time): the player's turn is announced as 20 s (its deadline 20 s
    after the message); after each of his discards the computer answers no sooner than its
    1 s; after each of the computer's discards the next draw waits out the 0.8 s 鸣牌保护
    pause (his answer window opens on the server's clock at its deadline less its length, his
    next turn likewise: every gap, not only their median, is at least 0.8 s); a claim window
    with a choice, if one comes, is announced as 10 s."""

    async def main() -> None:
        a = await player(real.url, keep=True)
        try:
            made = await a.vs_computer("guobiao-2p", level="normal")
            await a.connect()
            await a.join(made["table"])
            seen = await _play_timed(a, discards=2)
        finally:
            await a.close()
        turn = seen.turns[0]
        assert (turn["kind"], turn["seconds"], turn["player"]) == ("turn", TURN_S, a.seat)
        assert all(t["seconds"] == CLAIM_S for t in seen.claims), seen.claims
        assert min(seen.computer) >= COMPUTER_S, seen  # from the send: a true lower bound
        assert min(seen.pauses) >= CLAIM_PAUSE_S - ROUNDING_S, seen
        assert seen.turn_deadline_lag <= SLACK_S, seen

    run(main(), timeout=120)


@dataclass
class Timed:
    """What :func:`_play_timed` saw."""

    turns: list[dict[str, Any]] = field(default_factory=list)
    """The timers of the player's turns."""
    claims: list[dict[str, Any]] = field(default_factory=list)
    """The timers of his claim windows with a choice."""
    computer: list[float] = field(default_factory=list)
    """Seconds from sending each discard to the computer's next event."""
    pauses: list[float] = field(default_factory=list)
    """Seconds, on the server's clock, from each of his answer windows opening (after a
    discard of the computer's) to his next turn starting."""
    turn_deadline_lag: float = 0.0
    """How far the first turn's deadline is from 20 s after its message arrived."""


async def _play_timed(a: PlayerClient, *, discards: int) -> Timed:
    """Discard the drawn tile and pass every claim until ``discards`` of each kind of gap have
    been timed (a hand that ends first, the computer having won or claimed, is followed by
    the next), and time it."""
    seen = Timed()
    sent: float | None = None  # when a's last discard went out
    window: float | None = None  # when his last answer window opened (the server's clock)
    while min(len(seen.computer), len(seen.pauses)) < discards:
        message = await a.recv(30)
        now = time.monotonic()
        if a.hand_over(message):
            sent = window = None
            await a.send({"type": "ready"})
            continue
        if message.get("type") != "events":
            continue
        theirs = [e for e in message["events"] if e.get("player") != a.seat]
        if sent is not None and theirs:
            seen.computer.append(now - sent)
            sent = None
        state = a.state
        if state is None or not a.my_turn():
            continue
        timer, legal = state["timer"], state["legal"]
        opened = timer["deadline"] - timer["seconds"]
        if timer["kind"] == "turn":
            if window is not None:
                seen.pauses.append(opened - window)
                window = None
            if not seen.turns:
                seen.turn_deadline_lag = abs(timer["deadline"] - TURN_S - time.time())
            seen.turns.append(dict(timer))
            sent = time.monotonic()  # before the send: the gap to his answer is a lower bound
            await a.act(next(x for x in legal if x.startswith("discard:")))
        else:  # an answer window: passed at once (the table holds the pass to the pause)
            window = opened
            if legal != ["pass"]:
                seen.claims.append(dict(timer))
                await a.act("pass")
    return seen
