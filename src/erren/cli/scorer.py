"""What a family gives ``erren score`` (:meth:`~erren.engine.family.Family.terminal_scorer`):
its options and the run that scores a hand with them.  :mod:`erren.cli.score` lays the
families' options out and hands ``--rules NAME`` to that family's run; it names no family."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

__all__ = ["TerminalScorer"]


@dataclass(frozen=True, slots=True)
class TerminalScorer:
    """A family's ``erren score --rules NAME``.

    ``add_arguments`` adds the family's own options to the ``erren score`` parser (a family
    after the first puts them in a group of its own); ``run`` scores ``args.hand`` (or the
    JSON lines of stdin with ``args.jsonl``), reading another family's option only through
    ``getattr`` with a default.  ``shared`` names the options shared among families that it
    reads (:data:`erren.cli.score.SHARED`), each with what the option means for it (empty:
    the shared wording).  With ``refuse_others`` the shared command refuses any other
    family's option set away from its default ("not a NAME option"); without it the run
    checks them itself.  ``jsonl_help`` documents ``--jsonl`` when the family is the
    default one."""

    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    shared: Mapping[str, str] = field(default_factory=dict)
    refuse_others: bool = False
    jsonl_help: str = ""
