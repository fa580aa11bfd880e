"""Ranks in the store (:mod:`erren.server.store.ranks`), on SQLite and PostgreSQL: a settled
bean-room hand moves both players' ranks once, in its transaction; retried and concurrent
settlements move nothing more; seasons follow the store's injected clock (soft reset); guests,
practice tables and the one who stayed after an escape are not moved.  Every expected figure
is computed here from the documented table (:mod:`erren.server.ranks`' docstring)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from erren.server.ranks import Seasons
from erren.server.store import SettledHand, Store, Transfer

pytestmark = pytest.mark.anyio

GB = "guobiao-2p"
EPOCH = datetime(2026, 3, 2, tzinfo=UTC)


class Clock:
    """The store's injected clock for these tests."""

    def __init__(self) -> None:
        self.at = EPOCH + timedelta(days=1)

    def __call__(self) -> datetime:
        return self.at


async def _hand(
    store: Store,
    seats: tuple[int, int],
    kind: str,
    winner: int | None,
    *,
    tier: str | None = "normal",
    loser: int | None = None,
) -> SettledHand:
    room = f"{GB}/{tier}" if tier else None
    game = await store.games.create(GB, {}, seats, 1, "salt", room)
    await store.games.finish(game, {"crafted": True}, "crafted")
    if kind == "win":
        assert winner is not None
        loser = 1 - winner
    deltas = (0, 0) if kind == "draw" else ((8, -8) if loser == 1 else (-8, 8))
    return SettledHand(
        game, GB, seats, kind, winner, loser, "discard" if kind == "win" else None,
        8 if kind == "win" else 0, 8, deltas, tier is not None, tier,
    )  # fmt: skip


async def _players(store: Store) -> tuple[int, int]:
    a = (await store.accounts.register("rank-a", "password1")).id
    b = (await store.accounts.register("rank-b", "password1")).id
    return a, b


def _clocked(store: Store) -> Clock:
    clock = Clock()
    store.ranks.seasons = Seasons(epoch=EPOCH, weeks=2)
    store.ranks.now = clock
    return clock


async def _standing(store: Store, user: int) -> tuple[int, int, int]:
    [s] = [s for s in await store.ranks.standings(user) if s.family == GB]
    return s.step, s.points, s.hands


async def test_a_hand_moves_both_ranks_once(store: Store) -> None:
    _clocked(store)
    a, b = await _players(store)
    hand = await _hand(store, (a, b), "win", 0)  # 普通场: win +20, loss −20 × 50 % at 新人
    pay = [Transfer(b, a, 1_600, "crafted")]
    assert await store.profiles.settle_hand(hand, pay)
    assert not await store.profiles.settle_hand(hand, pay)  # a retry moves nothing
    assert await _standing(store, a) == (1, 40 // 2, 1)  # 0 + 20 ≥ 20: 新人二级 at 20
    assert await _standing(store, b) == (0, 0, 1)  # 0 − 10 < 0: 新人一级 is the floor
    moves = await store.ranks.moves_of(hand.game_id)
    assert [(m.user_id, m.change, m.step_after, m.points_after) for m in moves] == [
        (a, 20, 1, 20),
        (b, -(20 * 50 // 100), 0, 0),
    ]
    draw = await _hand(store, (b, a), "draw", None, tier="senior")  # +10 each
    assert await store.profiles.settle_hand(draw, [])
    assert await _standing(store, a) == (1, 30, 2)
    assert await _standing(store, b) == (0, 10, 2)
    history = await store.ranks.history(a)
    assert [m.game_id for m in history] == [draw.game_id, hand.game_id]
    assert [(r.name, r.step, r.points) for r in await store.ranks.leaders(GB, 1)] == [
        ("rank-a", 1, 30),
        ("rank-b", 0, 10),
    ]


async def test_concurrent_retries_move_the_rank_once(store: Store) -> None:
    _clocked(store)
    a, b = await _players(store)
    hand = await _hand(store, (a, b), "win", 1, tier="junior")  # b wins +30 ≥ 20 → 新人二级 at 20
    done = await asyncio.gather(*(store.profiles.settle_hand(hand, []) for _ in range(4)))
    assert sorted(done) == [False, False, False, True]
    assert await _standing(store, b) == (1, 20, 1)
    assert len(await store.ranks.history(b)) == 1


async def test_escape_guests_and_practice(store: Store) -> None:
    _clocked(store)
    a, b = await _players(store)
    win = await _hand(store, (a, b), "win", 0, tier="senior")  # a: 50 ≥ 20, 新人二级 at 20
    await store.profiles.settle_hand(win, [])
    escape = await _hand(store, (a, b), "abort", None, tier="normal", loser=0)
    await store.profiles.settle_hand(escape, [])
    # a escaped: 20 − 60 × 50 % < 0 → 新人一级 at 10; b, who stayed, is not moved
    assert await _standing(store, a) == (0, 10, 2)
    assert (await _standing(store, b))[2] == 1
    practice = await _hand(store, (a, b), "win", 0, tier=None)
    await store.profiles.settle_hand(practice, [])
    assert (await _standing(store, a))[2] == 2
    guest = (await store.accounts.guest()).user.id
    with_guest = await _hand(store, (a, guest), "win", 0, tier="senior")
    await store.profiles.settle_hand(with_guest, [])
    assert (await _standing(store, a))[2] == 2
    assert await store.ranks.standings(guest) == []


async def test_seasons_soft_reset_on_the_injected_clock(store: Store) -> None:
    clock = _clocked(store)
    a, b = await _players(store)
    for _ in range(3):  # senior +50: 新人一 → 二 at 20 → 70 ≥ 40: 三 at 30 → 80 ≥ 60: 雀士一 at 40
        await store.profiles.settle_hand(await _hand(store, (a, b), "win", 0, tier="senior"), [])
    assert await _standing(store, a) == (3, 40, 3)
    clock.at = EPOCH + timedelta(weeks=2)  # season 2
    assert store.ranks.season().number == 2
    assert await _standing(store, a) == (0, 10, 0)  # carried: 3 − 3 steps, at 新人一级's start
    assert await store.ranks.leaders(GB, 2) == []
    await store.profiles.settle_hand(await _hand(store, (a, b), "draw", None, tier="novice"), [])
    assert await _standing(store, a) == (0, 12, 1)
    # season 1 is kept as it ended
    [s1] = await store.ranks.standings(a, 1)
    assert (s1.step, s1.points, s1.hands) == (3, 40, 3)
    assert [r.user_id for r in await store.ranks.leaders(GB, 1)] == [a, b]
