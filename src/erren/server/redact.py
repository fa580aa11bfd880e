"""No secret reaches a log: the filter that blanks tokens and passwords in every log line of the
server (uvicorn's, websockets' frames, erren's own), put on the loggers by
:func:`redact_token_logs` and named by the logging configuration (:mod:`erren.server.logs`)."""

from __future__ import annotations

import logging
import re

__all__ = ["RedactTokens", "redact_token_logs"]

_SECRETS = (
    # a URL's query: uvicorn prints a request's URL, and its query string at trace level
    re.compile(r"((?<![\w-])(?:token|access_token)=)[^&\s\"']*", re.IGNORECASE),
    # a JSON field (the value up to its closing quote; escapes included)
    re.compile(
        r"""((["'])(?:token|password|access_token)\2\s*:\s*(["']))(?:\\.|(?!\3).)*""",
        re.IGNORECASE,
    ),
    # an Authorization header
    re.compile(r"(bearer\s+)[\w.~+/=-]+", re.IGNORECASE),
)
_HINTS = ("token", "password", "bearer")


_FRAME_LOGS = ("< %s", "> %s")
"""The formats websockets logs every frame with at debug level (through uvicorn's logger)."""


class RedactTokens(logging.Filter):
    """Blank the secrets in a log line: a frame's content (websockets logs each frame at debug
    level: an auth message's token, a seat's hand) becomes its kind and size; ``token=...`` in
    a URL, a ``"token"`` or ``"password"`` field, a ``Bearer`` header are blanked."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in _FRAME_LOGS and isinstance(record.args, tuple) and record.args:
            frame = record.args[0]
            opcode, data = getattr(frame, "opcode", None), getattr(frame, "data", b"")
            kind = getattr(opcode, "name", "FRAME")
            record.msg = f"{record.msg[0]} {kind} [{len(data)} bytes, not logged]"
            record.args = None
            return True
        try:
            text = record.getMessage()
        except (TypeError, ValueError):  # a malformed record: leave it to the handler
            return True
        lowered = text.lower()
        if any(hint in lowered for hint in _HINTS):
            for pattern in _SECRETS:
                text = pattern.sub(r"\1[redacted]", text)
            record.msg = text
            record.args = None
        return True


_REDACT = RedactTokens()
_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "websockets", "erren")


def redact_token_logs() -> None:
    """Put :class:`RedactTokens` on uvicorn's loggers and their handlers (idempotent; call it
    again after uvicorn has configured its logging)."""
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if _REDACT not in logger.filters:
            logger.addFilter(_REDACT)
        for handler in logger.handlers:
            if _REDACT not in handler.filters:
                handler.addFilter(_REDACT)
