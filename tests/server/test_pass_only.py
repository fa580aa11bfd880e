"""A decision whose only move is pass is the table's, never the player's timer: xiamen's
opening window (三金倒/抢金, R-2.3), opened for both seats in turn even when a seat can only
pass, is passed by the table at the 鸣牌保护 pause, so the hand's first discard never waits out
the window's 10 s (R-2.11) and no timeout is counted against the player (two of them put him in
托管)."""

from __future__ import annotations

from typing import Any

from erren.server.client import table_passes

from ._support.harness import Server, run
from ._support.helpers import player


def _events(message: dict[str, Any]) -> list[dict[str, Any]]:
    return list(message.get("events", [])) if message.get("type") == "events" else []


def test_the_table_passes_a_pass_only_opening_window(server: Server) -> None:
    """A player against the computer at xiamen who never sends a move he need not make (he
    declines a real opening choice, which is rare): up to his first discard decision, both
    opening windows were answered and none of his by a timeout."""

    async def main() -> None:
        human = await player(server.url)
        made = await human.vs_computer("xiamen")
        await human.connect()
        await human.join(made["table"])
        events: list[dict[str, Any]] = []
        while True:
            message = await human.recv(20)
            events.extend(_events(message))
            if human.hand_over(message):  # won at the opening (rare): the next hand
                events.clear()
                await human.send({"type": "ready"})
                continue
            state = human.state
            if message.get("type") != "events" or state is None or not human.my_turn():
                continue
            if state["phase"] == "turn":
                break
            if state["legal"] != ["pass"]:
                await human.act("pass")  # a real choice (an opening win, a claim): declined
        mine = [e for e in events if e.get("player") == human.seat]
        assert not [e for e in mine if e["kind"] in ("timeout", "trustee")], mine
        passes = [e for e in events if e["kind"] == "pass"]
        assert {e["player"] for e in passes} >= {0, 1}, events  # both openings were answered
        await human.close()

    run(main())


def test_a_client_leaves_every_pass_only_decision_to_the_table() -> None:
    """``table_passes`` (the clients' and the benchmarks' rule) holds for pass alone in any
    phase, and never when there is a choice."""
    assert table_passes({"phase": "opening", "legal": ["pass"]})
    assert table_passes({"phase": "claim", "legal": ["pass"]})
    assert not table_passes({"phase": "opening", "legal": ["qiangjin", "pass"]})
    assert not table_passes({"phase": "turn", "legal": ["discard:1m"]})
