"""The collusion audit's flows over hand-made games (no server): which accounts feed which,
and what counts as fed from one address."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from erren.server.collusion import FED_BEANS, PUPPETS, FlagKind, Report, _Flows
from erren.server.settlement import NEW_PLAYER_HANDS
from erren.server.store import StoredGame

NOW = datetime(2026, 12, 6, tzinfo=UTC)


def game(number: int, seats: tuple[int, int], outcome: dict[str, Any]) -> StoredGame:
    record = {"outcome": outcome, "actions": []}
    return StoredGame(
        number, "guobiao-2p", {}, seats, "guobiao-2p/novice", "", 1, "s", (), True, record, "",
        NOW, NOW,
    )  # fmt: skip


def win(number: int, winner: int, loser: int, beans: int) -> StoredGame:
    """``winner`` (seat 0) took ``beans`` from ``loser`` (seat 1)."""
    outcome = {"kind": "win", "winner": 0, "loser": 1, "beans": [beans, -beans]}
    return game(number, (winner, loser), outcome)


def flows_of(games: list[StoredGame]) -> _Flows:
    flows, report = _Flows(), Report("test")
    for one in games:
        flows.add(one, report)
    return flows


def test_seasoned_accounts_from_one_address_losing_to_one_account_are_flagged() -> None:
    """Three accounts, past their new-player hands, lose 2,000 beans each to account 1: not
    fed by new accounts, but fed from one address; one more loser elsewhere is not counted."""
    warm = [win(n, 90 + n % 3, 80, 10) for n in range(NEW_PLAYER_HANDS)]  # seasons 90..92
    warm += [win(100 + n, 80, 90 + n % 3, 10) for n in range(NEW_PLAYER_HANDS * 3)]
    losses = [win(500 + i, 1, 90 + i, 2_000) for i in range(PUPPETS)] + [win(600, 1, 70, 2_000)]
    flows = flows_of([*warm, *losses])
    assert all(flows.complete[90 + i] >= NEW_PLAYER_HANDS for i in range(PUPPETS))
    assert not [f for f in flows.flags() if f.user == 1]  # the puppets were not new
    same, elsewhere = "a" * 32, "b" * 32
    origins = {**{90 + i: same for i in range(PUPPETS)}, 70: elsewhere, 1: elsewhere}
    [flag] = [f for f in flows.address_flags(origins) if f.user == 1]
    assert flag.kind is FlagKind.FED_FROM_ONE_ADDRESS
    assert flag.sources == tuple(90 + i for i in range(PUPPETS))
    assert flag.games == tuple(500 + i for i in range(PUPPETS))
    assert flag.beans == PUPPETS * 2_000


def test_fewer_than_the_threshold_or_no_origin_is_not_flagged() -> None:
    losses = [win(500 + i, 1, 90 + i, FED_BEANS) for i in range(PUPPETS)]
    flows = flows_of(losses)
    one_short = {90 + i: "a" * 32 for i in range(PUPPETS - 1)}
    assert flows.address_flags(one_short) == []
    assert flows.address_flags({}) == []  # registered before origins were kept


def test_a_late_escape_with_beans_feeds_and_a_late_one_without_does_not() -> None:
    moves = [f"1:discard:{n % 9 + 1}m" for n in range(20)]  # seat 1 moved 20 times: late

    def escape(number: int, escaper: int, beans: int) -> StoredGame:
        one = game(number, (1, escaper), {"kind": "abort", "loser": 1, "beans": [beans, -beans]})
        assert one.record is not None
        one.record["actions"] = moves
        return one

    flows = flows_of([escape(10, 90, 650), escape(11, 91, 0), escape(12, 92, 650)])
    assert flows.fed[1] == {90: (650, [10]), 92: (650, [12])}
