"""The server's heavy work in separate bounded pools (erren.server.work) and the replays of
posted records (erren.server.routes.replays): one kind of work cannot starve another, a full
pool refuses at once, a posted record is replayed in another process, bounded by what a real
hand holds, cached and throttled per address."""

from __future__ import annotations

import asyncio
import gzip
import io
import json
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from erren.engine import Record, find_family
from erren.server import work
from erren.server.routes.common import ApiError
from erren.server.routes.replay import max_actions
from erren.server.routes.replays import ReplayDesk
from erren.server.store.passwords import PROFILE, Passwords
from erren.server.work import LIMITS, BusyError, Work
from erren.sim.simulator import simulate
from erren.testing.waits import eventually

GZIP = {"accept-encoding": "gzip"}


@pytest.fixture(autouse=True)
def fresh_pools() -> Iterator[None]:
    yield
    work.close()


def test_a_flood_of_password_work_leaves_the_computer_its_threads() -> None:
    """The password process is stuck and its queue is full: the next password job is refused
    at once (busy), and the computer's move and the hint still run on their own threads."""

    async def run(release: Any) -> None:
        limit = LIMITS[Work.PASSWORD].waiting
        assert limit is not None
        stuck = [asyncio.ensure_future(work.run(Work.PASSWORD, release.wait)) for _ in range(limit)]
        await asyncio.sleep(0)  # every job entered its pool
        with pytest.raises(BusyError) as refused:
            await work.run(Work.PASSWORD, release.wait)
        assert refused.value.work is Work.PASSWORD
        busy = f"the server is busy: {limit} password jobs are already waiting"
        assert str(refused.value) == busy
        assert await work.run(Work.COMPUTER, sum, [1, 2, 3]) == 6
        assert await work.run(Work.ADVICE, max, 4, 9) == 9
        release.set()
        assert await asyncio.gather(*stuck) == [True] * limit
        assert await work.run(Work.PASSWORD, len, "ok") == 2  # free again

    with multiprocessing.get_context("forkserver").Manager() as manager:
        asyncio.run(run(manager.Event()))


@pytest.mark.parametrize("kind", [Work.PASSWORD, Work.REPLAY, Work.REVIEW])
def test_password_replay_and_review_work_run_in_a_process_of_lower_priority(kind: Work) -> None:
    async def run() -> tuple[int, int]:
        return await work.run(kind, os.getpid), await work.run(kind, os.nice, 0)

    pid, niceness = asyncio.run(run())
    assert LIMITS[kind].nice == 10
    assert pid != os.getpid() and niceness == os.nice(0) + 10


_OWNER = """
import asyncio, os
from erren.server import work
from erren.server.work import Work

async def main() -> None:
    print(await work.run(Work.REPLAY, os.getpid), flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (one nobody has reaped yet)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return False
    return fields[0] != "Z"


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_a_killed_servers_work_processes_end_with_it() -> None:
    """A server killed outright (``kill -9``: it cannot shut its pools down) leaves no process
    behind: its pool's worker sees it gone and ends, and then the forkserver that made the
    worker ends too (before, both stayed until the machine restarted: hundreds after a run
    of the tests, which kill their servers)."""
    owner = subprocess.Popen([sys.executable, "-c", _OWNER], stdout=subprocess.PIPE)
    try:
        assert owner.stdout is not None
        worker = int(owner.stdout.readline())
        forkserver = _parent(worker)
        assert worker != owner.pid and _running(worker) and _running(forkserver)
    finally:
        owner.kill()
        owner.wait()
        if owner.stdout is not None:
            owner.stdout.close()

    async def gone() -> bool:
        return not _running(worker) and not _running(forkserver)

    asyncio.run(eventually(gone, "the killed server's worker and forkserver end", timeout=30))


def test_a_password_hash_takes_one_thread() -> None:
    """The production profile has one lane: argon2 runs a lane per thread, and four lanes
    took both cores of a two-core node whatever the process's priority."""
    assert PROFILE.parallelism == 1
    assert Passwords().hasher.parallelism == 1


