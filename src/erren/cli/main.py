"""The ``erren`` command: one subcommand per module in this package, and the subcommands the
families add (their ``cli_commands`` hook: arcade's ``erren arcade``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from erren import __version__
from erren.cli import (
    analyze,
    arena,
    audit_collusion,
    audit_ledger,
    bot,
    conformance,
    export,
    imports,
    play,
    replay,
    review,
    score,
    serve,
    simulate,
    verify,
)
from erren.cli.command import Command
from erren.engine.registry import families

COMMANDS: tuple[Command, ...] = (
    analyze,
    score,
    play,
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
    review,
)
"""Each module offers ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``
(a :class:`~erren.cli.command.Command`)."""

__all__ = ["COMMANDS", "Command", "build_parser", "commands", "main"]


def commands() -> tuple[Command, ...]:
    """The shared subcommands, then each registered family's own (in the families' listing
    order); a family's command may not take a name already taken."""
    found = list(COMMANDS)
    for family in families():
        for command in family.cli_commands():
            if any(c.NAME == command.NAME for c in found):
                raise ValueError(f"family {family.name} adds a second command {command.NAME!r}")
            found.append(command)
    return tuple(found)


def build_parser(found: Sequence[Command] | None = None) -> argparse.ArgumentParser:
    """The ``erren`` parser, one subparser per command (``found``: default :func:`commands`)."""
    parser = argparse.ArgumentParser(
        prog="erren",
        description="erren — two-player mahjong (二人麻将): analyse, score and play hands.",
    )
    parser.add_argument("--version", action="version", version=f"erren {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in commands() if found is None else found:
        command.add_arguments(
            sub.add_parser(command.NAME, help=command.HELP, description=command.HELP)
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    found = commands()
    parser = build_parser(found)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    for command in found:
        if args.command == command.NAME:
            return command.run(args)
    raise AssertionError(f"unhandled command {args.command}")  # pragma: no cover


if __name__ == "__main__":
    sys.exit(main())
