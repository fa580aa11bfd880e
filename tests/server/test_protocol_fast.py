"""The table's hot path sends what the protocol says, byte for byte.

After every move the table sends each seat ``observation_json(obs, hints=True)``; that path is
written out by hand (:func:`erren.server.wire._core_json`), the ready hints count the pools
only when a hand is ready (:class:`erren.bots.hints.HandView`), the engine remembers each seat's
concealed tiles and ``action_text`` caches by object.  Here every step of seeded random hands of
the three families, for both seats, is checked against the protocol's rule written out from the
generic codec (``docs/protocol.md``: every observation field through :func:`encode`, ``legal``
without the seat and its wins as ``wins``, ``event_seq`` as ``last_n``), and the hints against
the waits and unseen copies counted here from the family's counts of the hand and of the tiles
in sight.
"""

from __future__ import annotations

import random
from dataclasses import fields, replace
from typing import Any

import pytest

from erren.analysis.shapes import ARCADE, GUOBIAO_2P, XIAMEN
from erren.analysis.waits import waits
from erren.bots.common import visible_counts
from erren.bots.efficiency import seen_counts
from erren.engine import Action, ActionKind, Observation, State, find_family
from erren.engine.codec import encode
from erren.engine.phases import Phase
from erren.families.arcade.bot.efficiency import wild_counts
from erren.families.arcade.game.view import ArcadeView
from erren.families.xiamen.bot.efficiency import gold_counts
from erren.families.xiamen.game.view import XiamenView
from erren.families.xiamen.game.vocabulary import XiamenVerb
from erren.server.protocol import (
    action_text,
    dumps,
    hints_json,
    meld_json,
    observation_json,
    result_json,
)
from erren.server.table.spec import with_claim_privacy
from erren.tiles import NUM_KINDS, Tile

FAMILIES = ("guobiao-2p", "xiamen", "arcade")
WHITE = 31
WIN_VERBS = ("hu", "zimo", "sanjindao", "qiangjin", "win")
"""The moves that win (docs/protocol.md ``wins``): 和, 自摸, xiamen's 三金倒, 抢金, the 游
chain's win."""


def _reference_state(obs: Observation) -> dict[str, Any]:
    """The observation as the protocol defines it, field by field through the codec."""
    out: dict[str, Any] = {}
    for f in fields(Observation):
        value = getattr(obs, f.name)
        if f.name == "legal_actions":
            out["legal"] = [str(a).split(":", 1)[1] for a in value]
            out["wins"] = [a for a in out["legal"] if a.split(":")[0] in WIN_VERBS]
        elif f.name == "result":
            out["result"] = result_json(value)
        elif f.name == "melds":
            out["melds"] = [[meld_json(m) for m in seat] for seat in value]
        elif f.name == "event_seq":
            out["last_n"] = encode(value)
        else:
            out[f.name] = encode(value)
    return out


def _family(obs: Observation) -> tuple[list[int], int, list[int], list[int], int | None, int, Any]:
    """``(counts, wilds, held, visible, wild, wilds_left, shapes)`` of the player's hand, each
    family's own count, computed eagerly (what the hints showed before they became lazy)."""
    held = [0] * NUM_KINDS
    for meld in obs.melds[obs.player]:
        for t in meld.tiles:
            held[t] += 1
    view = obs.view
    if isinstance(view, ArcadeView) and view.wild is not None:
        w = int(view.wild)
        counts, k, visible = wild_counts(obs, view, w)
        _, raw = visible_counts(obs, flowers=True)
        return counts, k, held, visible, w, max(0, 3 - raw[w]), ARCADE
    if isinstance(view, XiamenView) and view.gold is not None:
        g = int(view.gold)
        counts, k, visible = gold_counts(obs, g)
        _, raw = seen_counts(obs)
        fheld = list(held)
        fheld[g] = 0
        if g != WHITE:
            fheld[g], fheld[WHITE] = held[WHITE], 0
        return counts, k, fheld, visible, g, max(0, 3 - raw[g]), XIAMEN
    counts, visible = seen_counts(obs)
    shapes = (
        ARCADE
        if isinstance(view, ArcadeView)
        else XIAMEN
        if isinstance(view, XiamenView)
        else GUOBIAO_2P
    )
    return counts, 0, held, visible, None, 0, shapes


