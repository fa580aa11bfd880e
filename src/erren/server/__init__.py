"""The game server: accounts, beans, rooms, tables over WebSockets (``erren serve``).

Modules: :mod:`~erren.server.app` (the FastAPI app: HTTP routes and the WebSocket),
:mod:`~erren.server.protocol` (the JSON messages, documented in ``docs/protocol.md``),
:mod:`~erren.server.table` (one actor per table owning its game and its
:class:`~erren.engine.Match`), :mod:`~erren.server.routes` (the HTTP routes, the browser
client's included), :mod:`~erren.server.lobby` (rooms, invite codes, restoring
tables after a restart; its ground :mod:`~erren.server.lobbybase`, quick match
:mod:`~erren.server.quickmatch` and its queues :mod:`~erren.server.pairing`),
:mod:`~erren.server.clock` (timers, scalable for tests),
:mod:`~erren.server.fairness` (seed commitments), :mod:`~erren.server.ratelimit`,
:mod:`~erren.server.client` (a bot as a remote player) and ``store`` (accounts, the bean
ledger and game records).

The server needs the ``server`` extra (``pip install 'erren[server]'``); the engine does not.
"""
