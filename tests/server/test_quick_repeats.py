"""Quick match on a single server does not pair the same two accounts again within the hold
(:mod:`erren.server.pairing`: two minutes of game time), and one account holds one place: a
player waiting in a queue opens, joins or starts no other table.

The lobby runs in the test's process on a SQLite store, on a clock that moves only when the
test says so (:class:`ManualClock`): every hold is checked to the second."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from erren.families.arcade.campaign.service.desk import CampaignDesk
from erren.server.lobby import Lobby, LobbyError
from erren.server.pairing import REPEAT_HOLD_S, RecentPairs
from erren.server.store import Store, User
from erren.server.store.passwords import Passwords
from erren.server.table import TableView
from erren.testing.tables import SLOW_CLOCK

from ._support.clocks import ManualClock
from ._support.queueing import settle, waits_in

pytestmark = pytest.mark.anyio

ROOM = "guobiao-2p/novice"
PUPPETS = 6
"""The probe's puppet farm: six fresh accounts quick-matching one account (issue 26)."""

Seat = tuple[TableView, int]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@contextlib.asynccontextmanager
async def lobby_on(
    tmp: Path, clock: ManualClock, hold_s: float = REPEAT_HOLD_S
) -> AsyncIterator[Lobby]:
    store = await Store.open(f"sqlite:///{tmp / 'erren.sqlite3'}", passwords=Passwords.fast())
    lobby = Lobby(store, clock=clock, config=replace(SLOW_CLOCK, repeat_hold_s=hold_s))
    try:
        yield lobby
    finally:
        await lobby.shutdown()
        await store.close()


async def _accounts(lobby: Lobby, count: int) -> list[User]:
    return [
        await lobby.store.accounts.register("q" + uuid.uuid4().hex[:10], "password-123")
        for _ in range(count)
    ]


async def _pair(lobby: Lobby, first: User, second: User) -> str:
    """``first`` waits, ``second`` arrives: paired at once; returns the table, then closes it
    (both players are free again, their pairing remembered)."""
    waiting = await waits_in(lobby, first, ROOM)
    table, seat = await lobby.quick_match(second, ROOM, 600)
    assert seat == 1 and await waiting == (table, 0)
    await _close(lobby, table.spec.id)
    return table.spec.id


async def _close(lobby: Lobby, table_id: str) -> None:
    table = lobby.tables[table_id]
    lobby._closed(table)
    await table.stop()


def test_a_pair_is_held_for_exactly_the_hold() -> None:
    clock = ManualClock(scale=0.01)
    recent = RecentPairs(clock, 120)
    recent.paired(7, 3)
    assert recent.held(3, 7) == recent.held(7, 3) == 120
    clock.advance(1.19)  # 119 game seconds
    assert recent.held(3, 7) == pytest.approx(1)
    assert recent.held(3, 8) == 0
    clock.advance(0.01)
    assert recent.held(7, 3) == 0
    recent.paired(1, 2)  # the pair held no more is forgotten
    assert list(recent._met) == [(1, 2)]


async def test_the_same_two_are_paired_again_only_when_the_hold_ends(tmp_path: Path) -> None:
    """Ann and bob were paired; she waits again and he arrives: he is queued, not paired; at
    119 s they both still wait; at 120 s he is paired with her (she waited: seat 0)."""
    clock = ManualClock()
    async with lobby_on(tmp_path, clock) as lobby:
        ann, bob = await _accounts(lobby, 2)
        first = await _pair(lobby, ann, bob)
        hers = await waits_in(lobby, ann, ROOM)
        his = await waits_in(lobby, bob, ROOM)
        assert clock.pending() == [clock.t + REPEAT_HOLD_S]  # his hold's end, nothing else
        clock.advance(REPEAT_HOLD_S - 1)
        await settle()
        assert not hers.done() and not his.done()
        clock.advance(1)
        (table, seat), (again, other) = await asyncio.gather(hers, his)
        assert (seat, other) == (0, 1) and table is again and table.spec.id != first
        assert [s.user_id for s in lobby.tables[table.spec.id].seats] == [ann.id, bob.id]


async def test_a_held_back_player_leaves_his_recent_opponent_to_anyone_else(
    tmp_path: Path,
) -> None:
    """Ann waits, bob (her recent opponent) is held back; cat, who arrives next, is paired with
    ann, the oldest player she may meet; dan, then, with bob."""
    clock = ManualClock()
    async with lobby_on(tmp_path, clock) as lobby:
        ann, bob, cat, dan = await _accounts(lobby, 4)
        await _pair(lobby, ann, bob)
        hers = await waits_in(lobby, ann, ROOM)
        his = await waits_in(lobby, bob, ROOM)
        table, seat = await lobby.quick_match(cat, ROOM, 600)
        assert seat == 1 and await hers == (table, 0)
        assert not his.done()
        await _close(lobby, table.spec.id)
        table, seat = await lobby.quick_match(dan, ROOM, 600)
        assert seat == 1 and await his == (table, 0)
        await _close(lobby, table.spec.id)
        assert clock.pending() == []  # bob's hold timer went with his wait


