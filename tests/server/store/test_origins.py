"""Where an account was registered from: a keyed digest of its network, never the address
(:mod:`erren.server.store.origins`), on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import select, text

from erren.server.store import Store
from erren.server.store.models import ServerKey, UserRow
from erren.server.store.origins import network_of, origin_of

pytestmark = pytest.mark.anyio

PASSWORD = "origin-password"


@pytest.mark.parametrize(
    ("address", "network"),
    [
        ("198.51.100.7", "198.51.100.7"),
        (" 198.51.100.7 ", "198.51.100.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("::ffff:198.51.100.7", "198.51.100.7"),
        ("testclient", None),
        ("", None),
    ],
)
def test_the_network_of_an_address(address: str, network: str | None) -> None:
    assert network_of(address) == network


def test_the_digest_is_keyed_and_of_the_network() -> None:
    key, other = b"k" * 32, b"o" * 32
    expected = hashlib.blake2b(b"2001:db8:1:2::/64", key=key, digest_size=16).hexdigest()
    assert origin_of("2001:db8:1:2::5", key) == origin_of("2001:db8:1:2:9::9", key) == expected
    assert origin_of("2001:db8:1:3::5", key) != expected
    assert origin_of("198.51.100.7", key) != origin_of("198.51.100.7", other)
    assert origin_of("testclient", key) is None


async def test_accounts_from_one_address_share_an_origin_and_the_address_is_not_kept(
    store: Store,
) -> None:
    one = [
        await store.accounts.register(f"origin-{i}", PASSWORD, address="198.51.100.7")
        for i in range(2)
    ]
    elsewhere = await store.accounts.register("origin-far", PASSWORD, address="203.0.113.9")
    unknown = await store.accounts.register("origin-none", PASSWORD)
    guest = (await store.accounts.guest()).user
    ids = [u.id for u in (*one, elsewhere, unknown, guest)]
    origins = await store.accounts.origins(ids)
    assert set(origins) == {one[0].id, one[1].id, elsewhere.id}
    assert origins[one[0].id] == origins[one[1].id] != origins[elsewhere.id]
    async with store.database.engine.connect() as conn:
        key = await conn.scalar(select(ServerKey.value).where(ServerKey.name == "origin"))
        stored = [row[0] for row in await conn.execute(select(UserRow.origin))]
        dumped = " ".join(str(v) for v in (await conn.execute(text("SELECT * FROM users"))).all())
    assert key is not None and len(bytes.fromhex(key)) == 32
    assert origins[one[0].id] == origin_of("198.51.100.7", bytes.fromhex(key))
    assert all(origin is None or len(origin) == 32 for origin in stored)
    assert "198.51.100" not in dumped and "203.0.113" not in dumped
