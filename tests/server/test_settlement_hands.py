"""Both hands at every settlement: the ``settlement`` each seat gets at a win, a drawn hand and an
escape shows both hands, at a drawn hand each seat's 听, and what each player received.

Two registered players quick-match in a bean room of the real app (uvicorn on loopback) and play
a hand steered with the engine alone (:mod:`erren.testing.scripted`): a win (xiamen's winner
holds a gold, arcade's a 财神), a drawn hand in which one seat is ready and the other not (in
xiamen and arcade the ready seat holds a wild), an escape.  What each seat is sent is checked
against the test's own figures: the hands against the record replayed with the engine (tiles
by kind, melds by count), 听 by the analysis of the hand each seat holds
(:func:`erren.bots.hints.hand_view`, not the engine's ``is_ready``), the points by the spec's
formula from the scorer's figures, the beans from the room's stake and the ledger's rows.  After
the end both hands are public, so both seats are sent the same settlement; before it no message
shows a hand (the leak audit, ``tests/server/test_leaks.py``).
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from erren.bots.hints import hand_view
from erren.engine import Action, Record, State, find_family
from erren.engine.result import ResultKind
from erren.families.arcade.game.view import ArcadeView
from erren.families.xiamen.game.view import XiamenView
from erren.server.client import PlayerClient
from erren.testing.scripted import Line, efficiency, find_line, passive
from erren.tiles import Tile

from ._support.beans_play import Served, play_scripted, read_until, serving
from ._support.exact_beans import (
    ESCAPE_POINTS,
    TIERS,
    check_ledger,
    pair,
    register,
    set_balance,
    spec_points,
)
from ._support.harness import database

pytestmark = pytest.mark.services  # a real server (in this process) over WebSockets

FAMILIES = ("guobiao-2p", "xiamen", "arcade")
TIER = "junior"  # 初级场: 500 beans a point (guobiao-2p §6.3)
_MARKS = re.compile(r"['#+\[\]]")
_GROUP = re.compile(r"(\d+)([mpszf])")


def tiles_of(notation: str) -> Counter[str]:
    """Every tile a hand's notation shows (concealed, melds, the winning tile), by kind."""
    out: Counter[str] = Counter()
    for digits, suit in _GROUP.findall(_MARKS.sub("", notation)):
        out.update(d + suit for d in digits)
    return out


def held(state: State, seat: int) -> Counter[str]:
    """The tiles ``seat`` holds at the end: concealed and in melds."""
    out = Counter(str(t) for t in state.concealed(seat))
    for meld in state.melds[seat]:
        out.update(str(t) for t in meld.tiles)
    return out


def wild_of(state: State) -> str | None:
    """The hand's wild kind (xiamen's gold, arcade's 财神), from the view of the family."""
    match state.observe(0).view:
        case XiamenView(gold=gold) | ArcadeView(wild=gold) if gold is not None:
            return str(gold)
    return None


def ready_by_analysis(state: State, seat: int) -> bool:
    """听 as the hints' analysis counts the hand ``seat`` holds: some kind completes it."""
    view = hand_view(state.observe(seat))
    return bool(view.waits(view.counts, view.wilds))


def replayed(record: dict[str, Any]) -> State:
    """The hand of a settlement's record, replayed with the engine to its end."""
    rec = Record.from_dict(record)
    state = State(
        find_family(rec.ruleset, rec.options),
        dealer=rec.dealer,
        round_wind=rec.round_wind,
        streak=rec.streak,
    )
    for text in rec.actions:
        state.apply_recorded(Action.parse(text))
    assert state.is_terminal
    return state


def win_line(family: str, options: tuple[tuple[str, Any], ...], dealer: int) -> Line:
    """A won hand; in a family with wilds the winner holds one."""

    def accept(state: State) -> bool:
        result = state.result
        if result is None or result.kind is not ResultKind.WIN or result.hand is None:
            return False
        wild = wild_of(state)
        return wild is None or tiles_of(str(result.hand))[wild] > 0

    return find_line(
        family,
        options,
        dealer,
        lambda bots: (efficiency(bots), efficiency(bots + 1)),
        accept,
        key="win-holding-a-wild",
    )[0]


def draw_line(family: str, options: tuple[tuple[str, Any], ...], dealer: int) -> Line:
    """A drawn hand in which seat 0 is ready (holding a wild, in a family with wilds) and seat
    1 is not: seat 0 plays for a ready hand and never wins, seat 1 throws back what he draws."""

    def accept(state: State) -> bool:
        if state.result is None or state.result.kind is not ResultKind.DRAW:
            return False
        wild = wild_of(state)
        holds_wild = wild is None or held(state, 0)[wild] > 0
        return holds_wild and ready_by_analysis(state, 0) and not ready_by_analysis(state, 1)

    return find_line(
        family,
        options,
        dealer,
        lambda bots: (efficiency(bots, wins=False), passive),
        accept,
        key="draw-one-ready",
    )[0]


