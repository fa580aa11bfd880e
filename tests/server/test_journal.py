"""Group commit: many tables' actions in one transaction, each append durable when it returns."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from erren.server.journal import Journal
from erren.server.store import Passwords, Store, StoreError

OPTIONS = {"fan_table": "2p"}


def test_concurrent_appends_share_commits_and_each_waits_for_its_own(tmp_path: Path) -> None:
    async def main() -> None:
        store = await Store.open(f"sqlite:///{tmp_path / 'j.sqlite3'}", passwords=Passwords.fast())
        journal = Journal(store, window=0.005)
        try:
            games = [
                await store.games.create("guobiao-2p", OPTIONS, (None, None), i, "salt", None)
                for i in range(20)
            ]

            async def table(game_id: int) -> None:
                for seq in range(5):
                    await journal.append([(game_id, seq, f"0:discard:{seq + 1}m")])
                    # durable now: the row is in the database
                    stored = await store.games.get(game_id)
                    assert stored is not None and len(stored.actions) == seq + 1

            await asyncio.gather(*(table(g) for g in games))
            assert journal.rows == 100
            assert journal.commits < 100  # the tables shared transactions
            finished = games[0]
            await store.games.finish(finished, {"done": True}, "over")
            with pytest.raises(StoreError, match="finished"):
                await journal.append([(finished, 5, "0:pass")])
            await journal.append([(games[1], 5, "0:pass"), (games[1], 6, "1:pass")])
            stored = await store.games.get(games[1])
            assert stored is not None and stored.actions[-2:] == ("0:pass", "1:pass")
        finally:
            await journal.close()
            await store.close()

    asyncio.run(main())
