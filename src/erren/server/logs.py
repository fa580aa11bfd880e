"""The server's log lines: every one names its node, and the table and game where known.

``erren serve --log-format text`` (the default: a person reading a terminal) writes::

    2026-12-02 14:50:01,123 WARNING erren.server.table node=web-1 table=t3f09a1c2b4d5 game=17: ...

``--log-format json`` writes one JSON object a line (python-json-logger), for a log shipper::

    {"time": "2026-12-02T14:50:01.123000+00:00", "level": "WARNING",
     "logger": "erren.server.table", "message": "...", "node": "web-1",
     "table": "t3f09a1c2b4d5", "game": 17}

``table`` and ``game`` come from the line's ``extra`` or, by default, from the table whose actor
task (or a timer or thread it started) is logging: :data:`CURRENT_TABLE`, set by the actor.  The
lines go through :class:`~erren.server.redact.RedactTokens` (a token in a URL is blanked); no
line is built from a seat's concealed tiles or a session token.
"""

from __future__ import annotations

import logging
import os
import re
import socket
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

if TYPE_CHECKING:
    from erren.server.table import Table

__all__ = [
    "CURRENT_TABLE",
    "LOG_FORMATS",
    "JsonLines",
    "NodeFields",
    "TextLines",
    "default_node_id",
    "log_config",
]

LOG_FORMATS = ("text", "json")

CURRENT_TABLE: ContextVar[Table | None] = ContextVar("erren_table", default=None)
"""The table whose actor runs the current task (``None`` elsewhere)."""


def default_node_id() -> str:
    """``HOST-PID``: unique among the processes of a machine, and readable."""
    host = re.sub(r"[^A-Za-z0-9._-]", "-", socket.gethostname().split(".")[0]) or "node"
    return f"{host.lstrip('._-') or 'node'}-{os.getpid()}"[:63]


class NodeFields(logging.Filter):
    """Put ``node`` on every record, and ``table``/``game`` of :data:`CURRENT_TABLE` on a
    record that does not name them itself."""

    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def filter(self, record: logging.LogRecord) -> bool:
        fields = vars(record)
        fields["node"] = self.node
        table = CURRENT_TABLE.get()
        if table is not None:
            fields.setdefault("table", table.spec.id)
            if table.game_id is not None:
                fields.setdefault("game", table.game_id)
        return True


class TextLines(logging.Formatter):
    """``TIME LEVEL LOGGER node=N table=T game=G: MESSAGE`` (``table``/``game`` when known)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(where)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        fields = vars(record)
        where = f"node={fields.get('node', '-')}"
        for key in ("table", "game"):
            if fields.get(key) is not None:
                where += f" {key}={fields[key]}"
        fields["where"] = where
        return super().format(record)


class JsonLines(JsonFormatter):
    """One JSON object a line: ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message``,
    ``node``, ``table`` and ``game`` when known, ``exc_info`` for a traceback."""

    def __init__(self) -> None:
        super().__init__(
            ["levelname", "name", "message"],
            rename_fields={"levelname": "level", "name": "logger"},
            timestamp="time",
            reserved_attrs=[*RESERVED_ATTRS, "color_message", "where"],
        )


def log_config(node: str, fmt: str = "text", level: str = "warning") -> dict[str, Any]:
    """The :func:`logging.config.dictConfig` of ``erren serve`` (uvicorn's ``log_config``):
    one handler on stderr for every logger (uvicorn's propagate to it), lines in ``fmt``
    (:data:`LOG_FORMATS`), tokens redacted, at ``level``."""
    if fmt not in LOG_FORMATS:
        raise ValueError(f"unknown log format {fmt!r}: use text or json")
    formatter = JsonLines if fmt == "json" else TextLines
    name = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "node": {"()": NodeFields, "node": node},
            "redact": {"()": "erren.server.redact.RedactTokens"},
        },
        "formatters": {"lines": {"()": formatter}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "lines",
                "filters": ["redact", "node"],
            }
        },
        "loggers": {
            "uvicorn": {"handlers": [], "level": name, "propagate": True},
            "uvicorn.error": {"handlers": [], "level": name, "propagate": True},
            "uvicorn.access": {"handlers": [], "level": name, "propagate": True},
        },
        "root": {"handlers": ["stderr"], "level": name},
    }