async def play_hand(
    served: Served, players: list[tuple[PlayerClient, int]], family: str, end: str
) -> tuple[list[dict[str, Any]], tuple[int, int], list[int]]:
    """Pair the players in ``family``'s junior room at its entry maximum and play a hand that
    ends by ``end`` (``win``, ``draw`` or ``escape``: seat 1 leaves at his first decision);
    each seat's settlement, the seats' user ids and their balances before the hand."""
    for _, user_id in players:
        await set_balance(served, user_id, TIERS[TIER][2])
    user_of = {id(client): user_id for client, user_id in players}
    seats, table_id, table = await pair(served, players[0][0], players[1][0], f"{family}/{TIER}")
    ids = (user_of[id(seats[0])], user_of[id(seats[1])])
    before = [await served.store.ledger.balance(i) for i in ids]
    options = tuple(sorted(table.ruleset.options_dict().items()))
    make = win_line if end == "win" else draw_line
    line = make(family, options, table.dealer)
    served.rng.seeds.append(line.seed)
    settlements = await asyncio.gather(
        *(
            play_scripted(
                c, table_id, line.decisions, leave_at_first_turn=end == "escape" and s == 1
            )
            for s, c in enumerate(seats)
        )
    )
    if end != "escape":  # an escape closes the table; else seat 0 leaves between hands
        await seats[0].send({"type": "leave"})
    for client in seats:
        await read_until(client, lambda m: m.get("type") == "closed")
    for client in seats:
        await client.disconnect()
    return [dict(s) for s in settlements], ids, before


def check_hands(settlement: dict[str, Any], state: State) -> None:
    """Both seats' hands are the record's: tiles by kind, melds, flowers; the winner's exactly
    as the engine scored it."""
    result = state.result
    assert result is not None
    hands = settlement["hands"]
    assert len(hands) == 2
    for seat, shown in enumerate(hands):
        winner = result.kind is ResultKind.WIN and result.winner == seat
        expected = tiles_of(str(result.hand)) if winner else held(state, seat)
        if winner:  # the scored hand's flowers are listed apart
            expected -= Counter(str(Tile(t)) for t in state.flowers[seat])
        assert tiles_of(shown["hand"]) == expected, (seat, shown, expected)
        assert shown["hand"].count("[") == len(state.melds[seat]), (seat, shown)
        assert shown["flowers"] == [str(Tile(t)) for t in sorted(state.flowers[seat])]
    if result.kind is ResultKind.WIN:
        assert "+" in hands[result.winner]["hand"]


async def check_amounts(
    served: Served,
    settlement: dict[str, Any],
    state: State,
    *,
    ids: tuple[int, int],
    before: list[int],
    family: str,
) -> None:
    """The points each seat received by the spec's formula, and the beans as the ledger moved
    them (the room's stake × the points, limited by the payer's balance)."""
    result = state.result
    assert result is not None
    stake = TIERS[TIER][0]
    if result.kind is ResultKind.ABORT:
        points, payer = ESCAPE_POINTS[family], result.loser
    elif result.kind is ResultKind.WIN:
        points, payer = spec_points(family, result), result.loser
    else:
        points, payer = 0, None
    deltas = [0, 0]
    beans = [0, 0]
    if payer is not None and points:
        paid = min(points * stake, before[payer])
        deltas[payer], deltas[1 - payer] = -points, points
        beans[payer], beans[1 - payer] = -paid, paid
    assert settlement["result"]["deltas"] == deltas
    assert settlement["beans"] == beans
    assert settlement["stake"] == stake
    after = [await served.store.ledger.balance(i) for i in ids]
    assert after == [b + d for b, d in zip(before, beans, strict=True)]


async def check_ledger_rows(
    clients: tuple[PlayerClient, PlayerClient],
    ids: tuple[int, int],
    settlement: dict[str, Any],
    before: list[int],
) -> None:
    beans = settlement["beans"]
    payer = 0 if beans[0] < 0 else 1
    await check_ledger(
        clients,
        ids,
        settlement["game"],
        payer=payer,
        paid=-beans[payer] if beans[payer] < 0 else 0,
        before=before,
        case="settlement hands",
    )


def run_case(tmp_path: Path, family: str, end: str) -> None:
    async def run() -> None:
        with database("sqlite", tmp_path) as url:
            async with serving(url) as served:
                players = [await register(served.url, f"{family[:6]}-{end}-{i}") for i in (0, 1)]
                settlements, ids, before = await play_hand(served, players, family, end)
                # both seats are sent the same settlement: after the end both hands are public
                assert settlements[0] == settlements[1]
                settlement = settlements[0]
                state = replayed(settlement["record"])
                assert state.result is not None
                kind = {"win": "win", "draw": "draw", "escape": "abort"}[end]
                assert settlement["result"]["kind"] == state.result.kind == kind
                check_hands(settlement, state)
                if end == "draw":
                    assert settlement["ready"] == [
                        ready_by_analysis(state, 0),
                        ready_by_analysis(state, 1),
                    ]
                    assert settlement["ready"] == [True, False]
                else:
                    assert settlement["ready"] is None
                await check_amounts(
                    served, settlement, state, ids=ids, before=before, family=family
                )
                by_id = {uid: client for client, uid in players}
                await check_ledger_rows((by_id[ids[0]], by_id[ids[1]]), ids, settlement, before)
                for client, _ in players:
                    await client.close()

    asyncio.run(asyncio.wait_for(run(), timeout=240))


@pytest.mark.parametrize("family", FAMILIES)
def test_a_win_shows_both_hands_the_wilds_and_what_each_received(
    family: str, tmp_path: Path
) -> None:
    run_case(tmp_path, family, "win")


@pytest.mark.parametrize("family", FAMILIES)
def test_a_drawn_hand_shows_both_hands_and_each_seats_ready(family: str, tmp_path: Path) -> None:
    run_case(tmp_path, family, "draw")


def test_an_escape_shows_both_hands_and_credits_the_opponent(tmp_path: Path) -> None:
    """guobiao-2p §6.5: the escaper pays 13 points × 500 = 6,500 beans to the other seat."""
    run_case(tmp_path, "guobiao-2p", "escape")
