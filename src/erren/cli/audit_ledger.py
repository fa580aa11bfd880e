"""``erren audit-ledger``: check that every bean in a server's database is right."""

from __future__ import annotations

import argparse

from erren.cli._report import add_database_arguments, run_report

NAME = "audit-ledger"
HELP = (
    "Check a server's bean ledger: users' beans equal the beans granted, every journal "
    "balances, and every finished game's transfer matches its replayed record."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_database_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """0: every check passed; 1: problems found (listed); 2: the database cannot be read."""
    from erren.server.audit import audit_database  # noqa: PLC0415

    return run_report("audit-ledger", args, audit_database, lambda report: report.ok)
