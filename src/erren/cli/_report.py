"""What the audit commands share: open the server's database, run a report, print it."""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar

__all__ = ["Report", "add_database_arguments", "run_report"]


class Report(Protocol):
    def lines(self) -> list[str]: ...

    def to_json(self) -> dict[str, Any]: ...


def add_database_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database",
        default=None,
        help="sqlite:///PATH or postgresql://USER@HOST/DB, as given to erren serve (default: "
        "the SQLite file in the user's data folder)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the report as one JSON object instead"
    )


R = TypeVar("R", bound=Report)


def run_report(
    name: str,
    args: argparse.Namespace,
    audit: Callable[[str], Coroutine[Any, Any, R]],
    clean: Callable[[R], bool],
) -> int:
    """Print ``audit``'s report of ``--database``: 0 when ``clean``, 1 otherwise, 2 when the
    database cannot be read (named, with the reason)."""
    from pathlib import Path  # noqa: PLC0415

    from sqlalchemy.engine import make_url  # noqa: PLC0415

    from erren.errors import ErrenError  # noqa: PLC0415
    from erren.server.store import database_url  # noqa: PLC0415

    try:
        url = database_url(args.database)
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite" and not Path(parsed.database or "").exists():
            print(f"erren {name}: no database at {parsed.database}")
            return 2
        report = asyncio.run(audit(url))
    except (ErrenError, OSError) as error:
        print(f"erren {name}: {error}")
        return 2
    except Exception as error:
        print(f"erren {name}: cannot read the database: {type(error).__name__}: {error}")
        return 2
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        print("\n".join(report.lines()))
    return 0 if clean(report) else 1
