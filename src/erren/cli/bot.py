"""``erren bot``: connect a bot to a server as a player (quick match, invite or table)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from erren.bots import Bot

NAME = "bot"
HELP = "Connect a bot to an erren server as a player."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the server's URL")
    parser.add_argument(
        "--token",
        default=None,
        help="a session token (default: $ERREN_TOKEN, else play as a guest); it is sent as the "
        "socket's first message, never in a URL",
    )
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--bot", default="efficiency", help="which bot plays (efficiency, random)")
    who.add_argument(
        "--mjai",
        default=None,
        metavar="COMMAND",
        help="an external bot program speaking mjai JSON lines on stdin/stdout plays, e.g. "
        "--mjai 'node examples/mjai-bot/bot.js' (see docs/mjai-2p.md)",
    )
    parser.add_argument(
        "--mjai-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="seconds the --mjai program has for each decision (default %(default)g); a late, "
        "illegal or missing answer leaves the move to the table's clock (the default move)",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--room", default=None, help="quick match in this room (family/tier)")
    where.add_argument("--invite", default=None, help="join a private table by its code")
    where.add_argument("--table", default=None, help="(re)join a table where the bot is seated")
    where.add_argument(
        "--vs-computer", action="store_true", help="play a table against the server's bot"
    )
    parser.add_argument("--family", default="guobiao-2p", help="family of a --vs-computer table")
    parser.add_argument("--hands", type=int, default=1, help="hands to play, then leave")
    parser.add_argument("--seed", type=int, default=None, help="the bot's seed")
    parser.add_argument("--wait", type=float, default=60.0, help="quick match: seconds to wait")


def _make_bot(args: argparse.Namespace) -> tuple[Bot, str]:
    """The bot of ``--bot`` or ``--mjai`` and how the messages name it; :class:`ValueError`
    naming a bad name, command or timeout."""
    from erren.bots import find_bot  # noqa: PLC0415
    from erren.mjai.bot import MjaiBot  # noqa: PLC0415

    if args.mjai is None:
        return find_bot(args.bot, seed=args.seed), f"the {args.bot} bot"
    if args.mjai_timeout <= 0:
        raise ValueError("--mjai-timeout must be > 0 seconds")
    return MjaiBot(args.mjai, timeout=args.mjai_timeout), f"the mjai program {args.mjai!r}"


async def _main(args: argparse.Namespace) -> int:
    from erren.server.client import ClientError, PlayerClient, guest_token  # noqa: PLC0415

    try:
        bot, label = _make_bot(args)
    except ValueError as error:
        print(f"erren bot: {error}", file=sys.stderr)
        return 2
    try:
        token = args.token or os.environ.get("ERREN_TOKEN") or await guest_token(args.server)
        async with PlayerClient(args.server, token) as client:
            try:
                if args.invite:
                    table = (await client.join_invite(args.invite))["table"]
                elif args.table:
                    table = args.table
                elif args.vs_computer:
                    table = (await client.vs_computer(args.family))["table"]
                else:
                    room = args.room or "guobiao-2p/novice"
                    print(f"waiting for an opponent in {room} ...", flush=True)
                    table = (await client.quick_match(room, args.wait))["table"]
                print(f"playing at table {table} with {label}", flush=True)
                done = await client.play(table, bot, hands=args.hands, timeout=600.0)
            except ClientError as err:
                print(f"erren bot: {err}")
                return 1
            print(f"{done} hand(s) played; balance {await client.balance()}")
        return 0
    finally:
        bot.close()


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_main(args))
    except KeyboardInterrupt:
        return 130