async def test_a_puppet_farm_meets_its_account_once_per_puppet_per_hold(tmp_path: Path) -> None:
    """The probe's farm: one account waits, six puppets come one after the other, a second
    apart.  Each is paired with it at once, the first time; then, for the rest of the two
    minutes, every puppet that comes is held back (queued beside it, not paired) until it
    gives up; the first puppet is paired with it again exactly two minutes after their first
    pairing, not before."""
    clock = ManualClock()
    async with lobby_on(tmp_path, clock) as lobby:
        fed, *puppets = await _accounts(lobby, PUPPETS + 1)
        start = clock.t
        for puppet in puppets:
            await _pair(lobby, fed, puppet)
            clock.advance(1)  # a second per escape
        mine = await waits_in(lobby, fed, ROOM)
        for i, puppet in enumerate(puppets):
            theirs = await waits_in(lobby, puppet, ROOM)
            assert clock.pending() == [start + i + REPEAT_HOLD_S]  # the puppet's own hold
            assert await lobby.cancel_quick(puppet.id)
            with pytest.raises(LobbyError, match="cancelled"):
                await theirs
        assert not mine.done() and clock.pending() == []
        clock.advance(start + REPEAT_HOLD_S - 1 - clock.t)
        theirs = await waits_in(lobby, puppets[0], ROOM)
        await settle()
        assert not mine.done() and not theirs.done()
        clock.advance(1)
        (table, seat), (again, other) = await asyncio.gather(mine, theirs)
        assert (seat, other) == (0, 1) and table is again
        assert [s.user_id for s in lobby.tables[table.spec.id].seats] == [fed.id, puppets[0].id]


async def test_no_hold_pairs_the_same_two_again_at_once(tmp_path: Path) -> None:
    """``repeat_hold_s=0`` (``TableConfig``) turns the rule off."""
    async with lobby_on(tmp_path, ManualClock(), hold_s=0) as lobby:
        ann, bob = await _accounts(lobby, 2)
        for _ in range(3):
            await _pair(lobby, ann, bob)


async def test_a_held_back_wait_runs_out_and_leaves_no_timer(tmp_path: Path) -> None:
    clock = ManualClock()
    async with lobby_on(tmp_path, clock) as lobby:
        ann, bob = await _accounts(lobby, 2)
        await _pair(lobby, ann, bob)
        hers = await waits_in(lobby, ann, ROOM)
        with pytest.raises(LobbyError) as refused:
            await lobby.quick_match(bob, ROOM, 0.05)
        assert (refused.value.status, refused.value.code) == (408, "no-opponent")
        assert clock.pending() == [] and lobby.queues.waiting_in(bob.id) is None
        assert await lobby.cancel_quick(ann.id)
        with pytest.raises(LobbyError, match="cancelled"):
            await hers


async def test_a_waiting_account_opens_joins_and_starts_no_other_table(tmp_path: Path) -> None:
    """One place per account: while ann waits for a quick match, a private table, a table
    against the computer, a friend's table by its code, a campaign hand and a quick match in
    another room are refused with 409 ``waiting``; cancelled, she may open one."""
    async with lobby_on(tmp_path, ManualClock()) as lobby:
        ann, bob = await _accounts(lobby, 2)
        friends = await lobby.private_table(bob, "guobiao-2p", {})
        await lobby.desk(CampaignDesk).start(ann)
        hers = await waits_in(lobby, ann, ROOM)
        tries = {
            "private": lobby.private_table(ann, "xiamen", {}),
            "computer": lobby.vs_computer(ann, "guobiao-2p", {}),
            "invite": lobby.join_invite(ann, str(friends.spec.invite)),
            "campaign": lobby.desk(CampaignDesk).hand(ann, 1),
            "quick": lobby.quick_match(ann, "xiamen/novice", 600),
        }
        for what, attempt in tries.items():
            with pytest.raises(LobbyError) as refused:
                await attempt
            assert (refused.value.status, refused.value.code) == (409, "waiting"), what
            assert ROOM in refused.value.message, what
        assert set(lobby.tables) == {friends.spec.id}
        assert friends.seats[1].user_id is None
        assert await lobby.cancel_quick(ann.id)
        with pytest.raises(LobbyError, match="cancelled"):
            await hers
        table = await lobby.private_table(ann, "xiamen", {})
        assert lobby.table_of(ann.id) is table
