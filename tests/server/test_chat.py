"""Quick chat (快捷语) and stickers at a table (issue 29, point 2; docs/protocol.md).

The protocol takes only ids of two closed lists and refuses any other with ``unknown-chat``; a
chat message carries the sender's seat and one id, nothing else (the leak property); one seat
speaks at most once per 3 s on the table's clock (2.99 s after: refused with the milliseconds
left; 3.0 s after: heard); chat touches no timer and no 托管, and a hand played with chat has
the same record, action for action, as the same hand played without; a connection that is not
seated at the table is dropped without an answer.  The table here is the real actor on a real
SQLite store, with a :class:`ManualClock` where time matters.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from erren.server.chat import CHAT_INTERVAL_S, Phrase, Sticker
from erren.server.clock import Clock
from erren.server.cluster.remote import client_text
from erren.server.dispatch import dispatch
from erren.server.protocol import Chat, ProtocolError, parse_client
from erren.server.store import Passwords, Store, User
from erren.server.table import Chat as TChat
from erren.server.table import (
    Conn,
    Join,
    Resync,
    Seat,
    SetTrustee,
    Table,
    TableKind,
    TableSpec,
    make_bot_seat,
)
from erren.server.wire import chat_json
from erren.testing.tables import SLOW_CLOCK

from ._support.clocks import ManualClock

PHRASES = {p.value for p in Phrase}
STICKERS = {s.value for s in Sticker}
START = 1_000_000.0


# ---------------------------------------------------------------------------- the protocol
@pytest.mark.parametrize("phrase", sorted(PHRASES))
def test_every_phrase_parses_and_relays_as_itself(phrase: str) -> None:
    msg = parse_client(json.dumps({"type": "chat", "phrase": phrase}))
    assert msg == Chat(phrase=Phrase(phrase))
    assert parse_client(client_text(msg)) == msg  # as a cluster node relays it


@pytest.mark.parametrize("sticker", sorted(STICKERS))
def test_every_sticker_parses_and_relays_as_itself(sticker: str) -> None:
    msg = parse_client(json.dumps({"type": "chat", "sticker": sticker}))
    assert msg == Chat(sticker=Sticker(sticker))
    assert parse_client(client_text(msg)) == msg


def test_the_lists_are_about_ten_phrases_and_a_dozen_stickers() -> None:
    assert len(PHRASES) == 12
    assert len(STICKERS) == 12


@pytest.mark.parametrize(
    ("body", "code", "params"),
    [
        ({"phrase": "free text"}, "unknown-chat", {"field": "phrase"}),
        ({"phrase": "5m"}, "unknown-chat", {"field": "phrase"}),  # a tile is not an id
        ({"phrase": "HURRY"}, "unknown-chat", {"field": "phrase"}),
        ({"sticker": "smile "}, "unknown-chat", {"field": "sticker"}),
        ({"sticker": "hurry"}, "unknown-chat", {"field": "sticker"}),  # a phrase's id
        ({}, "bad-message", {"field": "phrase"}),
        ({"phrase": None, "sticker": None}, "bad-message", {"field": "phrase"}),
        ({"phrase": "hurry", "sticker": "tea"}, "bad-message", {"field": "phrase"}),
        ({"phrase": 3}, "bad-message", {"field": "phrase"}),
        ({"text": "hi"}, "bad-message", {}),
        ({"phrase": "hurry", "tile": "5m"}, "bad-message", {}),
    ],
)
def test_anything_but_one_known_id_is_refused_by_code(
    body: dict[str, Any], code: str, params: dict[str, Any]
) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client(json.dumps({"type": "chat", **body}))
    assert refused.value.code == code
    assert (refused.value.params or {}) == params
    if code == "unknown-chat":
        assert "known:" in refused.value.message


def test_a_chat_message_holds_only_the_seat_and_one_closed_id() -> None:
    """The leak property: whatever is said, the message's fields are the type, the seat and
    one id of its list, so no tile, number or text can travel in chat."""
    for seat in (0, 1):
        for said in [*Phrase, *Sticker]:
            msg = chat_json(seat, said)
            field = "phrase" if said in Phrase else "sticker"
            assert msg == {"type": "chat", "seat": seat, field: said.value}
            assert msg[field] in (PHRASES if field == "phrase" else STICKERS)


# ---------------------------------------------------------------------------- the table
def _with_store(tmp: Path, name: str, body: Callable[[Store], Awaitable[None]]) -> None:
    """Run ``body`` with a fresh SQLite store (as the lobby's tables have)."""

    async def main() -> None:
        opened = await Store.open(f"sqlite:///{tmp / name}", passwords=Passwords.fast())
        try:
            await asyncio.wait_for(body(opened), 90)
        finally:
            await opened.close()

    asyncio.run(main())


def _table(store: Store, guest: User, clock: Clock) -> Table:
    spec = TableSpec("t-talk", TableKind.COMPUTER, "guobiao-2p", {}, bot="random")
    seats = [Seat(guest.id, guest.name), make_bot_seat("bot", "random", 3)]
    return Table(spec, seats, store, clock=clock, config=SLOW_CLOCK, rng=random.Random(5))


async def _next(conn: Conn) -> dict[str, Any]:
    text = await asyncio.wait_for(conn.queue.get(), timeout=20)
    assert text is not None
    return dict(json.loads(text))


async def _drain(conn: Conn) -> list[dict[str, Any]]:
    """What the table sent ``conn`` before it handled a :class:`Resync` submitted now (its
    snapshot, left out): the actor takes its commands in order, so every command submitted
    before is done, however long its writes took."""
    table = conn.table
    assert table is not None
    table.submit(Resync(conn))
    out = []
    while (message := await _next(conn))["type"] != "snapshot":
        out.append(message)
    return out


def _chats(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] == "chat" or m.get("code") == "chat-too-fast"]


