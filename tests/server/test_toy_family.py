"""The toy fourth family (:mod:`erren.testing.toy`), a package nothing else names, at a server
table: ``erren serve`` loads it from ``ERREN_FAMILIES``, a player opens a table against the
computer in it, and a whole hand is played over the socket and settled by the toy's rule."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from erren.bots import find_bot
from erren.testing import toy

from ._support.harness import run, serving
from ._support.helpers import player, settlements


@pytest.fixture
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy family in this process (the client's bot reads its observations) and in the
    server's (``ERREN_FAMILIES``, inherited by ``erren serve``)."""
    monkeypatch.setenv("ERREN_FAMILIES", "erren.testing.toy.plugin")
    toy.register()
    try:
        yield
    finally:
        toy.unregister()


@pytest.mark.services
@pytest.mark.usefixtures("toy_registered")
def test_a_toy_table_plays_a_hand_against_the_computer(tmp_path: Path) -> None:
    with serving("sqlite", tmp_path) as server:

        async def main() -> None:
            a = await player(server.url, keep=True)
            made = await a.vs_computer("toy", "efficiency")
            assert made["info"]["family"] == "toy"
            done = await a.play(made["table"], find_bot("efficiency", seed=1), timeout=60)
            assert done == 1
            assert a.state is not None and a.state["view"]["family"] == "toy"  # its own view
            (end,) = settlements(a.messages)
            result = end["result"]
            called = [e for m in a.messages if m.get("type") == "events" for e in m["events"]]
            called = [e for e in called if e["kind"] == "call"]  # the toy's own event
            if result["kind"] == "win":
                # the toy's rule: a win on the called kind pays 2, any other win 1
                on_called = bool(called) and result["hand"].endswith(called[0]["tile"])
                points = 2 if on_called else 1
                assert result["points"] == points
                assert sorted(result["deltas"]) == [-points, points]
            else:
                assert result["kind"] == "draw" and result["deltas"] == [0, 0]
            await a.close()

        run(main())
