"""The ledger audit: the ledger's invariants and every bean game's settlement against its
replayed record (``erren.server.audit``, behind ``erren audit-ledger``).

The hands are played by the engine with bots; the beans a hand owes are computed here from the
spec: the loser's points × the room's stake (guobiao-2p §6.3: 新手场 50 beans per point, 普通场
200), at most the loser's balance before the hand."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import text

from erren.engine import State
from erren.engine.result import ResultKind
from erren.server.audit import audit_store
from erren.server.fairness import commit
from erren.server.store import Store, Transfer

from ._support import NOVICE, finished, hand

pytestmark = pytest.mark.anyio

NORMAL = 200
"""Beans per point in 普通场."""


def loser_points(state: State) -> tuple[int, int]:
    """(the paying seat, his points) of a won hand."""
    assert state.result is not None
    d0, d1 = state.result.deltas
    assert d0 + d1 == 0 and d0 != 0
    return (0, -d0) if d0 < 0 else (1, -d1)


async def pair(store: Store) -> tuple[int, int]:
    a = (await store.accounts.register("alice", "password1")).id
    b = (await store.accounts.register("bob", "password1")).id
    return a, b


async def test_right_settlements_pass(store: Store) -> None:
    a, b = await pair(store)
    won = hand("guobiao-2p", 1)  # seat 0 loses 16 points
    payer, points = loser_points(won)
    assert (payer, points) == (0, 16)
    game = await finished(store, won, "guobiao-2p/novice", (a, b))
    assert await store.ledger.settle(
        f"game:{game}", [Transfer(a, b, 16 * NOVICE, "guobiao novice")]
    )

    xiamen = hand("xiamen", 1)  # seat 0 loses 24 points
    assert loser_points(xiamen) == (0, 24)
    game = await finished(store, xiamen, "xiamen/normal", (b, a))
    assert await store.ledger.settle(f"game:{game}", [Transfer(b, a, 24 * NORMAL, "xiamen normal")])

    drawn = hand("guobiao-2p", 1, bot="random")
    assert drawn.result is not None and drawn.result.kind is ResultKind.DRAW
    await finished(store, drawn, "guobiao-2p/novice", (a, b))  # a drawn hand moves nothing
    await finished(store, hand("guobiao-2p", 2), "private", (a, b))
    await finished(store, hand("arcade", 1), "computer", (a, None))

    report = await audit_store(store)
    assert report.ok, report.problems
    assert report.problems == []
    games = report.games
    assert (games.finished, games.bean_games, games.settled, games.nothing_owed) == (5, 3, 2, 1)
    assert games.beans_moved == 16 * 50 + 24 * 200 == 5_600
    assert games.score_only == {"private": 1, "computer": 1}
    assert report.ledger.users_total == report.ledger.granted == 20_000
    assert (report.ledger.grants, report.ledger.settlements) == (2, 2)
    assert report.lines()[-1] == "OK: no problem found"
    assert report.to_json()["ok"] is True


async def test_a_stake_applied_twice_is_found(store: Store) -> None:
    """Today's guobiao bug: the engine settled in beans (its ``room`` option) and the table
    multiplied by the stake again; the store clamps the result to the loser's 10,000."""
    a, b = await pair(store)
    won = hand("guobiao-2p", 1)
    game = await finished(store, won, "guobiao-2p/novice", (a, b), options={"room": "新手场"})
    await store.ledger.settle(f"game:{game}", [Transfer(a, b, 16 * NOVICE * NOVICE, "twice")])
    assert await store.ledger.balance(a) == 0
    report = await audit_store(store)
    assert not report.ok
    assert report.problems == [
        f"game {game} (guobiao-2p/novice): its rules carry a stake (room='新手场'): the engine "
        "counted beans, not points, so the stake is applied twice",
        f"game {game} (guobiao-2p/novice): the record's points (-16, 16) at stake 50 (balances "
        f"before 10000/10000) move -800/+800 beans, but settlement game:{game} moved "
        "-10000/+10000",
    ]
    assert report.lines()[-3] == "FAILED: 2 problem(s)"


async def test_a_missing_settlement_is_found(store: Store) -> None:
    a, b = await pair(store)
    game = await finished(store, hand("guobiao-2p", 3), "guobiao-2p/normal", (a, b))
    report = await audit_store(store)
    # seed 3: seat 1 loses 14 points → bob owes 14 × 200
    assert report.problems == [
        f"game {game} (guobiao-2p/normal): the record's points (14, -14) at stake 200 make "
        f"user {b} pay {14 * NORMAL} beans, but there is no settlement"
    ]


