"""JSON text from outside erren (a file, a line of a batch, a bot program's answer) read with
every way it can fail named: not JSON, nested too deeply for the parser (a ``RecursionError``
otherwise), or JSON the parser refuses (an integer of more than 4,300 digits)."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["JSONTextError", "read_json"]


class JSONTextError(ValueError):
    """JSON text erren cannot read: ``what`` is the short reason (``not JSON``, ``nested too
    deeply``, ``not usable JSON``), ``detail`` the parser's words (may be empty)."""

    def __init__(self, what: str, detail: str = "") -> None:
        super().__init__(f"{what}: {detail}" if detail else what)
        self.what = what
        self.detail = detail


def read_json(text: str | bytes) -> Any:
    """``text`` parsed as JSON, or :class:`JSONTextError`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise JSONTextError("not JSON", str(error)) from None
    except RecursionError:
        raise JSONTextError(
            "nested too deeply", "arrays or objects over about 1,000 levels"
        ) from None
    except ValueError as error:  # an integer of more than 4,300 digits; bytes not UTF-8
        raise JSONTextError("not usable JSON", str(error)) from None
