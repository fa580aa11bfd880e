"""An external mjai bot at a server table: ``erren bot --mjai "node examples/mjai-bot/bot.js"``
joins a private table and plays full hands; a bot program that exits mid-hand leaves its
moves to the table's clock (timeouts, then 托管) and the hand still ends."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from pathlib import Path

from erren.bots import find_bot
from erren.mjai.bot import MjaiBot
from erren.server.fairness import verify_record
from erren.testing.mjai_bots import EXITS

from ._support.harness import Server, run
from ._support.helpers import player, settlements

ROOT = Path(__file__).resolve().parents[2]
NODE_BOT = ROOT / "examples" / "mjai-bot" / "bot.js"


def _timeouts(record: dict[str, object], seat: int) -> int:
    actions = record["actions"]
    assert isinstance(actions, list)
    return sum(1 for text in actions if text == f"{seat}:timeout")


def test_erren_bot_mjai_plays_a_server_table(server: Server) -> None:
    node = shutil.which("node")
    assert node is not None, "node is needed (scripts/system-deps.sh installs nodejs)"

    out: list[tuple[list[dict[str, object]], subprocess.CompletedProcess[str]]] = []

    async def main() -> None:
        a = await player(server.url, keep=True)
        # timers of 300 s at the test's time scale (0.01): 3 s, ample for a pipe round trip
        made = await a.private_table("guobiao-2p", turn_timeout_s=300, claim_timeout_s=300)
        command = [
            sys.executable,
            "-m",
            "erren.cli.main",
            "bot",
            "--server",
            server.url,
            "--mjai",
            f"{node} {NODE_BOT}",
            "--invite",
            made["invite"],
            "--hands",
            "2",
        ]
        cli = asyncio.create_task(
            asyncio.to_thread(
                subprocess.run, command, capture_output=True, text=True, timeout=300, check=False
            )
        )
        await a.play(made["table"], find_bot("efficiency", seed=1), hands=2, timeout=120)
        done = await cli
        await a.close()
        out.append((settlements(a.messages), done))

    run(main())
    ends, done = out[0]
    assert done.returncode == 0, done.stderr
    assert "2 hand(s) played" in done.stdout
    assert "mjai bot" not in done.stderr  # every answer on time and legal
    assert len(ends) == 2
    for end in ends:
        record = end["record"]
        assert isinstance(record, dict)
        state = verify_record(record)
        assert state.is_terminal and state.result is not None
        assert _timeouts(record, 1) == 0  # the program made every move of seat 1 itself
        # the program moved for seat 1 (a hand may end in a few turns: its deal is random)
        assert any(text.startswith("1:") for text in record["actions"])


def test_a_bot_program_that_exits_leaves_its_moves_to_the_clock(
    server: Server, tmp_path: Path
) -> None:
    script = tmp_path / "exits.py"
    script.write_text(EXITS)
    errors: list[str] = []
    out: list[list[dict[str, object]]] = []

    async def main() -> None:
        a, b = await player(server.url, keep=True), await player(server.url)
        made = await a.private_table("guobiao-2p")
        joined = await b.join_invite(made["invite"])
        bot = MjaiBot(f"{sys.executable} {script}", timeout=5.0, report=errors.append)
        try:
            await asyncio.gather(
                a.play(made["table"], find_bot("efficiency", seed=2), hands=1, timeout=60),
                b.play(joined["table"], bot, hands=1, timeout=60),
            )
        finally:
            bot.close()
            await a.close()
            await b.close()
        out.append(settlements(a.messages))

    run(main())
    ends = out[0]
    assert errors == [
        "erren: mjai bot 'mjai:" + f"{sys.executable} {script}" + "' at seat 1: the program "
        "exited with status 3; the default move is played (a timeout) now and for the rest of "
        "the run"
    ]
    assert len(ends) == 1
    record = ends[0]["record"]
    assert isinstance(record, dict)
    assert verify_record(record).is_terminal
    assert _timeouts(record, 1) >= 1  # the table's clock played seat 1's next move
