"""``erren audit-collusion``: list suspicious bean and escape flows in a server's database."""

from __future__ import annotations

import argparse

from erren.cli._report import add_database_arguments, run_report

NAME = "audit-collusion"
HELP = (
    "List suspicious flows in a server's games: repeated early escapes between two accounts, "
    "one account fed early escapes or beans by several new accounts (erren.server.collusion)."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_database_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """0: nothing suspicious; 1: flows listed; 2: the database cannot be read."""
    from erren.server.collusion import audit_collusion  # noqa: PLC0415

    return run_report("audit-collusion", args, audit_collusion, lambda report: not report.flags)
