"""Waiting for a state instead of sleeping: what tests and benchmarks share."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

__all__ = ["eventually"]


async def eventually(
    check: Callable[[], Awaitable[bool]], what: str, *, timeout: float = 20, every: float = 0.02
) -> None:
    """Wait until ``check()`` holds (asked every ``every`` s), instead of sleeping for as long
    as the thing awaited should take; :class:`AssertionError` naming ``what`` after
    ``timeout`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        if loop.time() > deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s")
        await asyncio.sleep(every)