async def _seated(store: Store, clock: Clock) -> tuple[Table, Conn]:
    guest = (await store.accounts.guest()).user
    table = _table(store, guest, clock)
    table.start()
    conn = Conn(guest.id, guest.name)
    conn.table, conn.seat = table, 0
    table.submit(Join(conn, 0, None, None))
    while (await _next(conn))["type"] != "snapshot":  # the join's own snapshot
        pass
    await _drain(conn)
    return table, conn


def test_one_message_per_three_seconds_on_the_tables_clock(tmp_path: Path) -> None:
    _with_store(tmp_path, "erren.sqlite3", _one_message_per_three_seconds_on_the_tables_clock)


async def _one_message_per_three_seconds_on_the_tables_clock(store: Store) -> None:
    clock = ManualClock(start=START)
    table, conn = await _seated(store, clock)
    try:
        table.submit(TChat(conn, Phrase.HURRY))
        assert _chats(await _drain(conn)) == [{"type": "chat", "seat": 0, "phrase": "hurry"}]
        clock.t = START + 2.99
        table.submit(TChat(conn, Sticker.TEA))
        (refused,) = _chats(await _drain(conn))
        assert refused["code"] == "chat-too-fast"
        assert refused["params"] == {"retry_ms": 10, "interval_s": CHAT_INTERVAL_S}
        clock.t = START + 3.0  # the refused message did not restart the wait
        table.submit(TChat(conn, Sticker.TEA))
        assert _chats(await _drain(conn)) == [{"type": "chat", "seat": 0, "sticker": "tea"}]
        clock.t = START + 5.0
        table.submit(TChat(conn, Phrase.THANKS))
        (refused,) = _chats(await _drain(conn))
        assert refused["params"]["retry_ms"] == 1000
    finally:
        await table.stop()


def test_chat_touches_no_timer_and_no_trustee(tmp_path: Path) -> None:
    _with_store(tmp_path, "erren.sqlite3", _chat_touches_no_timer_and_no_trustee)


async def _chat_touches_no_timer_and_no_trustee(store: Store) -> None:
    clock = ManualClock(start=START)
    table, conn = await _seated(store, clock)
    try:
        state = table.state
        assert state is not None and table.running

        def timers_and_game() -> tuple[object, ...]:
            return (
                clock.pending(),
                table.clocks.idle_stamp,
                table.clocks.decision,
                list(state.trustee),
                state.event_count,
                len(state.history),
            )

        before = timers_and_game()
        table.submit(TChat(conn, Phrase.HURRY))
        await _drain(conn)
        assert timers_and_game() == before
    finally:
        await table.stop()


def test_chat_from_no_seat_is_dropped_without_an_answer(tmp_path: Path) -> None:
    _with_store(tmp_path, "erren.sqlite3", _chat_from_no_seat_is_dropped_without_an_answer)


