"""The terminal of ``erren play`` and ``erren arcade``: line-based questions and answers, and
the player's wish to stop."""

from __future__ import annotations

from typing import TextIO


class QuitRequested(Exception):  # noqa: N818 - a signal, not an error
    """The player asked to stop (``q``, Ctrl-C or the end of input)."""


class Console:
    """Line-based input and output; echoes answers that do not come from a terminal."""

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp = inp
        self.out = out
        self.echo = not (getattr(inp, "isatty", None) and inp.isatty())

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            raise QuitRequested
        answer = line.strip()
        if self.echo:
            self.out.write(answer + "\n")
        if answer.lower() in ("q", "quit", "exit"):
            raise QuitRequested
        return answer
