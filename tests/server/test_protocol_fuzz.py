"""Every client message, however broken, is read or refused with a coded error that can be sent.

Random bytes, random text and random JSON shaped like each message kind (with lone surrogates
such as ``\\ud800``, huge and negative integers, nesting, unknown fields and types) go through
:func:`erren.server.protocol.parse_client`: it returns a message or raises a
:class:`ProtocolError` whose code is one of the documented ones (docs/protocol.md), and the
answer the socket would send is valid UTF-8 (a lone surrogate once made the socket's writer fail
and the connection go silent).  The same is tried against a real server in
``test_socket.py::test_random_messages_are_answered_and_the_socket_stays``.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from erren.server import protocol
from erren.server.protocol import ProtocolError, error_json, parse_client

KINDS = ["auth", "join", "act", "trustee", "ready", "leave", "resync", "ping", "advice", "review"]
KINDS += ["chat"]
FIELDS = ["token", "table", "game", "since", "action", "n", "on", "x", "phrase", "sticker"]
CODES = {"too-large", "bad-json", "too-deep", "bad-unicode", "bad-message", "out-of-range"}
CODES |= {"unknown-type", "bad-action", "not-your-seat", "unknown-chat"}
SURROGATES = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff"])
TEXT = st.text(alphabet=st.one_of(st.characters(codec="utf-8"), SURROGATES), max_size=12)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    TEXT,
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)),
    max_leaves=6,
)
SHAPED = st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(KINDS), TEXT)},
    optional={name: VALUES for name in FIELDS},
)
WIRE = st.one_of(
    st.binary(max_size=200),
    TEXT,
    SHAPED.map(json.dumps),  # surrogates travel as \\ud800 escapes, as on the wire
    VALUES.map(json.dumps),
    st.dictionaries(TEXT, VALUES, max_size=3).map(json.dumps),
)


def _sendable(message: dict[str, Any]) -> None:
    protocol.dumps(message).encode()  # what the socket's writer does with it


@settings(max_examples=600, deadline=None)
@given(WIRE)
def test_any_message_is_read_or_refused_with_a_documented_code(raw: str | bytes) -> None:
    try:
        parsed = parse_client(raw)
    except ProtocolError as err:
        assert err.code in CODES, (err.code, raw)
        assert err.message
        _sendable(error_json(err.code, err.message, err.params))
    else:
        assert type(parsed).__name__.lower() in KINDS
        for value in (getattr(parsed, f.name) for f in dataclasses.fields(parsed)):
            if isinstance(value, str):
                value.encode()  # nothing that is not text gets past the reader


def test_a_lone_surrogate_is_refused_and_named() -> None:
    for raw in (
        '{"type": "join", "table": "\\ud800"}',
        '{"type": "act", "action": "discard:\\udfff"}',
        '{"type": "ping", "\\ud800": 1}',
        '{"type": "\\udc00"}',
        '["\\ud800"]',
    ):
        try:
            parse_client(raw)
        except ProtocolError as err:
            assert err.code == "bad-unicode", raw
            assert (err.params or {}).get("codepoint") in ("U+D800", "U+DFFF", "U+DC00")
            assert "surrogate" in err.message
            _sendable(error_json(err.code, err.message, err.params))
        else:
            raise AssertionError(f"{raw} was read")


def test_a_surrogate_pair_is_text_and_is_read() -> None:
    parsed = parse_client('{"type": "join", "table": "\\ud83c\\udc04"}')  # 🀄
    assert isinstance(parsed, protocol.Join) and parsed.table == "\U0001f004"


def test_an_answer_that_holds_a_lone_surrogate_is_still_sendable() -> None:
    """Whatever reaches the writer encodes: a lone surrogate is escaped, not a failure."""
    text = protocol.dumps({"type": "error", "code": "x", "message": "a \ud800 b"})
    text.encode()
    assert json.loads(text)["message"] == "a \ud800 b"
