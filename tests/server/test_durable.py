"""``durably``: a write that fails for a passing reason is tried again until it goes through,
the listener hears of the first failure and of the recovery; other errors are raised at once."""

from __future__ import annotations

import asyncio

import pytest

from erren.server.durable import durably, transient
from erren.server.store import StoreError, StoreUnavailable


def test_a_passing_failure_is_retried_and_reported_once() -> None:
    tries: list[int] = []
    heard: list[str] = []

    async def write() -> str:
        tries.append(len(tries))
        if len(tries) <= 3:
            raise OSError("No space left on device")
        return "stored"

    async def main() -> str:
        return await durably(
            write,
            failing=lambda err: heard.append(f"failing: {err}"),
            recovered=lambda n: heard.append(f"recovered after {n}"),
            first_pause=0.001,
            max_pause=0.004,
        )

    assert asyncio.run(main()) == "stored"
    assert len(tries) == 4
    assert heard == ["failing: No space left on device", "recovered after 3"]


def test_a_refusal_is_not_retried() -> None:
    tries: list[int] = []

    async def write() -> None:
        tries.append(1)
        raise StoreError("game 7 is finished")

    with pytest.raises(StoreError, match="finished"):
        asyncio.run(durably(write, first_pause=0.001))
    assert tries == [1]


def test_what_counts_as_passing() -> None:
    from sqlalchemy.exc import IntegrityError, OperationalError  # noqa: PLC0415

    assert transient(OSError("disk full"))
    assert transient(StoreUnavailable("the file vanished"))
    assert transient(OperationalError("INSERT", {}, Exception("attempt to write a readonly db")))
    assert not transient(IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed")))
    assert not transient(StoreError("no game 3"))
    assert not transient(ValueError("bad seq"))
