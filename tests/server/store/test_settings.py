"""A registered player's settings panel kept with his account (``user_settings``, revision
0007), on SQLite and PostgreSQL: a document replaced whole, one per account, refused for a
guest, bounded in size; and the revision itself, upgraded onto a database at 0006 that already
has accounts, and downgraded again."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from erren.server.store import AccountError, Passwords, Store
from erren.server.store.settings import MAX_SETTINGS_BYTES

from ._support import migrate, older_user, sync_url, tables

pytestmark = pytest.mark.anyio

PASSWORD = "settings-password"
MINE = {"lang": "en", "tiles": "large", "felt": "blue", "sound": False}
THEIRS = {"lang": "zh", "tiles": "small", "felt": "brown", "contrast": True}


async def test_an_account_keeps_its_settings_and_each_put_replaces_them_whole(
    store: Store,
) -> None:
    alice = await store.accounts.register("alice", PASSWORD)
    assert await store.settings.get(alice.id) is None
    before = datetime.now(UTC)
    saved = await store.settings.put(alice.id, MINE)
    assert saved.document == MINE
    assert before <= saved.updated_at <= datetime.now(UTC)
    assert await store.settings.get(alice.id) == saved
    # a second put replaces the document: the keys it leaves out are gone
    again = await store.settings.put(alice.id, {"motion": "reduce"})
    kept = await store.settings.get(alice.id)
    assert kept is not None
    assert kept.document == {"motion": "reduce"}
    assert kept.updated_at == again.updated_at >= saved.updated_at


async def test_two_accounts_keep_their_own(store: Store) -> None:
    alice = await store.accounts.register("alice", PASSWORD)
    bob = await store.accounts.register("bob", PASSWORD)
    carol = await store.accounts.register("carol", PASSWORD)
    await asyncio.gather(store.settings.put(alice.id, MINE), store.settings.put(bob.id, THEIRS))
    mine, theirs = await store.settings.get(alice.id), await store.settings.get(bob.id)
    assert mine is not None and mine.document == MINE
    assert theirs is not None and theirs.document == THEIRS
    assert await store.settings.get(carol.id) is None


async def test_a_guest_keeps_none(store: Store) -> None:
    guest = (await store.accounts.guest()).user
    with pytest.raises(AccountError, match="registered accounts"):
        await store.settings.put(guest.id, MINE)
    assert await store.settings.get(guest.id) is None
    with pytest.raises(AccountError, match="no user"):
        await store.settings.put(guest.id + 1000, MINE)


async def test_a_document_is_a_small_json_object(store: Store) -> None:
    alice = await store.accounts.register("alice", PASSWORD)
    # {"x":"…"}: 8 bytes around the text
    at_limit = {"x": "a" * (MAX_SETTINGS_BYTES - 8)}
    await store.settings.put(alice.id, at_limit)
    with pytest.raises(ValueError, match="at most 1024"):
        await store.settings.put(alice.id, {"x": "a" * (MAX_SETTINGS_BYTES - 7)})
    with pytest.raises(ValueError, match="must be a dict"):
        await store.settings.put(alice.id, ["en"])  # type: ignore[arg-type]
    kept = await store.settings.get(alice.id)
    assert kept is not None and kept.document == at_limit


async def test_the_revision_upgrades_a_database_with_accounts_and_downgrades(
    database_url: str,
) -> None:
    url = sync_url(database_url)
    await asyncio.to_thread(migrate, url, "0006")
    assert "user_settings" not in await asyncio.to_thread(tables, url)
    older = await asyncio.to_thread(older_user, url, "older")
    store = await Store.open(database_url, passwords=Passwords.fast())  # upgrades to head
    try:
        assert await store.settings.get(older) is None
        await store.settings.put(older, MINE)
        kept = await store.settings.get(older)
        assert kept is not None and kept.document == MINE
    finally:
        await store.close()
    await asyncio.to_thread(migrate, url, "0006", down=True)
    assert "user_settings" not in await asyncio.to_thread(tables, url)
    assert "users" in await asyncio.to_thread(tables, url)
