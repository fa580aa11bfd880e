"""``erren score``: the score of a winning hand in any family (``--rules NAME``), each family's
options and run given by its :class:`~erren.cli.scorer.TerminalScorer`; ``--jsonl`` scores a
batch, one JSON object per line.

The options are laid out in the families' listing order: the first (the default ``--rules``)
adds its options first, then come ``--jsonl`` and the options several families share
(:data:`SHARED`, worded for each family that reads them), then each other family's group.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any

from erren.cli.scorer import TerminalScorer
from erren.engine.registry import families

NAME = "score"
HELP = "Score a winning hand: its fans, the total, and the points (and beans) it is paid."

SHARED: dict[str, tuple[dict[str, Any], str]] = {
    "dealer": ({"action": "store_true"}, "the winner is the dealer (庄家)"),
    "stake": ({"type": int, "default": 1, "metavar": "N"}, ""),
}
"""The options several families share: how to add each, and its wording (empty: each family
that reads it says what it means there)."""
_COMMON = ("help", "hand", "rules", "jsonl")
_JSONL = "read one JSON object per line on stdin and write one per line on stdout"


@dataclass(frozen=True, slots=True)
class _Layout:
    """The scorers by family name (listing order) and the options each family added."""

    scorers: dict[str, TerminalScorer]
    owned: dict[str, list[str]]
    shared: list[str]


def _and(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return " and ".join(filter(None, (", ".join(names[:-1]), *names[-1:])))


def _scorers() -> dict[str, TerminalScorer]:
    out = {}
    for family in families():
        scorer = family.terminal_scorer()
        if scorer is not None:
            out[family.name] = scorer
    return out


def _dests(parser: argparse.ArgumentParser) -> list[str]:
    return [action.dest for action in parser._actions]


def _add_own(parser: argparse.ArgumentParser, scorer: TerminalScorer) -> list[str]:
    before = len(parser._actions)
    scorer.add_arguments(parser)
    return _dests(parser)[before:]


def _add_shared(parser: argparse.ArgumentParser, scorers: dict[str, TerminalScorer]) -> list[str]:
    users = {name: s.shared for name, s in scorers.items() if s.shared}
    if not users:
        return []
    group = parser.add_argument_group(_and(list(users)))
    added = []
    for option, (kwargs, wording) in SHARED.items():
        meanings = [(name, said[option]) for name, said in users.items() if option in said]
        if not meanings:
            continue
        default = f" (default {kwargs['default']})" if "default" in kwargs else ""
        worded = wording or "; ".join(f"{name}: {meant}" for name, meant in meanings) + default
        group.add_argument("--" + option.replace("_", "-"), help=worded, **kwargs)
        added.append(option)
    return added


def _lay_out(parser: argparse.ArgumentParser) -> _Layout:
    scorers = _scorers()
    names = list(scorers)
    parser.add_argument(
        "hand",
        nargs="?",
        help="a winning hand in the shared notation, the winning tile last and not repeated in "
        'the concealed part, e.g. "123m456m789m1z [555z\'] +1z"',
    )
    others = _and(names[1:])
    parser.add_argument(
        "--rules",
        choices=names,
        default=names[0],
        help=f"rule family (default {names[0]})"
        + (f"; {others} take the options of their groups below" if others else ""),
    )
    owned = {names[0]: _add_own(parser, scorers[names[0]])}
    parser.add_argument("--jsonl", action="store_true", help=scorers[names[0]].jsonl_help or _JSONL)
    shared = _add_shared(parser, scorers)
    for name in names[1:]:
        owned[name] = _add_own(parser, scorers[name])
    return _Layout(scorers, owned, shared)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    _lay_out(parser)


def _others_used(args: argparse.Namespace, family: str) -> list[str]:
    """The options ``family`` does not read that ``args`` sets away from their default:
    the other families' own, then the shared ones it does not read."""
    parser = argparse.ArgumentParser()
    layout = _lay_out(parser)
    defaults = vars(parser.parse_args([]))
    mine = set(layout.owned[family]) | set(layout.scorers[family].shared)
    foreign = [d for name, ds in layout.owned.items() if name != family for d in ds]
    foreign += [d for d in layout.shared if d not in foreign]
    return [
        d
        for d in foreign
        if d not in mine and d not in _COMMON and getattr(args, d, None) != defaults.get(d)
    ]


def run(args: argparse.Namespace) -> int:
    scorer = _scorers()[args.rules]
    if scorer.refuse_others:
        used = _others_used(args, args.rules)
        if used:
            shown = ", ".join("--" + n.replace("_", "-") for n in used)
            print(f"erren score: {shown}: not a {args.rules} option (see --rules)", file=sys.stderr)
            return 2
    return scorer.run(args)
