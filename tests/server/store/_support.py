"""Support code shared by the ledger-audit tests (not a test module): bot-played hands stored
as finished games."""

from __future__ import annotations

from typing import Any

from erren.bots import find_bot
from erren.engine import State, find_family
from erren.server.fairness import commit
from erren.server.store import Store
from erren.sim.simulator import play_hand

NOVICE = 50
"""Beans per point in 新手场 (guobiao-2p §6.3)."""


def hand(family: str, seed: int, bot: str = "efficiency") -> State:
    """A hand of ``family`` played to its end by two bots (score-only rules: points)."""
    state = State.new(find_family(family), seed=seed)
    return play_hand(state, [find_bot(bot, seed=1), find_bot(bot, seed=2)])


async def finished(
    store: Store,
    state: State,
    room: str,
    seats: tuple[int | None, int | None],
    *,
    options: dict[str, Any] | None = None,
    salt: str = "pepper",
) -> int:
    """Store ``state`` as a finished game of ``room`` with the record the table writes."""
    assert state.seed is not None
    game = await store.games.create(state.ruleset.name, {}, seats, state.seed, salt, room)
    record = state.record().to_dict()
    if options:
        record["options"] = {**record["options"], **options}
    record["seed"] = state.seed
    record["fairness"] = {"commitment": commit(state.seed, salt), "salt": salt}
    record["game"] = game
    await store.games.finish(game, record, f"hand: {state.result}")
    return game
