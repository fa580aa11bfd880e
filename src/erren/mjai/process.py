"""An external program spoken to in JSON lines: one line to its stdin per message, one line
from its stdout per answer, each answer awaited at most a number of seconds.

The program runs without a shell (its command is split as a POSIX shell would,
:func:`shlex.split`), in its own process group, its stderr passed through.  A reader thread
puts its stdout lines on a queue, so an answer is awaited with a timeout and a silent program
never blocks the caller; a writer thread feeds its stdin, so a program that stops reading
(its pipe full) never blocks the caller either.  The program owes one answer per question: an
answer that comes after its question's timeout is dropped when the next question is asked, so
answers never slip onto the wrong question.

>>> echo = BotProgram("cat")
>>> echo.ask(['{"type": "hello"}'], timeout=10.0)
'{"type": "hello"}'
>>> echo.close()
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO

__all__ = ["BotProgram", "ProgramError", "ProgramGoneError", "ProgramLateError", "split_command"]

_EOF = None
_CLOSE_GRACE_S = 1.0
"""Seconds a program has to exit on its own once its stdin is closed, before it is killed."""
MAX_LINE_CHARS = 64 * 1024
"""The longest answer line kept (an mjai answer is one small object): a longer line is read
on in pieces of this size and dropped, so a program that writes without end cannot grow the
process's memory."""
_TOO_LONG = f"\x00line longer than {MAX_LINE_CHARS} characters"
"""What the reader queues for a dropped line (no answer starts with a NUL)."""


class ProgramError(Exception):
    """The program did not give an answer; the message says why."""


class ProgramLateError(ProgramError):
    """No answer within the timeout."""


class ProgramGoneError(ProgramError):
    """The program exited (or could not be started, or closed its stdout)."""


def split_command(command: str) -> list[str]:
    """``command`` split into its program and arguments; :class:`ValueError` naming the
    problem when it is empty, badly quoted or its program is not found."""
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise ValueError(f"bad mjai bot command {command!r}: {error}") from None
    if not argv:
        raise ValueError("an mjai bot needs a command, e.g. mjai:node examples/mjai-bot/bot.js")
    if shutil.which(argv[0]) is None:
        raise ValueError(f"mjai bot command not found: {argv[0]!r} (in {command!r})")
    return argv


class BotProgram:
    """The running program of ``command``, started on the first :meth:`send` or :meth:`ask`."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.argv = split_command(command)
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._owed = 0
        """Answers the program still owes to questions that timed out."""
        self._eof = False
        self._outbox: queue.Queue[str | None] = queue.Queue()
        """Text for the program's stdin; ``None`` closes it."""
        self._broken = False
        """The writer could not write (the program closed its stdin or exited)."""
        self._writer: threading.Thread | None = None
        self._reader: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None and not self._eof

    def _start(self) -> subprocess.Popen[str]:
        if self._proc is not None:
            return self._proc
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=True,
            )
        except OSError as error:
            self._eof = True
            raise ProgramGoneError(f"could not start {self.command!r}: {error}") from None
        self._proc = proc
        assert proc.stdout is not None and proc.stdin is not None
        self._reader = threading.Thread(target=self._read, args=(proc.stdout,), daemon=True)
        self._reader.start()
        self._writer = threading.Thread(target=self._write, args=(proc.stdin,), daemon=True)
        self._writer.start()
        return proc

    def _write(self, stream: IO[str]) -> None:
        while True:
            text = self._outbox.get()
            try:
                if text is None:
                    stream.close()
                    return
                stream.write(text)
                stream.flush()
            except (OSError, ValueError):
                self._broken = True
                with contextlib.suppress(OSError, ValueError):
                    stream.close()
                return

    def _read(self, stream: IO[str]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while line := stream.readline(MAX_LINE_CHARS + 1):
                if len(line) <= MAX_LINE_CHARS or line.endswith("\n"):
                    self._lines.put(line.rstrip("\r\n"))
                    continue
                while (rest := stream.readline(MAX_LINE_CHARS)) and not rest.endswith("\n"):
                    pass  # the rest of an overlong line, dropped as it comes
                self._lines.put(_TOO_LONG)
        self._lines.put(_EOF)

    def send(self, lines: Sequence[str]) -> None:
        """Write ``lines`` (no newlines inside), one a line; :class:`ProgramGoneError` if the
        program has exited."""
        if self._eof or self._broken:
            raise ProgramGoneError(self._exit_text())
        proc = self._start()
        if proc.poll() is not None:
            raise ProgramGoneError(self._exit_text())
        self._outbox.put("".join(line + "\n" for line in lines))

    def ask(self, lines: Sequence[str], timeout: float) -> str:
        """Send ``lines`` and return the program's answer to them, waiting at most
        ``timeout`` seconds; :class:`ProgramLateError` or :class:`ProgramGoneError` when there
        is none."""
        self.send(lines)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(0.0, left))
            except queue.Empty:
                self._owed += 1
                raise ProgramLateError(f"no answer within {timeout:g} s") from None
            if line is _EOF:
                self._eof = True
                raise ProgramGoneError(self._exit_text())
            if self._owed:  # a late answer to an earlier question
                self._owed -= 1
                continue
            if line == _TOO_LONG:
                raise ProgramError(f"answer longer than {MAX_LINE_CHARS} characters")
            return line

    def _exit_text(self) -> str:
        proc = self._proc
        if proc is None:
            return "the program is not running"
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(0.2)
        code = proc.poll()
        if code is None:
            return "the program closed its output"
        if code < 0:
            return f"the program was killed by signal {-code}"
        return f"the program exited with status {code}"

    def close(self, lines: Sequence[str] = ()) -> None:
        """Send ``lines`` (a goodbye), close the program's stdin, give it a moment to exit,
        then kill its process group."""
        proc = self._proc
        if proc is None or self._writer is None:
            return
        if lines and not self._broken:
            self._outbox.put("".join(line + "\n" for line in lines))
        self._outbox.put(None)
        try:
            proc.wait(_CLOSE_GRACE_S)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)  # its own group (start_new_session)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(5)
        self._writer.join(5)
        if self._reader is not None:
            self._reader.join(5)  # the output ends with the program (or its group)
            if not self._reader.is_alive() and proc.stdout is not None:
                proc.stdout.close()
        self._eof = True