async def test_the_balance_cap(store: Store) -> None:
    """A loser holding 500 beans pays 500 of the 800 he owes, and not less."""
    a, b = await pair(store)
    sink = (await store.accounts.guest()).user.id
    await store.ledger.settle("drain", [Transfer(a, sink, 9_500, "lost elsewhere")])
    capped = await finished(store, hand("guobiao-2p", 1), "guobiao-2p/novice", (a, b))
    await store.ledger.settle(f"game:{capped}", [Transfer(a, b, 500, "capped")])
    assert (await audit_store(store)).ok
    await store.ledger.settle("refill", [Transfer(sink, a, 500, "back")])
    short = await finished(store, hand("guobiao-2p", 1), "guobiao-2p/novice", (a, b))
    await store.ledger.settle(f"game:{short}", [Transfer(a, b, 400, "short")])
    assert (await audit_store(store)).problems == [
        f"game {short} (guobiao-2p/novice): the record's points (-16, 16) at stake 50 (balances "
        f"before 500/10500) move -500/+500 beans, but settlement game:{short} moved -400/+400"
    ]


async def test_settlements_that_belong_to_no_bean_game(store: Store) -> None:
    a, b = await pair(store)
    private = await finished(store, hand("guobiao-2p", 2), "private", (a, b))
    await store.ledger.settle(f"game:{private}", [Transfer(b, a, 100, "score-only?")])
    await store.ledger.settle("game:4242", [Transfer(a, b, 100, "no such game")])
    running = await store.games.create("guobiao-2p", {}, (a, b), 7, "salt", "guobiao-2p/novice")
    await store.ledger.settle(f"game:{running}", [Transfer(a, b, 100, "settled, not yet finished")])
    await store.ledger.settle("campaign-bonus", [Transfer(a, b, 1, "not a game's key")])
    report = await audit_store(store)
    assert report.problems == [
        f"game {private}: a score-only table (private), yet settlement game:{private} moved beans",
        "settlement game:4242 belongs to no game",
    ]
    assert (report.games.pending, report.games.other_settlements) == (1, 1)
    assert report.games.unfinished == 1


async def test_records_that_do_not_hold(store: Store) -> None:
    a, b = await pair(store)
    won = hand("guobiao-2p", 1)
    game = await finished(store, won, "guobiao-2p/novice", (a, b))
    await store.ledger.settle(f"game:{game}", [Transfer(a, b, 800, "right")])
    async with store.database.engine.begin() as conn:  # a commitment other than the published one
        await conn.execute(
            text("UPDATE games SET commitment = :c WHERE id = :g"),
            {
                "c": "0" * 64,
                "g": game,
            },
        )
    bad_seed = await finished(store, won, "guobiao-2p/novice", (a, b), salt="other")
    async with (
        store.database.engine.begin() as conn
    ):  # the record's deal is not drawn from its seed
        await conn.execute(
            text("UPDATE games SET record = :r, commitment = :c WHERE id = :g"),
            {
                "r": _json_with_seed(await _record(store, bad_seed), 99),
                "c": commit(99, "other"),
                "g": bad_seed,
            },
        )
    report = await audit_store(store)
    assert report.problems[0] == (
        f"game {game} (guobiao-2p/novice): the record's commitment is not the one published "
        "at the deal"
    )
    assert report.problems[1].startswith(
        f"game {bad_seed} (guobiao-2p/novice): the record does not replay: "
    )
    assert len(report.problems) == 2


async def _record(store: Store, game: int) -> dict[str, Any]:
    stored = await store.games.get(game)
    assert stored is not None and stored.record is not None
    return stored.record


def _json_with_seed(record: dict[str, Any], seed: int) -> str:
    import json  # noqa: PLC0415

    salt = record["fairness"]["salt"]
    fair = {"commitment": commit(seed, salt), "salt": salt}
    return json.dumps({**record, "seed": seed, "fairness": fair}, ensure_ascii=False)


async def test_one_account_at_both_seats_is_found(store: Store) -> None:
    a, _ = await pair(store)
    game = await finished(store, hand("guobiao-2p", 1), "guobiao-2p/novice", (a, a))
    assert (await audit_store(store)).problems == [
        f"game {game} (guobiao-2p/novice): one account (user {a}) held both seats"
    ]


