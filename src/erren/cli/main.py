"""The ``erren`` command: one subcommand per module in this package."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Protocol

from erren import __version__
from erren.cli import (
    analyze,
    arcade,
    arena,
    audit_collusion,
    audit_ledger,
    bot,
    conformance,
    export,
    imports,
    play,
    replay,
    score,
    serve,
    simulate,
    verify,
)

COMMANDS: tuple[Command, ...] = (
    analyze,
    score,
    play,
    arcade,
    simulate,
    arena,
    replay,
    serve,
    bot,
    verify,
    audit_ledger,
    audit_collusion,
    conformance,
    export,
    imports,
)
"""Each module offers ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``."""


class Command(Protocol):
    """What a subcommand module provides."""

    NAME: str
    HELP: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="erren",
        description="erren — two-player mahjong (二人麻将): analyse, score and play hands.",
    )
    parser.add_argument("--version", action="version", version=f"erren {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_arguments(
            sub.add_parser(command.NAME, help=command.HELP, description=command.HELP)
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    for command in COMMANDS:
        if args.command == command.NAME:
            return command.run(args)
    raise AssertionError(f"unhandled command {args.command}")  # pragma: no cover


if __name__ == "__main__":
    sys.exit(main())