def _reference_hints(obs: Observation) -> dict[str, Any]:
    counts, wilds, held, visible, wild, wilds_left, shapes = _family(obs)
    gold = isinstance(obs.view, XiamenView) and wild is not None and wild != WHITE

    def physical(kind: int) -> int:
        return WHITE if gold and kind == wild else kind

    def functional(tile: int) -> int:
        return wild if gold and tile == WHITE and wild is not None else tile

    def listed(c: list[int], k: int) -> list[list[Any]]:
        kinds = waits(c, wilds=k, shapes=shapes, held=held, max_copies=4)
        out = [[str(Tile(physical(t))), max(0, 4 - visible[t])] for t in kinds if t != wild]
        if out and wild is not None and wilds_left > 0:
            out.append([str(Tile(wild)), wilds_left])
        return out

    throws = sorted(
        {
            int(a.tile)
            for a in obs.legal_actions
            if a.kind in (ActionKind.DISCARD, ActionKind.TING, XiamenVerb.DISCARD_GOLD)
            and a.tile is not None
        }
    )
    discards: dict[str, Any] = {}
    for tile in throws:
        c, k = list(counts), wilds
        if tile == wild:
            k -= 1
        else:
            c[functional(tile)] -= 1
        found = listed(c, k)
        if found:
            discards[str(Tile(tile))] = found
    held_waits = None
    if not throws and obs.result is None and (sum(counts) + wilds) % 3 == 1:
        held_waits = listed(counts, wilds) or None
    return {"discards": discards, "waits": held_waits}


def _steps(family: str, seed: int) -> list[State]:
    """Every state of one random hand at a table (claim privacy on), the last one terminal."""
    state = State.new(with_claim_privacy(find_family(family)), seed=seed)
    rng = random.Random(seed)
    states = [state.clone()]
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


@pytest.mark.parametrize("family", FAMILIES)
def test_state_json_is_the_codec_s_byte_for_byte(family: str) -> None:
    checked = ready = 0
    for seed in range(12):
        for state in _steps(family, seed):
            for seat in (0, 1):
                obs = state.observe(seat)
                sent = observation_json(obs, deadline=1_700_000_000.1234, seconds=20.0, hints=True)
                want = _reference_state(obs)
                if want["timer"] is not None:
                    want["timer"]["seconds"] = 20.0
                    want["timer"]["deadline"] = 1_700_000_000.123
                want["hints"] = _reference_hints(obs)
                assert dumps(sent) == dumps(want), (family, seed, seat, obs.event_seq)
                assert dumps(observation_json(obs)) == dumps(_reference_state(obs))
                checked += 1
                ready += bool(want["hints"]["discards"] or want["hints"]["waits"])
    assert checked > 500 and ready > 0  # the hands were played out, and some hints shown


def test_hints_of_a_hand_that_waits() -> None:
    """A hand between turns that is ready lists its waits with the unseen copies: 123m 456m
    789m 123p 5p waits on 5p alone, of which it holds one (three unseen, none in sight)."""
    obs = _steps("guobiao-2p", 3)[10].observe(0)
    hand = tuple(Tile(t) for t in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13))
    position = replace(
        obs,
        hand=hand,
        melds=((), ()),
        discards=((), ()),
        claimed=((), ()),
        flowers=((), ()),
        legal_actions=(),
        result=None,
        phase=Phase.CLAIM,
        pending=None,
    )
    assert hints_json(position) == {"discards": {}, "waits": [["5p", 3]]}


def test_concealed_tiles_follow_the_hand_and_its_copies() -> None:
    """The remembered concealed tiles are always the hand's counts spelled out in order, for a
    state and for a copy played on along another line."""
    state = _steps("guobiao-2p", 5)[20]
    copy = state.clone()
    rng = random.Random(1)
    for _ in range(15):
        for s in (state, copy):
            if s.is_terminal:
                continue
            for seat in (0, 1):
                h = s.hands[seat]
                assert s.concealed(seat) == tuple(
                    Tile(k) for k in range(NUM_KINDS) for _ in range(h[k])
                )
            s.apply(rng.choice(s.legal_actions()))


def test_action_text_for_interned_and_fresh_actions() -> None:
    """The cached text is the action's own, for the engine's interned actions and for equal
    actions built afresh (another object each time, whose ``id`` may be reused)."""
    interned = Action.make(ActionKind.DISCARD, 1, 4)
    assert action_text(interned) == "discard:5m"
    assert action_text(interned) == "discard:5m"
    for tile in range(27):
        fresh = Action(ActionKind.PENG if tile % 2 else ActionKind.AN_GANG, 0, Tile(tile))
        verb = "peng" if tile % 2 else "angang"
        assert action_text(fresh) == f"{verb}:{Tile(tile)}"
        del fresh
    chi = Action.make(ActionKind.CHI, 0, 11)
    assert action_text(chi) == "chi:345p"
