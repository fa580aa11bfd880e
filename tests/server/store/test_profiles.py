"""A player's page from the store: settled hands (beans and ratings in one transaction, once),
the figures per family, the leaderboards and the history's filters — on SQLite and PostgreSQL.

The hands are crafted here (every field written out) and settled through the store; every
expected figure is counted by hand from that list, and every rating is computed here with
openskill itself, from the starting ratings, never read back from erren's code.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from erren.engine.result import ResultKind
from erren.server.store import SettledHand, Store, Transfer

pytestmark = pytest.mark.anyio

GB, XM, AR = "guobiao-2p", "xiamen", "arcade"


@dataclass(frozen=True)
class Crafted:
    """A hand to settle: seats by player letter ('' = computer), the result, a transfer."""

    family: str
    room: str
    seats: tuple[str, str]
    kind: str
    winner: int | None
    how: str | None
    fan: int
    deltas: tuple[int, int]
    pays: tuple[str, str, int] | None  # (payer, payee, beans)
    rated: bool


# A is the player whose page is checked; B and C are registered; G is a guest.
HANDS = [
    Crafted(
        GB, "guobiao-2p/novice", ("A", "B"), "win", 0, "zimo", 10, (10, -10), ("B", "A", 500), True
    ),
    Crafted(
        GB, "guobiao-2p/novice", ("B", "A"), "win", 0, "discard", 8, (8, -8), ("A", "B", 400), True
    ),
    Crafted(GB, "guobiao-2p/novice", ("A", "C"), "draw", None, None, 0, (0, 0), None, True),
    Crafted(
        GB,
        "guobiao-2p/novice",
        ("A", "C"),
        "win",
        0,
        "discard",
        24,
        (24, -24),
        ("C", "A", 1_200),
        True,
    ),
    Crafted(GB, "computer", ("A", ""), "win", 0, "zimo", 12, (12, -12), None, False),
    Crafted(
        XM,
        "xiamen/novice",
        ("A", "B"),
        "abort",
        None,
        None,
        0,
        (400, -400),
        ("B", "A", 1_000),
        True,
    ),
    Crafted(AR, "arcade/novice", ("G", "A"), "win", 1, "robbing", 5, (-5, 5), None, True),
]
"""H1 A self-draws against B; H2 A deals in to B; H3 A and C draw; H4 C deals in to A (24 fans,
A's biggest); H5 A self-draws against the computer (not rated); H6 B escapes from A in xiamen
(A's win, B's loss); H7 A robs the guest's kong in arcade (never rated: a guest)."""


async def _players(store: Store) -> dict[str, int]:
    ids = {
        name: (await store.accounts.register(f"{name}-player", "password1")).id for name in "ABC"
    }
    ids["G"] = (await store.accounts.guest()).user.id
    return ids


async def _settle(store: Store, ids: dict[str, int], hand: Crafted) -> tuple[int, SettledHand]:
    seats = tuple(ids[s] if s else None for s in hand.seats)
    assert len(seats) == 2
    game = await store.games.create(hand.family, {}, (seats[0], seats[1]), 1, "salt", hand.room)
    await store.games.finish(game, {"crafted": True}, "crafted")
    loser = None if hand.kind == ResultKind.DRAW else (1 if hand.winner == 0 else 0)
    if hand.kind == ResultKind.ABORT:
        loser = 1  # the second seat escaped
    settled = SettledHand(
        game_id=game,
        ruleset=hand.family,
        seats=(seats[0], seats[1]),
        kind=hand.kind,
        winner=hand.winner,
        loser=loser,
        how=hand.how,
        fan_total=hand.fan,
        points=max(hand.deltas),
        deltas=hand.deltas,
        rated=hand.rated,
    )
    transfers = []
    if hand.pays is not None:
        payer, payee, beans = hand.pays
        transfers.append(Transfer(ids[payer], ids[payee], beans, f"crafted game {game}"))
    assert await store.profiles.settle_hand(settled, transfers)
    return game, settled


def _expected_ratings() -> dict[tuple[str, str], tuple[PlackettLuceRating, int]]:
    """(family, player) → rating after the rated hands, with openskill's defaults."""
    model = PlackettLuce()
    ratings: dict[tuple[str, str], tuple[PlackettLuceRating, int]] = {}
    for hand in HANDS:
        if not hand.rated or "" in hand.seats or "G" in hand.seats:
            continue
        a, b = ((hand.family, s) for s in hand.seats)
        ra, na = ratings.get(a, (model.rating(), 0))
        rb, nb = ratings.get(b, (model.rating(), 0))
        ranks: list[float]
        if hand.kind == ResultKind.DRAW:
            ranks = [0, 0]
        elif hand.kind == ResultKind.ABORT:
            ranks = [0, 1]  # the second seat escaped: the first wins
        else:
            ranks = [0, 1] if hand.winner == 0 else [1, 0]
        [[new_a], [new_b]] = model.rate([[ra], [rb]], ranks=ranks)
        if (
            hand.kind == ResultKind.ABORT
        ):  # the escaper's loss only: the one who stayed is not rated
            ratings[b] = (new_b, nb + 1)
            continue
        ratings[a], ratings[b] = (new_a, na + 1), (new_b, nb + 1)
    return ratings


async def test_the_figures_per_family_count_the_settled_hands(store: Store) -> None:
    ids = await _players(store)
    games = [(await _settle(store, ids, hand))[0] for hand in HANDS]
    stats = {f.family: f for f in await store.profiles.family_stats(ids["A"])}
    assert sorted(stats) == [AR, GB, XM]
    gb = stats[GB]
    # H1–H5: wins H1 H4 H5 (self-drawn H1 H5), dealt in H2, drawn H3
    assert (gb.hands, gb.wins, gb.self_drawn, gb.dealt_in, gb.losses, gb.draws) == (
        5,
        3,
        2,
        1,
        1,
        1,
    )
    assert gb.fan_total == 10 + 24 + 12
    assert gb.beans == 500 - 400 + 1_200
    assert (gb.best_game, gb.best_fan, gb.best_points) == (games[3], 24, 24)
    xm = stats[XM]  # B's escape: A paid nothing, won 1,000 beans, not a win by hand
    assert (xm.hands, xm.wins, xm.losses, xm.draws, xm.beans, xm.best_game) == (
        1,
        0,
        0,
        0,
        1_000,
        None,
    )
    ar = stats[AR]
    assert (ar.hands, ar.wins, ar.self_drawn, ar.best_game, ar.best_fan) == (1, 1, 0, games[6], 5)
    assert ar.rating_mu is None and ar.rated_hands == 0  # against a guest: not rated
    # C dealt in once (H4) and drew once (H3)
    c = {f.family: f for f in await store.profiles.family_stats(ids["C"])}[GB]
    assert (c.hands, c.wins, c.dealt_in, c.losses, c.draws, c.beans) == (2, 0, 1, 1, 1, -1_200)


async def test_a_rating_is_openskills_update_of_the_starting_ratings(store: Store) -> None:
    ids = await _players(store)
    for hand in HANDS:
        await _settle(store, ids, hand)
    expected = _expected_ratings()
    for player in "ABC":
        for f in await store.profiles.family_stats(ids[player]):
            want = expected.get((f.family, player))
            if want is None:
                assert f.rating_mu is None, (player, f.family)
                continue
            assert (f.rating_mu, f.rating_sigma, f.rated_hands) == (
                want[0].mu,
                want[0].sigma,
                want[1],
            )
    # A: 4 rated guobiao hands (H1–H4; not H5, the computer's), B: 2 (H1, H2), C: 2 (H3, H4)
    assert [expected[GB, p][1] for p in "ABC"] == [4, 2, 2]
    # the one-row read quick match asks (erren.server.matchrule.StoreSkills): the same mu
    for player in "ABC":
        for family in (GB, AR):
            want = expected.get((family, player))
            got = await store.profiles.rating_mu(ids[player], family)
            assert got == (None if want is None else want[0].mu), (player, family)


async def test_a_retried_settlement_moves_nothing_and_rates_nobody_twice(store: Store) -> None:
    ids = await _players(store)
    game, settled = await _settle(store, ids, HANDS[0])
    balances = [await store.ledger.balance(ids[p]) for p in "AB"]
    ratings = await store.profiles.rating_leaders(GB)
    again = [Transfer(ids["B"], ids["A"], 500, "again")]
    assert not await store.profiles.settle_hand(settled, again)
    assert not await store.profiles.settle_hand(settled, again)
    assert [await store.ledger.balance(ids[p]) for p in "AB"] == balances
    assert await store.profiles.rating_leaders(GB) == ratings
    model = PlackettLuce()
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    assert [(r.name, r.mu, r.sigma, r.hands) for r in ratings] == [
        ("A-player", a.mu, a.sigma, 1),
        ("B-player", b.mu, b.sigma, 1),
    ]
    assert [e.key for e in await store.ledger.entries(ids["A"])].count(f"game:{game}") == 1
    await store.ledger.audit()


async def test_leaderboards_order_by_ordinal_and_by_net_beans(store: Store) -> None:
    ids = await _players(store)
    for hand in HANDS:
        await _settle(store, ids, hand)
    expected = _expected_ratings()
    by_ordinal = sorted("ABC", key=lambda p: (-expected[GB, p][0].ordinal(), ids[p]))
    leaders = await store.profiles.rating_leaders(GB)
    assert [r.name for r in leaders] == [f"{p}-player" for p in by_ordinal]
    assert [r.ordinal for r in leaders] == [expected[GB, p][0].ordinal() for p in by_ordinal]
    # net beans in guobiao bean rooms: A +500 −400 +1,200; B −500 +400; C −1,200 (H5: no room)
    beans = await store.profiles.bean_leaders(GB)
    assert [(b.name, b.beans, b.hands) for b in beans] == [
        ("A-player", 1_300, 4),
        ("B-player", -100, 2),
        ("C-player", -1_200, 2),
    ]
    assert [(b.name, b.beans) for b in await store.profiles.bean_leaders(XM)] == [
        ("A-player", 1_000),
        ("B-player", -1_000),
    ]
    assert await store.profiles.rating_leaders(AR) == []  # the guest's hand rated nobody
    assert [b.name for b in await store.profiles.bean_leaders(AR)] == [
        "A-player"
    ]  # guests never listed


async def test_the_history_filters_by_family_room_opponent_and_result(store: Store) -> None:
    ids = await _players(store)
    h = [(await _settle(store, ids, hand))[0] for hand in HANDS]
    a = ids["A"]

    async def ids_of(
        family: str | None = None,
        room: str | None = None,
        opponent: str | None = None,
        result: str | None = None,
    ) -> list[int]:
        found = await store.profiles.history(
            a, family=family, room=room, opponent=opponent, result=result
        )
        return [g.id for g in found]

    assert await ids_of() == h[::-1]
    assert await ids_of(family=GB) == [h[4], h[3], h[2], h[1], h[0]]
    assert await ids_of(family=XM) == [h[5]]
    assert await ids_of(room="computer") == [h[4]]
    assert await ids_of(room="guobiao-2p/novice") == [h[3], h[2], h[1], h[0]]
    assert await ids_of(opponent="b-PLAYER") == [h[5], h[1], h[0]]  # any case
    assert await ids_of(opponent="") == [h[4]]  # the computer
    assert await ids_of(opponent="nobody") == []
    assert await ids_of(result="win") == [h[6], h[5], h[4], h[3], h[0]]  # H6: B escaped
    assert await ids_of(result="loss") == [h[1]]
    assert await ids_of(result="draw") == [h[2]]
    assert await ids_of(result="win", opponent="B-player", family=GB) == [h[0]]
    rows = {g.id: g for g in await store.profiles.history(a)}
    assert [(rows[g].result, rows[g].beans) for g in h] == [
        ("win", 500),
        ("loss", -400),
        ("draw", 0),
        ("win", 1_200),
        ("win", 0),
        ("win", 1_000),
        ("win", 0),
    ]
    b_rows = {g.id: g.result for g in await store.profiles.history(ids["B"])}
    assert b_rows[h[5]] == "loss"  # his escape
    with pytest.raises(ValueError, match="a result is one of"):
        await store.profiles.history(a, result="lost")


async def test_two_settlements_of_one_hand_at_once_settle_it_once(store: Store) -> None:
    """Two tasks settle the same hand at the same moment: one applies it, the other finds it
    settled (PostgreSQL: the second waits on the hand's primary key, then sees it)."""
    ids = await _players(store)
    hand = HANDS[3]  # C pays A 1,200
    game = await store.games.create(hand.family, {}, (ids["A"], ids["C"]), 1, "salt", hand.room)
    settled = SettledHand(
        game, GB, (ids["A"], ids["C"]), "win", 0, 1, "discard", 24, 24, (24, -24), True
    )
    pay = [Transfer(ids["C"], ids["A"], 1_200, "at once")]
    before = [await store.ledger.balance(ids[p]) for p in "AC"]
    done = await asyncio.gather(
        store.profiles.settle_hand(settled, pay), store.profiles.settle_hand(settled, pay)
    )
    assert sorted(done) == [False, True]
    assert [await store.ledger.balance(ids[p]) for p in "AC"] == [
        before[0] + 1_200,
        before[1] - 1_200,
    ]
    assert [r.hands for r in await store.profiles.rating_leaders(GB)] == [1, 1]
    await store.ledger.audit()
