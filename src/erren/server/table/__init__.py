"""One table: an asyncio task that owns the game and processes typed commands in order.

lila's round actor, for mahjong: the WebSocket handlers, the timers and the bots never touch the
:class:`~erren.engine.State`; they put commands (:class:`Join`, :class:`Act`, :class:`Timeout`,
...) on the table's queue and the table's task applies them one at a time.  For every action:

1. the engine validates and applies it (an illegal one is answered with an error, nothing
   changes);
2. the action is written to the store — durable before anyone hears of it: the table waits for
   the commit of a batch that includes it (group commit, :class:`~erren.server.journal.Journal`);
3. the new events go out, each numbered and filtered for its seat (``Event.seen_by``), with
   the seat's :func:`~erren.engine.observe` view.

A hand's events are numbered from 0: ``n = 0`` is the table's ``start`` event (the seed
commitment), engine event ``k`` is ``n = k + 1``, and the ``settlement`` event (result, revealed
seed, beans) follows the engine's ``end``.  A client coming back sends the last ``n`` it saw and
gets what it missed, or a snapshot of its observation.

Presence, timers and 托管 on disconnect are the table's business, not the engine's: the engine
only receives the system actions ``timeout``, ``trustee:on|off`` and ``escape``.  Dealer, 连庄
and round wind are the business of the table's :class:`~erren.engine.Match` (``table.match``).

The actor holds its collaborators rather than inheriting them (lila's round actor and its
finisher, drawer, clock): :mod:`.spec` (what a table is, its settings, why it closes),
:mod:`.seats` (seats, connections, sending), :mod:`.series` (rules, match, current hand),
:mod:`.clocks` (timers, 鸣牌保护), :mod:`.scribe` (durable writes), :mod:`.hands` (deal, apply,
store each action), :mod:`.finisher` (settle or call off), :mod:`.presence` (join, gone, grace),
:mod:`.autopilot` (timeouts, computer moves), :mod:`.adviser` (advice, review),
:mod:`.chatter` (quick chat, never the game's), :mod:`.watchers` (spectators: the public
stream, delayed at bean-room tables), :mod:`.rules` (what a table's own rules decide:
the campaign's are given to its table), :mod:`.commands` (the typed :data:`Command` union)
and :mod:`.actor` (the command loop, which matches it).
"""

from __future__ import annotations

from erren.server.table.actor import Table
from erren.server.table.clocks import TimerKind
from erren.server.table.commands import (
    Abandon,
    Act,
    Advise,
    BotMove,
    Chat,
    Command,
    Deal,
    Gone,
    GraceOver,
    IdleOver,
    Join,
    Leave,
    OwnerCommand,
    PlayerCommand,
    Ready,
    ReadyOver,
    Resync,
    Review,
    SetTrustee,
    Sit,
    Timeout,
    TimerCommand,
    Unwatch,
    Watch,
    WatcherCommand,
    WindowPass,
)
from erren.server.table.rules import HandPlan, PlainRules, TableRules
from erren.server.table.seats import (
    OUTBOX_LIMIT,
    Conn,
    Seat,
    Seating,
    make_bot_seat,
    make_level_seat,
    set_level,
)
from erren.server.table.spec import (
    CloseCode,
    TableConfig,
    TableKind,
    TableSpec,
    TableView,
    match_at,
    quick_spec,
    with_claim_privacy,
)

__all__ = [
    "OUTBOX_LIMIT",
    "Abandon",
    "Act",
    "Advise",
    "BotMove",
    "Chat",
    "CloseCode",
    "Command",
    "Conn",
    "Deal",
    "Gone",
    "GraceOver",
    "HandPlan",
    "IdleOver",
    "Join",
    "Leave",
    "OwnerCommand",
    "PlainRules",
    "PlayerCommand",
    "Ready",
    "ReadyOver",
    "Resync",
    "Review",
    "Seat",
    "Seating",
    "SetTrustee",
    "Sit",
    "Table",
    "TableConfig",
    "TableKind",
    "TableRules",
    "TableSpec",
    "TableView",
    "Timeout",
    "TimerCommand",
    "TimerKind",
    "Unwatch",
    "Watch",
    "WatcherCommand",
    "WindowPass",
    "make_bot_seat",
    "make_level_seat",
    "match_at",
    "quick_spec",
    "set_level",
    "with_claim_privacy",
]
