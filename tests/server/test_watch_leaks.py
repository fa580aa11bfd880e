"""The spectator's leak audit over a thousand hands of every family (issue #29, point 3).

Each hand is played in-process by bots; after every move the public view a spectator gets is
built from each seat's observation (:func:`erren.engine.public.public_observation`) and from
the table's own builder (:class:`erren.server.table.watchers.PublicStream`), and checked:

* the public view drawn from seat 0's observation equals the one drawn from seat 1's: it holds
  nothing that one seat alone is shown (so no concealed tile, drawn tile, concealed kong's
  kind, legal move, pung offer of either seat);
* no spectator message before the settlement names a tile of the concealed part of either
  hand unless that kind is also shown publicly (the rivers, melds, flowers, indicators);
* every public event is the engine's event without the tiles of a private one;
* the settlement shows both hands (as the public replay does).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from erren.bots import find_bot
from erren.engine import Observation, State, find_family, observe
from erren.engine.public import public_observation
from erren.server.table.watchers import PublicStream

from ._support.leaks import tiles_in

FAMILIES: list[tuple[str, dict[str, Any], int]] = [
    ("guobiao-2p", {"claim_privacy": True}, 400),
    ("guobiao-2p", {"flowers": True, "claim_privacy": True}, 150),
    ("xiamen", {"claim_privacy": True}, 350),
    ("arcade", {"pung_offer_prob": 0.3, "pick_any_prob": 0.2, "claim_privacy": True}, 300),
]
IDS = ["guobiao", "guobiao-flowers", "xiamen", "arcade"]
"""1,200 random hands of the three families (鸣牌保护 on, as at every server table): over a
hundred thousand public views (an arcade hand of random play is about 100 moves)."""


def _shown(state: dict[str, Any]) -> set[str]:
    """Every tile kind a public state shows (rivers, melds, flowers, the family's indicators)."""
    out: set[str] = set()
    for seat in (0, 1):
        out.update(state["discards"][seat])
        out.update(state["flowers"][seat])
        for meld in state["melds"][seat]:
            out.update(meld["tiles"])
    if state.get("pending"):
        out.add(state["pending"])
    out.add(state["round_wind"])
    if state.get("result") is not None:  # the end: the winner's hand is shown to all (§2.11)
        out |= tiles_in(json.dumps(state["result"]))
    out |= tiles_in(json.dumps(state.get("view") or {}))
    return out


def _concealed(game: State, observed: list[Observation]) -> set[str]:
    """The kinds in either seat's concealed hand (``observed``: the seats' observations now)
    and concealed kongs right now."""
    out: set[str] = set()
    for seat in (0, 1):
        out.update(str(t) for t in observed[seat].hand)
        for meld in game.melds[seat]:
            if meld.kind.value == "an_gang":
                out.update(str(t) for t in meld.tiles)
    return out


def _check_message(message: dict[str, Any], hidden: set[str], shown: set[str]) -> None:
    """A spectator message of a running hand names no concealed tile that is not also public."""
    text = json.dumps(message)
    for event in message.get("events", ()):
        assert event.get("kind") != "settlement"
        if event.get("private"):  # a private event: no tile, not even in its data
            assert "tile" not in event and "tiles" not in event, event
            assert not tiles_in(json.dumps(event.get("data"))), event
        else:  # seen by both seats alike (Event.seen_by): public
            shown.update([event["tile"]] if "tile" in event else [], event.get("tiles", ()))
            shown |= tiles_in(json.dumps(event.get("data")))
    state = message["state"]
    assert state["hand"] == [] and state["legal"] == [] and state["wins"] == []
    assert state["last_drawn"] is None and "hints" not in state
    assert all(m["kind"] != "an_gang" for melds in state["melds"] for m in melds)
    leaked = (tiles_in(text) & hidden) - shown - _shown(state)
    assert not leaked, (leaked, message)


@pytest.mark.slow
@pytest.mark.parametrize(("family", "options", "hands"), FAMILIES, ids=IDS)
def test_public_view_is_common_to_both_seats(
    family: str, options: dict[str, Any], hands: int
) -> None:
    """Slow: hundreds of random hands, each step's public view built from both seats'
    observations and checked (the module's docstring), with the stream's delay and its
    settlement (no record, shown at once)."""
    ruleset = find_family(family, options)
    rng = random.Random(f"watch-{family}-{sorted(options)}")
    seen: Counter[str] = Counter()
    for hand in range(hands):
        bots = [find_bot("random", seed=rng.getrandbits(32)) for _ in (0, 1)]
        game = State.new(ruleset, seed=rng.getrandbits(64), dealer=hand % 2)
        delay = rng.choice([0, 3, 6])
        stream = PublicStream(delay)
        stream.new_hand({"n": 0, "kind": "start", "game": hand}, game)
        shown_n = -1
        public: set[str] = set()
        while not game.is_terminal:
            game.apply(bots[game.actor].pick(game.legal_actions()))
            observed = [observe(game, s) for s in (0, 1)]
            views = [public_observation(obs) for obs in observed]
            assert views[0] == views[1], f"{family} hand {hand}: the seats' public views differ"
            stream.step(game)
            assert len(stream.steps) <= delay + 1  # only the states not yet released are kept
            head = game.event_count
            message = stream.message_since(shown_n, "t", hand)
            if message is not None:
                _check_message(message, _concealed(game, observed), public)
                newest = message["events"][-1]["n"]
                assert newest <= head - delay, (newest, head, delay)  # the delay holds
                assert message["state"]["last_n"] == newest
                shown_n = newest
            seen["messages"] += message is not None
        last = game.event_count + 1
        end = {"n": last, "kind": "settlement", "game": hand, "hands": [[], []]}
        stream.finish({**end, "record": {"seed": 1}}, game)
        final = stream.message_since(shown_n, "t", hand)
        assert final is not None and final["events"][-1] == end  # no record, at once
        assert [e["n"] for e in final["events"]] == list(range(shown_n + 1, last + 1))
        assert final["state"]["result"] is not None
        seen["hands"] += 1
    assert seen["hands"] == hands and seen["messages"] > hands