async def _chat_from_no_seat_is_dropped_without_an_answer(store: Store) -> None:
    clock = ManualClock(start=START)
    table, conn = await _seated(store, clock)
    try:
        stranger = Conn(999, "stranger")
        stranger.table, stranger.seat = table, 1  # claims the computer's seat
        table.submit(TChat(stranger, Phrase.HURRY))
        gone = Conn(conn.user_id, conn.name)  # the player's, never joined
        gone.table, gone.seat = table, 0
        table.submit(TChat(gone, Phrase.HURRY))
        assert _chats(await _drain(conn)) == []
        assert stranger.queue.empty() and gone.queue.empty()
        # no table at all: dispatch drops it too (not ``no-table``)
        loose = Conn(conn.user_id, conn.name)
        dispatch(Chat(phrase=Phrase.HURRY), loose, loose.user_id, {"t-talk": table})
        assert loose.queue.empty()
    finally:
        await table.stop()


# ---------------------------------------------------------------------------- the record
def _settlement(message: dict[str, Any]) -> dict[str, Any] | None:
    for event in message.get("events", []):
        if event["kind"] == "settlement":
            return dict(event)
    return None


async def _one_hand(store: Store, chat: bool) -> tuple[dict[str, Any], list[str], int]:
    """Play one hand in 托管 against the computer (seeded): its record, the stored actions and
    how many chat messages the guest heard."""
    guest = (await store.accounts.guest()).user
    table = _table(store, guest, Clock(1.0))
    table.start()
    conn = Conn(guest.id, guest.name)
    conn.table, conn.seat = table, 0
    said: Callable[[int], None] = lambda i: table.submit(  # noqa: E731
        TChat(conn, list(Phrase)[i % len(Phrase)])
    )
    if chat:
        said(0)
    table.submit(Join(conn, 0, None, None))
    if chat:
        said(1)
    table.submit(SetTrustee(conn, on=True))
    heard = 0
    try:
        while True:
            text = await asyncio.wait_for(conn.queue.get(), 60)
            assert text is not None
            message = json.loads(text)
            heard += message["type"] == "chat"
            if chat and message["type"] == "events":
                said(heard)  # mostly refused (3 s): each refusal is chat too
            settlement = _settlement(message)
            if settlement is not None:
                break
    finally:
        await table.stop()
    game_id = table.game_id
    assert game_id is not None
    stored = await store.games.get(int(game_id))
    assert stored is not None
    return settlement["record"], list(stored.actions), heard


def test_a_hand_with_chat_has_the_same_record_as_without(tmp_path: Path) -> None:
    records: list[tuple[dict[str, Any], list[str], int]] = []

    async def play(chat: bool, store: Store) -> None:
        records.append(await _one_hand(store, chat))

    for chat in (False, True):
        _with_store(tmp_path, f"erren-{chat}.sqlite3", lambda store: play(chat, store))  # noqa: B023
    (quiet, quiet_actions, none_heard), (chatty, chatty_actions, heard) = records
    assert none_heard == 0 and heard >= 1
    assert chatty_actions == quiet_actions
    assert not any("chat" in action for action in chatty_actions)
    assert "chat" not in json.dumps(chatty)
    # the same record, field for field, but the guests' names (two accounts)
    assert chatty["seats"][1:] == quiet["seats"][1:]
    assert {**chatty, "seats": None} == {**quiet, "seats": None}


# ---------------------------------------------------------------------------- the client's lists
WEB = Path(__file__).resolve().parents[2] / "src" / "erren" / "web" / "js"


def _js_list(name: str) -> list[str]:
    text = (WEB / "chat.js").read_text(encoding="utf-8")
    found = re.search(rf"export const {name} = \[([^\]]*)\]", text)
    assert found is not None, name
    return re.findall(r'"([a-z-]+)"', found.group(1))


def test_the_client_offers_exactly_the_servers_ids_worded_in_both_languages() -> None:
    assert _js_list("PHRASES") == [p.value for p in Phrase]
    assert _js_list("STICKERS") == [s.value for s in Sticker]
    i18n = (WEB / "i18n.js").read_text(encoding="utf-8")
    for key in [f"chat_{p.value}" for p in Phrase] + [f"stk_{s.value}" for s in Sticker]:
        row = re.search(rf'^\s*"?{re.escape(key)}"?: \["([^"]+)", "([^"]+)"\],$', i18n, re.M)
        assert row is not None, f"no zh/en row {key}"
    faces = (WEB / "chat.js").read_text(encoding="utf-8")
    for sticker in Sticker:
        assert re.search(rf"^\s*\"?{sticker.value}\"?: `", faces, re.M), sticker  # drawn
