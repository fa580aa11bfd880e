"""The kernel's tables file (see the top of ``_kernel.c``): written at build time beside the
kernel and mapped at the first call that needs a table; a missing, truncated or foreign file is
never used (the tables are then built in memory, with the same answers); the tables in use equal
freshly built ones byte for byte.

Each case runs in a fresh interpreter, since a process sets its tables once;
``ERREN_KERNEL_TABLES=PATH`` points the kernel at a damaged copy.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from erren.analysis import _kernel

TABLES = Path(_kernel.__file__).with_name(_kernel.TABLES_FILE)
STAMP_AT = 16  # the header: magic (8 bytes), format and row size (4 + 4), then the stamp

PROBE = """
import json, random, sys
from erren.analysis import _kernel as k

out = {"at_import": k.tables_source()}
rng, answers = random.Random(7), []
wall = [kind for kind in range(34) for _ in range(4)]
for _ in range(150):
    tiles, wilds = rng.sample(wall, 14), rng.choice([0, 0, 1, 2])
    c14 = [0] * 34
    for t in tiles[: 14 - wilds]:
        c14[t] += 1
    c13 = list(c14)
    c13[next(t for t in range(34) if c13[t])] -= 1
    answers.append([
        k.shanten_by_shape(c13, wilds, 31),
        k.improving(c13, wilds, 31),
        k.waits(c13, wilds, 31, None, 4),
        k.waits(c13, wilds, 1, None, None),
        k.is_complete(c14, wilds, 31, None),
        k.discard_rows(c14, wilds, 31),
    ])
for _ in range(300):
    honors = rng.random() < 0.3
    block = [rng.randrange(5) for _ in range(7 if honors else 9)]
    answers.append([k.block_row(block, honors), k.block_row(block, honors, True)])
out["source"] = k.tables_source()
out["answers"] = answers
out["match"] = k.tables_match_built() if "--match" in sys.argv else None
print(json.dumps(out))
"""


def probe(tables: Path | None, *, match: bool = False, script: str = PROBE) -> dict[str, Any]:
    """Run ``script`` in a fresh interpreter, with ERREN_KERNEL_TABLES=tables when given."""
    env = {key: value for key, value in os.environ.items() if key != "ERREN_KERNEL_TABLES"}
    if tables is not None:
        env["ERREN_KERNEL_TABLES"] = str(tables)
    args = [sys.executable, "-c", script, *(["--match"] if match else [])]
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def from_file() -> dict[str, Any]:
    """The installed package's own run: its tables file beside the kernel."""
    assert TABLES.is_file(), f"{TABLES} is missing: the build (setup.py) writes it"
    return probe(None, match=True)


def test_the_installed_kernel_maps_its_tables_file_at_the_first_call(
    from_file: dict[str, Any],
) -> None:
    assert from_file["at_import"] is None  # importing sets no table
    assert from_file["source"] == "file"


def test_the_mapped_tables_equal_freshly_built_ones(from_file: dict[str, Any]) -> None:
    assert from_file["match"] is True


def _truncated(path: Path) -> None:
    data = TABLES.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _stale(path: Path) -> None:
    data = bytearray(TABLES.read_bytes())
    data[STAMP_AT] ^= 0xFF  # a kernel built from another source
    path.write_bytes(data)


def _foreign(path: Path) -> None:
    data = bytearray(TABLES.read_bytes())
    data[:8] = b"not-mine"
    path.write_bytes(data)


def _intact(path: Path) -> None:
    shutil.copyfile(TABLES, path)


@pytest.mark.parametrize(
    ("damage", "source"),
    [
        (None, "built"),  # missing
        (_truncated, "built"),
        (_stale, "built"),
        (_foreign, "built"),
        (_intact, "file"),  # the hook maps any good copy
    ],
    ids=["missing", "truncated", "stale-stamp", "foreign-magic", "intact-copy"],
)
def test_a_bad_tables_file_is_never_used_and_the_answers_stay_the_same(
    tmp_path: Path,
    damage: Callable[[Path], None] | None,
    source: str,
    from_file: dict[str, Any],
) -> None:
    copy = tmp_path / "tables.bin"
    if damage is not None:
        damage(copy)
    result = probe(copy)
    assert result["source"] == source
    assert result["answers"] == from_file["answers"]


HAND = [4, 1, 1] + [0] * 12 + [1] * 6 + [0] * 13  # 1111m 23m 456789p and a wild (a fifth 1m?)
RACE = f"""
import json, threading
from erren.analysis import _kernel as k

hand = {HAND}
start, answers = threading.Barrier(8), []

def first_call() -> None:
    start.wait()
    answers.append([k.shanten(hand, 1, 31), k.waits(hand, 1, 31, None, None)])

threads = [threading.Thread(target=first_call) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps({{"source": k.tables_source(), "answers": answers}}))
"""


@pytest.mark.parametrize("tables", [None, Path("/nonexistent/tables.bin")], ids=["file", "built"])
def test_first_calls_racing_from_threads_all_get_the_right_answers(tables: Path | None) -> None:
    """The server analyses in worker threads: the first calls may come together."""
    result = probe(tables, script=RACE)
    assert result["source"] == ("file" if tables is None else "built")
    expected = [_kernel.shanten(HAND, 1, 31), _kernel.waits(HAND, 1, 31, None, None)]
    assert result["answers"] == [expected] * 8
