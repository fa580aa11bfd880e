"""A family adds its own ``erren`` subcommands through its ``cli_commands`` hook
(:meth:`erren.engine.family.Family.cli_commands`): ``erren arcade`` is the arcade family's, and
the toy family (:mod:`erren.testing.toy`), given one, has it in the parser with no edit to
:mod:`erren.cli.main`."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from erren.cli.command import Command
from erren.cli.main import COMMANDS, build_parser, commands, main
from erren.engine import find_family
from erren.testing import toy
from erren.testing.toy.game import ToyFamily


class Hello:
    """A toy subcommand: ``erren toy-hello [--who NAME]``."""

    NAME = "toy-hello"
    HELP = "Say hello from the toy family."

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--who", default="world")

    def run(self, args: argparse.Namespace) -> int:
        print(f"hello {args.who}")
        return 0


class Play(Hello):
    """A toy subcommand that would take a shared command's name."""

    NAME = "play"


COMMANDS_OF_THE_TOY: tuple[Command, ...] = (Hello(),)
CLASHING: tuple[Command, ...] = (Play(),)


@pytest.fixture
def toy_with(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """The toy family registered for the test; the test names its ``cli_commands``."""
    toy.register()
    try:
        yield monkeypatch
    finally:
        toy.unregister()


def _give_toy(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    parts = {**ToyFamily.parts, "cli_commands": f"{__name__}:{name}"}
    monkeypatch.setattr(ToyFamily, "parts", parts)


def test_erren_arcade_is_the_arcade_familys_command() -> None:
    assert [c.NAME for c in find_family("arcade").cli_commands()] == ["arcade"]
    assert "arcade" not in [c.NAME for c in COMMANDS]  # not a shared command
    assert [c.NAME for c in commands()].count("arcade") == 1
    assert "arcade" in build_parser().format_help()
    assert find_family("guobiao-2p").cli_commands() == ()


def test_a_family_adds_a_subcommand_with_no_edit_elsewhere(
    toy_with: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "toy-hello" not in build_parser().format_help()
    _give_toy(toy_with, "COMMANDS_OF_THE_TOY")
    assert "toy-hello" in build_parser().format_help()
    assert main(["toy-hello", "--who", "toy"]) == 0
    assert capsys.readouterr().out == "hello toy\n"


def test_a_family_command_may_not_take_a_taken_name(toy_with: pytest.MonkeyPatch) -> None:
    _give_toy(toy_with, "CLASHING")
    with pytest.raises(ValueError, match="second command 'play'"):
        build_parser()
