"""The arcade family's own ``erren`` subcommands (its ``cli_commands`` hook, read by
:mod:`erren.cli.main`): ``erren arcade``, stage mode in the terminal
(:mod:`~erren.families.arcade.campaign.command`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.families.arcade.campaign import command as arcade

if TYPE_CHECKING:
    from erren.cli.command import Command

__all__ = ["COMMANDS"]

COMMANDS: tuple[Command, ...] = (arcade,)
"""``erren arcade``."""
