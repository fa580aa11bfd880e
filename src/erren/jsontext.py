"""JSON text from outside erren (a file, a line of a batch, a bot program's answer, a client's
message) read with every way it can fail named: not JSON, nested too deeply for the parser (a
``RecursionError`` otherwise), or JSON the parser refuses (an integer of more than 4,300
digits, bytes that are not UTF-8, a constant a hook refuses)."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

__all__ = ["JSONProblem", "JSONTextError", "read_json"]


class JSONProblem(StrEnum):
    """Why JSON text could not be read (the value is the short reason, for messages)."""

    NOT_JSON = "not JSON"
    TOO_DEEP = "nested too deeply"
    UNUSABLE = "not usable JSON"


class JSONTextError(ValueError):
    """JSON text erren cannot read: ``problem`` says why, ``detail`` in the parser's words
    (may be empty)."""

    def __init__(self, problem: JSONProblem, detail: str = "") -> None:
        super().__init__(f"{problem}: {detail}" if detail else str(problem))
        self.problem = problem
        self.what = str(problem)
        self.detail = detail


def read_json(text: str | bytes, **hooks: Any) -> Any:
    """``text`` parsed as JSON (``hooks``: :func:`json.loads`'s ``parse_*`` arguments), or
    :class:`JSONTextError`."""
    try:
        return json.loads(text, **hooks)
    except json.JSONDecodeError as error:
        raise JSONTextError(JSONProblem.NOT_JSON, str(error)) from None
    except RecursionError:
        detail = "arrays or objects over about 1,000 levels"
        raise JSONTextError(JSONProblem.TOO_DEEP, detail) from None
    except ValueError as error:  # more than 4,300 digits, not UTF-8, a refused constant
        raise JSONTextError(JSONProblem.UNUSABLE, str(error)) from None
