"""What an ``erren`` subcommand provides (:class:`Command`): the shared ones are the modules of
this package (:data:`erren.cli.main.COMMANDS`), a family adds its own through its
``cli_commands`` hook (:meth:`erren.engine.family.Family.cli_commands`)."""

from __future__ import annotations

import argparse
from typing import Protocol

__all__ = ["Command"]


class Command(Protocol):
    """A subcommand: its name and one-line help, its options, and what it does (an exit
    status).  A module with these four names is one."""

    NAME: str
    HELP: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...
