"""The ``--jsonl`` batch mode the ``score`` and ``analyze`` commands share: one JSON request a
line in, one JSON answer a line out, ``{"error": ...}`` for a malformed line (the run goes on).

A command writes ``answer(line) -> dict``, reads its request with :func:`read_request` and its
fields with :func:`read_flags` / :func:`is_whole`, raises :class:`BadRequest` for a field it
refuses, and wraps the function in :func:`answering`; :func:`run_jsonl` does the loop.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from erren.jsontext import MAX_LINE_CHARS, JSONTextError, read_json

__all__ = ["BadRequest", "answering", "is_whole", "read_flags", "read_request", "run_jsonl"]

Answer = dict[str, Any]


class BadRequest(Exception):  # noqa: N818 - an answer, not an error of the program
    """A request line the command refuses; its message is the ``"error"`` of the answer."""


def answering(answer: Callable[[str], Answer]) -> Callable[[str], Answer]:
    """``answer`` with a :class:`BadRequest` turned into ``{"error": message}``."""

    @functools.wraps(answer)
    def wrapped(line: str) -> Answer:
        try:
            return answer(line)
        except BadRequest as error:
            return {"error": str(error)}

    return wrapped


def read_request(line: str, *, example: str, fields: frozenset[str] | None = None) -> Answer:
    """The JSON object on ``line`` (``example`` shows one in the error); with ``fields``, no
    other field may be present."""
    try:
        request = read_json(line, max_chars=MAX_LINE_CHARS)
    except JSONTextError as error:
        raise BadRequest(f"line is {error}") from None
    if not isinstance(request, dict):
        raise BadRequest(f"expected a JSON object like {example}")
    if fields is not None:
        unknown = sorted(set(request) - fields)
        if unknown:
            raise BadRequest(f"unknown field(s) {', '.join(map(repr, unknown))}")
    return request


def is_whole(value: object) -> bool:
    """Whether ``value`` is a JSON whole number (``true``/``false`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def read_flags(request: Answer, names: Iterable[str]) -> dict[str, bool]:
    """The boolean fields ``names`` of ``request`` (absent: ``False``)."""
    flags: dict[str, bool] = {}
    for name in names:
        value = request.get(name, False)
        if not isinstance(value, bool):
            raise BadRequest(f'"{name}" must be true or false, not {value!r}')
        flags[name] = value
    return flags


def run_jsonl(source: TextIO, sink: TextIO, answer: Callable[[str], Answer]) -> int:
    """Answer every non-blank line of ``source`` on ``sink``, flushed line by line.  Always
    returns 0."""
    for line in source:
        if line.strip():
            sink.write(json.dumps(answer(line), ensure_ascii=False) + "\n")
            sink.flush()
    return 0
