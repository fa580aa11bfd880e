"""``erren conformance FILE...``: check erren against conformance corpus files
(``conformance/README.md``): rows checked and passed per file, the first differences with the
row id; exit 1 on a mismatch, 2 on a malformed file."""

from __future__ import annotations

import argparse
import sys

from erren.conformance.check import FileReport, check_file
from erren.conformance.rows import CorpusError

NAME = "conformance"
HELP = "Check erren against conformance corpus files (conformance/*.jsonl)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="corpus files (JSON lines)")
    parser.add_argument(
        "--every",
        type=int,
        default=1,
        metavar="K",
        help="check every K-th row of each file, the first included (default 1: all)",
    )
    parser.add_argument(
        "--show",
        type=int,
        default=5,
        metavar="N",
        help="differences shown per file (default 5)",
    )


def _print(report: FileReport, show: int) -> None:
    status = "ok" if not report.mismatches else f"{len(report.mismatches)} mismatched"
    print(f"{report.path}: {report.checked} rows checked, {report.passed} passed ({status})")
    for mismatch in report.mismatches[:show]:
        print(f"  {mismatch}")
    if len(report.mismatches) > show:
        print(f"  … and {len(report.mismatches) - show} more")


def run(args: argparse.Namespace) -> int:
    if args.every < 1:
        print(f"erren conformance: --every must be at least 1, not {args.every}", file=sys.stderr)
        return 2
    failed = False
    for path in args.files:
        try:
            report = check_file(path, every=args.every)
        except CorpusError as error:
            print(f"erren conformance: {error}", file=sys.stderr)
            return 2
        _print(report, args.show)
        failed = failed or bool(report.mismatches)
    return 1 if failed else 0
