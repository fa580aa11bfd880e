"""The server's heavy work, each kind in its own bounded pool, so that one cannot starve another.

The event loop only routes messages; everything that costs CPU runs elsewhere:

========== ============================================ ======= =========================
kind       what                                         workers at most waiting or running
========== ============================================ ======= =========================
computer   the computer's moves at every table          4       no limit (a table waits
                                                                 for its own move)
advice     the hint button (提示)                        1       8, then ``busy``
review     the review of a finished hand (大师, rollouts) 1 process 4, then ``busy``
                                                        (nice 10)
password   argon2id hashing (register, login)           1 process 32, then ``busy``
                                                        (nice 10)
replay     ``POST /web/replay`` (a posted record)        1 process 4, then ``busy``
                                                        (nice 10)
========== ============================================ ======= =========================

A flood of logins therefore holds one process of one thread (the hash has one lane:
:data:`erren.server.store.passwords.PROFILE`), at a lower priority than the server, and leaves
the other core to the computer's moves; a posted record is replayed in a separate process, also
at a lower priority, so even a costly one takes no time from the event loop (the GIL stays
free); so is a hand's review (:mod:`erren.server.reviewing`: 0.2–1.9 s of CPU each with its
hindsight, JSON strings in and out), and the player's own puzzles made from it
(:mod:`erren.server.owndrills`: low priority, dropped when the pool is busy).
``python -m benchmarks.bench_starve`` measures what each flood costs the computer.

Work refused because its pool is full raises :class:`BusyError` (the routes answer 503
``busy`` with ``Retry-After``; the socket answers an error).

The pools are the process's (like asyncio's default executor); :func:`close` shuts them down
(the app's shutdown) and the next use starts them again.  A process pool's workers also end
when the server process ends without shutting them down (``kill -9``, a crash): each watches
its server (:func:`_worker_start`), since nothing else would tell them (their job queue's pipe
stays open in themselves) and the forkserver stays while they live.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Final, ParamSpec, TypeVar

__all__ = ["LIMITS", "BusyError", "Limit", "Work", "busy_count", "close", "in_flight", "run"]


P = ParamSpec("P")
R = TypeVar("R")


class Work(StrEnum):
    COMPUTER = "computer"
    ADVICE = "advice"
    REVIEW = "review"
    PASSWORD = "password"
    REPLAY = "replay"


@dataclass(frozen=True, slots=True)
class Limit:
    """A pool's size: ``workers`` threads (or processes), ``waiting`` jobs at most queued or
    running together (``None``: no limit)."""

    workers: int
    waiting: int | None
    processes: bool = False
    nice: int = 0
    """For a process pool: how much lower its priority is than the server's (``os.nice``)."""


LIMITS: Final = {
    Work.COMPUTER: Limit(4, None),
    Work.ADVICE: Limit(1, 8),
    Work.REVIEW: Limit(1, 4, processes=True, nice=10),
    Work.PASSWORD: Limit(1, 32, processes=True, nice=10),
    Work.REPLAY: Limit(1, 4, processes=True, nice=10),
}


class BusyError(Exception):
    """The pool of ``work`` already holds as many jobs as it may: try again shortly."""

    def __init__(self, work: Work) -> None:
        self.work = work
        self.waiting = LIMITS[work].waiting
        super().__init__(
            f"the server is busy: {self.waiting} {work.value} jobs are already waiting"
        )

    @property
    def params(self) -> dict[str, str | int | None]:
        """The refusal's parameters: the kind of work, and how many such jobs may wait (the
        number its message names)."""
        return {"work": self.work.value, "waiting": self.waiting}


_pools: dict[Work, Executor] = {}
_in_flight: dict[Work, int] = dict.fromkeys(Work, 0)
_refused: dict[Work, int] = dict.fromkeys(Work, 0)


OWNER_POLL_S: Final = 1.0
"""Where the system has no process handles (``os.pidfd_open``), how often a worker looks
whether its server still runs."""


def _worker_start(nice: int, owner: int) -> None:
    """A process pool worker's start: lower its priority by ``nice`` and end it (``os._exit``)
    as soon as the server process ``owner`` is gone."""
    os.nice(nice)
    threading.Thread(target=_watch, args=(owner,), name="erren-owner", daemon=True).start()


def _watch(owner: int) -> None:
    try:
        handle = os.pidfd_open(owner)  # Linux: readable once the process has ended
    except (AttributeError, OSError):
        while _alive(owner):
            time.sleep(OWNER_POLL_S)
    else:
        select.select([handle], [], [])
    os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):  # gone (or the number is another user's)
        return False
    return True


def _pool(work: Work) -> Executor:
    pool = _pools.get(work)
    if pool is None:
        limit = LIMITS[work]
        if limit.processes:
            # forkserver: a clean child (no copy of the server's threads or sockets)
            context = multiprocessing.get_context("forkserver")
            pool = ProcessPoolExecutor(
                limit.workers,
                mp_context=context,
                initializer=_worker_start,
                initargs=(limit.nice, os.getpid()),
            )
        else:
            pool = ThreadPoolExecutor(limit.workers, thread_name_prefix=f"erren-{work.value}")
        _pools[work] = pool
    return pool


async def run(work: Work, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args, **kwargs)`` in the pool of ``work``; :class:`BusyError` when it is full.  For
    a process pool (``password``, ``replay``, ``review``) ``fn`` and its arguments must pickle."""
    limit = LIMITS[work]
    if limit.waiting is not None and _in_flight[work] >= limit.waiting:
        _refused[work] += 1
        raise BusyError(work)
    _in_flight[work] += 1
    try:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_pool(work), partial(fn, *args, **kwargs))
    finally:
        _in_flight[work] -= 1


def in_flight(work: Work) -> int:
    """How many jobs of ``work`` are queued or running now (a low-priority caller leaves
    room: :meth:`erren.server.reviewing.ReviewDesk.keep_later`)."""
    return _in_flight[work]


def busy_count(work: Work) -> int:
    """How many jobs of ``work`` were refused since the process started (tests, metrics)."""
    return _refused[work]


def close() -> None:
    """Let go of every pool (the app's shutdown): the jobs they hold still finish, and the
    next job starts a new pool (another app of the same process may still be running)."""
    while _pools:
        _, pool = _pools.popitem()
        pool.shutdown(wait=False)
