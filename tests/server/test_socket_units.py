"""The socket edge's pieces without a server: client message parsing, the log filter that
blanks tokens, the registry of open sockets."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from erren.server.protocol import Act, Auth, Join, ProtocolError, parse_client
from erren.server.redact import RedactTokens
from erren.server.socket import CLOSE_AUTH, Sockets
from erren.server.table import Conn


def test_parse_the_auth_message_and_keep_the_token_out_of_its_repr() -> None:
    message = parse_client(json.dumps({"type": "auth", "token": "s3cret-token"}))
    assert message == Auth("s3cret-token")
    assert "s3cret" not in repr(message)


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("[" * 2000 + "]" * 2000, "too-deep", "nested"),
        ('{"type": "join", "table": "t", "since": NaN}', "bad-json", "NaN"),
        ('{"type": "join", "table": "t", "game": Infinity}', "bad-json", "Infinity"),
        (json.dumps({"type": "join", "table": "t", "game": 2**63}), "out-of-range", "join.game"),
        (json.dumps({"type": "act", "action": "pass", "n": -2}), "out-of-range", "act.n"),
        (json.dumps({"type": "join", "table": "t", "since": 2.0}), "bad-message", "an integer"),
        (json.dumps({"type": "act", "action": "pass", "n": False}), "bad-message", "act.n"),
        (json.dumps({"type": "ping", "why": 1}), "bad-message", "no field 'why'"),
        (json.dumps({"type": "auth", "token": 7}), "bad-message", "auth.token must be a string"),
    ],
)
def test_refused_messages_name_the_problem(text: str, code: str, words: str) -> None:
    with pytest.raises(ProtocolError) as err:
        parse_client(text)
    assert err.value.code == code
    assert words in err.value.message


def test_the_widest_numbers_still_pass() -> None:
    top = 2**63 - 1
    assert parse_client(json.dumps({"type": "join", "table": "t", "game": top, "since": -1})) == (
        Join("t", top, -1)
    )
    assert parse_client(json.dumps({"type": "act", "action": "pass", "n": top})) == Act("pass", top)


def test_the_log_filter_blanks_tokens_in_urls() -> None:
    record = logging.LogRecord(
        "uvicorn.error",
        logging.INFO,
        __file__,
        1,
        '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5", "/ws?x=1&token=abc-DEF_123&y=2"),
        None,
    )
    assert RedactTokens().filter(record)
    assert (
        record.getMessage() == '127.0.0.1:5 - "WebSocket /ws?x=1&token=[redacted]&y=2" [accepted]'
    )


def test_the_registry_bounds_an_account_and_logs_a_session_out() -> None:
    async def main() -> None:
        sockets = Sockets(per_account=3)
        mine = [Conn(1, "a") for _ in range(3)]
        assert all(sockets.add(c, "tok-a" if i < 2 else "tok-b") for i, c in enumerate(mine))
        assert not sockets.add(Conn(1, "a"), "tok-a")  # the fourth of account 1
        other = Conn(2, "b")
        assert sockets.add(other, "tok-c")
        assert sockets.log_out("tok-a") == 2
        for conn in mine[:2]:
            assert conn.closed and conn.close_code == CLOSE_AUTH
            text = conn.queue.get_nowait()
            assert text is not None and json.loads(text)["code"] == "logged-out"
        assert not mine[2].closed and not other.closed
        assert sockets.count(1) == 1 and len(sockets) == 2
        assert sockets.revoked("tok-a") and not sockets.revoked("tok-b")
        sockets.remove(mine[2])
        sockets.remove(mine[2])  # twice is harmless
        assert sockets.count(1) == 0

    asyncio.run(main())