def test_the_computer_is_never_refused() -> None:
    assert LIMITS[Work.COMPUTER].waiting is None

    async def run() -> list[int]:
        return list(await asyncio.gather(*(work.run(Work.COMPUTER, abs, -i) for i in range(64))))

    assert asyncio.run(run()) == list(range(64))


def test_a_posted_record_is_replayed_in_another_process() -> None:
    async def run() -> int:
        return await work.run(Work.REPLAY, os.getpid)

    assert asyncio.run(run()) != os.getpid()


def _records(rules: str, games: int) -> list[Record]:
    lines = io.StringIO()
    simulate(find_family(rules), ["efficiency", "efficiency"], hands=games, seed=5, jsonl=lines)
    return [Record.from_json(line) for line in lines.getvalue().splitlines()]


@pytest.mark.parametrize(("rules", "most"), [("guobiao-2p", 228), ("xiamen", 252), ("arcade", 444)])
def test_a_real_hand_fits_the_bound_by_far(rules: str, most: int) -> None:
    """The bound is 3 × the wall's tiles + 2 × 10 托管 switches + 16: 64, 72 and 136 tiles."""
    records = _records(rules, 40)
    assert {max_actions(r) for r in records} == {most}
    assert max(len(r.actions) for r in records) <= most // 2


def _record(rules: str = "guobiao-2p") -> dict[str, object]:
    return _records(rules, 1)[0].to_dict()


def _frames(body: bytes | memoryview) -> dict[str, object]:
    return json.loads(gzip.decompress(body))  # type: ignore[no-any-return]


def test_the_desk_answers_frames_caches_them_and_throttles_an_address() -> None:
    async def run() -> None:
        desk = ReplayDesk(per_address=3)
        record = _record()
        first = await desk.answer(record, "10.0.0.1", GZIP)
        assert first.headers["content-encoding"] == "gzip"
        frames = _frames(first.body)
        assert frames["ruleset"] == "guobiao-2p"
        assert len(frames["frames"]) > 1  # type: ignore[arg-type]
        plain = await desk.answer(record, "10.0.0.1", {})  # cached; no gzip asked for
        assert "content-encoding" not in plain.headers
        assert json.loads(bytes(plain.body)) == frames
        for n in (1, 2):  # two more new records from the address: 3 in all
            await desk.answer({**record, "game": n}, "10.0.0.1", GZIP)
        with pytest.raises(ApiError) as refused:
            await desk.answer({**record, "game": 3}, "10.0.0.1", GZIP)
        assert (refused.value.status_code, refused.value.code) == (429, "too-many-replays")
        wait = int(refused.value.headers["Retry-After"])  # type: ignore[index]
        assert 1 <= wait <= 60 and refused.value.params == {"retry_after": wait}
        again = await desk.answer(record, "10.0.0.1", GZIP)  # a cached one costs nothing
        assert _frames(again.body) == frames
        other = await desk.answer({**record, "game": 3}, "10.0.0.2", GZIP)
        assert _frames(other.body)["game"] == 3

    asyncio.run(run())


def test_a_record_longer_than_a_real_hand_is_refused_naming_the_bound() -> None:
    async def run() -> None:
        record = _record()
        actions = list(record["actions"])  # type: ignore[call-overload]
        padded = {**record, "actions": actions + ["0:trustee:on", "0:trustee:off"] * 120}
        with pytest.raises(ApiError) as refused:
            await ReplayDesk().answer(padded, "10.0.0.1", GZIP)
        assert (refused.value.status_code, refused.value.code) == (422, "not-replayable")
        count = len(actions) + 240
        assert refused.value.message == (
            f"not a replayable record: {count} actions; a guobiao-2p hand holds at most 228"
        )

    asyncio.run(run())


def test_the_bound_fits_in_a_request(tmp_path: Path) -> None:
    """The longest arcade record the bound admits is far below the 64 KiB body limit."""
    record = _record("arcade")
    longest = {**record, "actions": ["0:discard:1m"] * 444}
    (tmp_path / "r.json").write_text(json.dumps(longest))
    assert (tmp_path / "r.json").stat().st_size < 16 << 10