async def test_a_tampered_ledger_row_is_listed(store: Store) -> None:
    a, b = await pair(store)
    await store.ledger.settle("k", [Transfer(a, b, 700, "hand")])
    async with store.database.engine.begin() as conn:
        await conn.execute(
            text("UPDATE ledger SET balance_after = balance_after + 1 WHERE amount = -700")
        )
        await conn.execute(
            text("UPDATE accounts SET balance = balance + 5 WHERE user_id = :u"), {"u": b}
        )
    audit, problems = await store.ledger.audit_findings()
    account_b = await _account(store, b)
    assert len(problems) == 4, problems
    assert any("says the balance became 9301, but its entries sum to 9300" in p for p in problems)
    assert f"account {account_b}: balance 10705 ≠ its entries' sum 10700" in problems
    assert "users hold 20005 beans but were granted 20000" in problems
    assert "balances sum to 5, not 0 (users 20005, house -20000)" in problems
    assert audit.users_total == 20_005
    with pytest.raises(Exception, match=r"ledger inconsistent: .*9301"):
        await store.ledger.audit()


async def _account(store: Store, user: int) -> int:
    async with store.database.engine.begin() as conn:
        found = await conn.scalar(text("SELECT id FROM accounts WHERE user_id = :u"), {"u": user})
    assert isinstance(found, int)
    return found


async def test_an_audit_of_a_live_server_sees_no_half_settlement(store: Store) -> None:
    """Audits while hands are settled and finished (as the table does: settle, then finish)
    and beans move elsewhere never report a problem that is not there."""
    a, b = await pair(store)
    won = hand("guobiao-2p", 1)  # seat 0 loses 16 points
    done = asyncio.Event()

    async def tables() -> None:
        for i in range(15):
            game = await store.games.create(
                "guobiao-2p", {}, (a, b), won.seed or 0, f"s{i}", "guobiao-2p/novice"
            )
            for seq, action in enumerate(won.record().actions):
                await store.games.append_action(game, seq, action)
            await store.ledger.settle(f"game:{game}", [Transfer(a, b, 16 * NOVICE, "hand")])
            record = won.record().to_dict()
            salt = f"s{i}"
            record["seed"] = won.seed
            record["fairness"] = {"commitment": commit(won.seed or 0, salt), "salt": salt}
            await store.games.finish(game, record, "hand")
            await store.ledger.settle(f"elsewhere:{i}", [Transfer(b, a, 800 + i, "elsewhere")])
        done.set()

    async def audits() -> int:
        count = 0
        while not done.is_set():
            report = await audit_store(store)
            assert report.ok, report.problems
            count += 1
        return count

    _, count = await asyncio.gather(tables(), audits())
    assert count >= 1
    final = await audit_store(store)
    assert final.ok, final.problems
    assert (final.games.settled, final.games.beans_moved) == (15, 15 * 800)
    assert final.ledger.users_total == 20_000


async def test_relief_grants_are_checked_against_their_rule(store: Store) -> None:
    a, b = await pair(store)
    guest = (await store.accounts.guest()).user.id
    await store.ledger.settle("lost", [Transfer(a, b, 9_800, "lost")])  # alice keeps 200
    assert await store.ledger.claim_relief(a) == (1_800, 2_000)
    report = await audit_store(store)
    assert report.ok, report.problems
    grants = report.grants
    assert (grants.welcome, grants.welcome_beans) == (3, 30_000)
    assert (grants.relief, grants.relief_beans, grants.other) == (1, 1_800, 0)
    # grants that break the rule, written past claim_relief
    await store.ledger.grant(b, 5_000, "relief", key=f"relief:{b}:2026-12-01")  # bob holds 19,800
    await store.ledger.grant(guest, 1_000, "relief", key=f"relief:{guest}:2026-12-01")
    await store.ledger.grant(a, 10, "relief", key=f"relief:{b}:2026-12-02")  # someone else's key
    await store.ledger.grant(b, 10, "welcome", key="welcome:4242")
    await store.ledger.grant(b, 7, "correction")
    problems = (await audit_store(store)).problems
    assert problems == [
        f"relief relief:{b}:2026-12-01 granted +5000 beans to a balance of 19800; relief tops "
        "a balance below 1,000 up to exactly 2,000",
        f"relief relief:{guest}:2026-12-01 went to a guest",
        f"relief relief:{guest}:2026-12-01 granted +1000 beans to a balance of 10000; relief "
        "tops a balance below 1,000 up to exactly 2,000",
        f"relief relief:{b}:2026-12-02 went to users [{a}]",
        f"grant welcome:4242 went to users [{b}] (+10 beans)",
    ]
    assert (await audit_store(store)).grants.other == 1
