"""JSON text from outside erren (a file, a line of a batch, a bot program's answer, a client's
message) read with every way it can fail named: not JSON, nested too deeply for the parser (a
``RecursionError`` otherwise), or JSON the parser refuses (an integer of more than 4,300
digits, bytes that are not UTF-8, a constant a hook refuses)."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

__all__ = ["MAX_LINE_CHARS", "JSONProblem", "JSONTextError", "read_json"]

MAX_LINE_CHARS = 1 << 20
"""The longest line of a file erren reads as JSON lines (``erren import``, ``export``,
``verify``, the ``--jsonl`` batches): 1 Mi characters, where a record or an mjai message is a
few KiB."""


class JSONProblem(StrEnum):
    """Why JSON text could not be read (the value is the short reason, for messages)."""

    NOT_JSON = "not JSON"
    TOO_DEEP = "nested too deeply"
    TOO_LONG = "too long"
    UNUSABLE = "not usable JSON"


class JSONTextError(ValueError):
    """JSON text erren cannot read: ``problem`` says why, ``detail`` in the parser's words
    (may be empty)."""

    def __init__(self, problem: JSONProblem, detail: str = "") -> None:
        super().__init__(f"{problem}: {detail}" if detail else str(problem))
        self.problem = problem
        self.what = str(problem)
        self.detail = detail


def read_json(text: str | bytes, *, max_chars: int | None = None, **hooks: Any) -> Any:
    """``text`` parsed as JSON (``hooks``: :func:`json.loads`'s ``parse_*`` arguments), or
    :class:`JSONTextError`; longer than ``max_chars`` (when given) is refused unread."""
    if max_chars is not None and len(text) > max_chars:
        detail = f"{len(text):,} characters, at most {max_chars:,}"
        raise JSONTextError(JSONProblem.TOO_LONG, detail)
    try:
        return json.loads(text, **hooks)
    except json.JSONDecodeError as error:
        raise JSONTextError(JSONProblem.NOT_JSON, str(error)) from None
    except RecursionError:
        detail = "arrays or objects over about 1,000 levels"
        raise JSONTextError(JSONProblem.TOO_DEEP, detail) from None
    except ValueError as error:  # more than 4,300 digits, not UTF-8, a refused constant
        raise JSONTextError(JSONProblem.UNUSABLE, str(error)) from None
