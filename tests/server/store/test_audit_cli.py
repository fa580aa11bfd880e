"""``erren audit-ledger --database URL [--json]``: the report, and exit 1 with the problems."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from erren.cli.main import main
from erren.server.store import Passwords, Store, Transfer

from ._support import NOVICE, finished, hand


async def _two_hands(url: str, *, double: bool) -> tuple[int, int]:
    """One right guobiao 新手场 hand (seat 0 loses 16 points) and one settled right or,
    with ``double``, at the stake squared."""
    store = await Store.open(url, passwords=Passwords.fast())
    try:
        a = (await store.accounts.register("alice", "password1")).id
        b = (await store.accounts.register("bob", "password1")).id
        won = hand("guobiao-2p", 1)
        first = await finished(store, won, "guobiao-2p/novice", (a, b))
        await store.ledger.settle(f"game:{first}", [Transfer(a, b, 16 * NOVICE, "right")])
        second = await finished(store, won, "guobiao-2p/novice", (a, b), salt="two")
        paid = 16 * NOVICE * (NOVICE if double else 1)
        await store.ledger.settle(f"game:{second}", [Transfer(a, b, paid, "second")])
        return first, second
    finally:
        await store.close()


def test_a_sound_database(database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(_two_hands(database_url, double=False))
    assert main(["audit-ledger", "--database", database_url]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "ledger: 3 accounts, 4 journals (2 grants, 2 settlements), 8 entries"
    assert out[2] == "  users hold 20,000 beans; the house granted 20,000"
    assert out[4] == "grants: welcome 2 (20,000 beans), relief 0 (0), other 0 (0)"
    assert out[6] == "games: 2 finished, 0 unfinished"
    assert out[7] == (
        "  bean rooms: 2 hands replayed from their records; 2 settled, 0 moved nothing; "
        "1,600 beans moved"
    )
    assert out[-1] == "OK: no problem found"
    assert main(["audit-ledger", "--database", database_url, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True
    assert report["problems"] == []
    assert report["games"]["beans_moved"] == 2 * 16 * 50
    assert report["ledger"]["users_total"] == report["ledger"]["granted"] == 20_000
    assert report["grants"]["welcome_beans"] == 20_000


def test_problems_exit_1(database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, second = asyncio.run(_two_hands(database_url, double=True))
    assert main(["audit-ledger", "--database", database_url]) == 1
    out = capsys.readouterr().out.splitlines()
    # alice held 10,000 - 800 = 9,200 before the second hand: the store clamped 40,000 to it
    assert out[-2:] == [
        "FAILED: 1 problem(s)",
        f"  - game {second} (guobiao-2p/novice): the record's points (-16, 16) at stake 50 "
        f"(balances before 9200/10800) move -800/+800 beans, but settlement game:{second} "
        "moved -9200/+9200",
    ]
    assert main(["audit-ledger", "--database", database_url, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert len(report["problems"]) == 1


def test_a_missing_or_bad_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.sqlite3"
    assert main(["audit-ledger", "--database", f"sqlite:///{missing}"]) == 2
    assert capsys.readouterr().out == f"erren audit-ledger: no database at {missing}\n"
    assert not missing.exists()  # the audit never creates a database
    assert main(["audit-ledger", "--database", "mysql://x/y"]) == 2
    assert "unsupported database" in capsys.readouterr().out
    unreachable = "postgresql://postgres@127.0.0.1:1/nothing"
    assert main(["audit-ledger", "--database", unreachable]) == 2
    assert capsys.readouterr().out.startswith("erren audit-ledger: cannot read the database: ")


def test_the_command_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'erren.sqlite3'}"
    asyncio.run(_two_hands(url, double=True))
    done = subprocess.run(
        [sys.executable, "-m", "erren.cli.main", "audit-ledger", "--database", url, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["problems"][0].endswith("moved -9200/+9200")
