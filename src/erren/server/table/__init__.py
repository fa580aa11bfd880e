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

The modules, each one layer of :class:`Table`: :mod:`.spec` (what a table is, its settings),
:mod:`.seats` (seats and connections), :mod:`.commands`, :mod:`.base` (state, messages,
closing), :mod:`.hands` (deal, apply and store each action, settle or call off),
:mod:`.timers` (timers, 托管, grace, 鸣牌保护) and :mod:`.actor` (the command loop, the players'
commands, the restore after a restart).
"""

from __future__ import annotations

from erren.server.table.actor import Table
from erren.server.table.base import TableBase
from erren.server.table.commands import (
    Act,
    Advise,
    BotMove,
    Command,
    Gone,
    GraceOver,
    IdleOver,
    Join,
    Leave,
    Ready,
    ReadyOver,
    Resync,
    Review,
    SetTrustee,
    Sit,
    Timeout,
    WindowPass,
)
from erren.server.table.seats import (
    OUTBOX_LIMIT,
    Conn,
    Seat,
    make_bot_seat,
    make_level_seat,
    set_level,
)
from erren.server.table.spec import (
    TableConfig,
    TableSpec,
    TableView,
    match_at,
    quick_spec,
    with_claim_privacy,
)

__all__ = [
    "OUTBOX_LIMIT",
    "Act",
    "Advise",
    "BotMove",
    "Command",
    "Conn",
    "Gone",
    "GraceOver",
    "IdleOver",
    "Join",
    "Leave",
    "Ready",
    "ReadyOver",
    "Resync",
    "Review",
    "Seat",
    "SetTrustee",
    "Sit",
    "Table",
    "TableBase",
    "TableConfig",
    "TableSpec",
    "TableView",
    "Timeout",
    "WindowPass",
    "make_bot_seat",
    "make_level_seat",
    "match_at",
    "quick_spec",
    "set_level",
    "with_claim_privacy",
]
