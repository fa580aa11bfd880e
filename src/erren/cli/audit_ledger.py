"""``erren audit-ledger``: check that every bean in a server's database is right."""

from __future__ import annotations

import argparse
import asyncio
import json

NAME = "audit-ledger"
HELP = (
    "Check a server's bean ledger: users' beans equal the beans granted, every journal "
    "balances, and every finished game's transfer matches its replayed record."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database",
        default=None,
        help="sqlite:///PATH or postgresql://USER@HOST/DB, as given to erren serve (default: "
        "the SQLite file in the user's data folder)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the report as one JSON object instead"
    )


def run(args: argparse.Namespace) -> int:
    """0: every check passed; 1: problems found (listed); 2: the database cannot be read."""
    from pathlib import Path  # noqa: PLC0415

    from sqlalchemy.engine import make_url  # noqa: PLC0415

    from erren.errors import ErrenError  # noqa: PLC0415
    from erren.server.audit import audit_database  # noqa: PLC0415
    from erren.server.store import database_url  # noqa: PLC0415

    try:
        url = database_url(args.database)
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite" and not Path(parsed.database or "").exists():
            print(f"erren audit-ledger: no database at {parsed.database}")
            return 2
        report = asyncio.run(audit_database(url))
    except (ErrenError, OSError) as error:
        print(f"erren audit-ledger: {error}")
        return 2
    except Exception as error:
        print(f"erren audit-ledger: cannot read the database: {type(error).__name__}: {error}")
        return 2
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        print("\n".join(report.lines()))
    return 0 if report.ok else 1
