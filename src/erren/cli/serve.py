"""``erren serve``: the game server (HTTP API, WebSocket play) on uvicorn."""

from __future__ import annotations

import argparse
import faulthandler
import importlib
import logging
import re
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import uvicorn
    from starlette.applications import Starlette

    from erren.server.clusterconfig import ClusterConfig

NODE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}")
"""A node id: 1-63 letters, digits, ``.``, ``_`` or ``-``, starting with a letter or digit
(:func:`erren.server.logs.default_node_id` makes one from the host name and the pid)."""
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
FEW_OPEN_FILES = 4096
"""Below this open-file limit ``erren serve`` warns at start that it holds few connections."""

SERVER_MODULES = (
    "uvicorn",
    "erren.server.app",
    "erren.server.appstate",
    "erren.server.clock",
    "erren.server.edge",
    "erren.server.logs",
    "erren.server.ratelimit",
    "erren.server.store",
    "erren.server.table",
)
"""What ``erren serve`` imports (uvicorn and the server extra's other packages through them)."""

NAME = "serve"
HELP = "Run the game server (HTTP API + WebSocket play; SQLite by default, or PostgreSQL)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``erren serve``, by topic (``--help`` lists them in this order)."""
    _add_place(parser)
    _add_timers(parser)
    _add_limits(parser)
    _add_accounts(parser)
    _add_operations(parser)
    _add_cluster(parser)


def _add_place(parser: argparse.ArgumentParser) -> None:
    """Where the server listens and keeps its games."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--database",
        default=None,
        help="sqlite:///PATH or postgresql://USER@HOST/DB (default: an SQLite file in the "
        "user's data folder, created and migrated on first start)",
    )


def _add_timers(parser: argparse.ArgumentParser) -> None:
    """The tables' and the quick match's timers."""
    parser.add_argument(
        "--grace", type=float, default=60.0, help="seconds a disconnected player may stay away"
    )
    parser.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        help="multiply every timer by this (tests: 0.01 runs a 20 s turn in 0.2 s)",
    )
    parser.add_argument(
        "--bot-delay", type=float, default=1.0, help="computer players' thinking time (s)"
    )
    parser.add_argument(
        "--ready-timeout",
        type=float,
        default=60.0,
        help="seconds a finished hand waits for both players to be ready",
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=600.0,
        help="seconds after which a table nobody plays at closes (default 600)",
    )
    parser.add_argument(
        "--claim-pause",
        type=float,
        default=0.8,
        help="鸣牌保护: the least time from a discard to the next draw at human tables (0.8 s)",
    )
    parser.add_argument(
        "--queue-grace",
        type=float,
        default=5.0,
        metavar="S",
        help="wall-clock seconds a quick-match search whose page closed, reloaded or hid keeps "
        "its place in the queue, paired with nobody meanwhile (default 5; not scaled by "
        "--time-scale)",
    )
    parser.add_argument(
        "--match-any-after",
        type=float,
        default=20.0,
        metavar="S",
        help="wall-clock seconds after which quick match pairs a waiting player with anyone "
        "whatever the ratings (before: the closest rating within a window that widens with "
        "the wait; 0: anyone at once; default 20)",
    )
    parser.add_argument(
        "--show-up",
        type=float,
        default=8.0,
        metavar="S",
        help="wall-clock seconds both players of a quick match have to join its table, else the "
        "pairing is dissolved and the player who came is queued again first (default 8)",
    )
    parser.add_argument(
        "--watch-delay",
        type=int,
        default=6,
        choices=range(101),
        metavar="EVENTS",
        help="events a spectator of a bean-room table sees the hand behind it, 0 to 100 "
        "(score-only tables: none; default 6)",
    )
    parser.add_argument(
        "--max-watchers",
        type=int,
        default=20,
        choices=range(1, 1001),
        metavar="N",
        help="spectators one table admits at a time, 1 to 1000 (default 20)",
    )


def _add_limits(parser: argparse.ArgumentParser) -> None:
    """What one player, connection or client address may do."""
    parser.add_argument(
        "--review-hands",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="review every settled hand of a registered player in the background, at low "
        "priority, for his profile's error figures (default on; dropped while the review "
        "process is busy)",
    )
    parser.add_argument(
        "--trustee-toggles",
        type=int,
        default=10,
        help="how often a player may switch 托管 on or off per hand (default 10)",
    )
    parser.add_argument(
        "--rate", type=float, default=100.0, help="messages per second a connection may send"
    )
    parser.add_argument(
        "--register-limit",
        type=int,
        default=30,
        help="new accounts one client address may make per hour (default 30; 0: no limit)",
    )
    parser.add_argument(
        "--guest-limit",
        type=int,
        metavar="N",
        default=30,
        help="new guests one client address may make per hour (default 30; 0: no limit)",
    )
    parser.add_argument(
        "--unauthenticated-per-address",
        type=int,
        metavar="N",
        default=32,
        help="WebSockets one client address may hold before they have logged in (default 32; "
        "0: no limit)",
    )
    parser.add_argument(
        "--sockets-per-address",
        type=int,
        metavar="N",
        default=256,
        help="WebSockets one client address may hold in all (default 256; 0: no limit)",
    )


def _add_accounts(parser: argparse.ArgumentParser) -> None:
    """Logins, new accounts and password hashing."""
    parser.add_argument(
        "--login-limit",
        type=int,
        default=10,
        help="wrong passwords for one account name within --login-window before further "
        "logins are refused with 429 (default 10; 0: no limit)",
    )
    parser.add_argument(
        "--login-address-limit",
        type=int,
        default=30,
        help="wrong passwords from one client address within --login-window (default 30)",
    )
    parser.add_argument(
        "--login-window",
        type=int,
        default=60,
        help="seconds over which wrong passwords are counted (default 60)",
    )
    parser.add_argument(
        "--new-player-hands",
        type=int,
        default=10,
        metavar="N",
        help="an account is new until it has played N bean-room hands to the end; a new "
        "account's escape moves no bean (default 10; 0: every escape pays)",
    )
    parser.add_argument(
        "--fast-passwords",
        action="store_true",
        help="FOR TEST SERVERS ONLY: hash passwords with minimal argon2id parameters (time "
        "cost 1, 8 KiB) instead of the recommended ones, so that tests registering many "
        "accounts do not wait on the hash; never for real accounts",
    )


def _add_operations(parser: argparse.ArgumentParser) -> None:
    """Proxies, logs, the node's name and metrics."""
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="proxies trusted to give the client's address in X-Forwarded-For (uvicorn's "
        "option; default 127.0.0.1): the address registrations, guests, logins and sockets "
        "are counted by; a trusted proxy's own connections are not bounded per address",
    )
    parser.add_argument(
        "--log-level",
        default="warning",
        choices=LOG_LEVELS,
        help="the least level logged, by erren and uvicorn (default warning; info adds every "
        "request and each table's opening, hands and closing)",
    )
    parser.add_argument(
        "--log-format",
        default="text",
        choices=("text", "json"),
        help="text: one readable line per message (default); json: one JSON object per line "
        "with node, table and game fields, for a log collector",
    )
    parser.add_argument(
        "--node-id",
        default=None,
        help="this server's name in /health, /ready, the metrics' node label and every log "
        "line (default HOSTNAME-PID); 1-63 letters, digits, '.', '_' or '-'",
    )
    parser.add_argument(
        "--metrics",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="serve Prometheus metrics at /metrics (default on; scrape it on a private "
        "network, see docs/deploy.md)",
    )


def _add_cluster(parser: argparse.ArgumentParser) -> None:
    """Running as one node of a cluster."""
    parser.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="redis://HOST:PORT/DB: run as one node of a cluster sharing this Redis and the "
        "--database (PostgreSQL) with the other nodes (docs/deploy.md); without it, a single "
        "server that needs no Redis",
    )
    parser.add_argument(
        "--redis-prefix",
        default="erren:",
        help="the cluster's Redis keys begin with this (default erren:; one per cluster)",
    )
    parser.add_argument(
        "--lease",
        type=float,
        default=5.0,
        help="seconds a table's lease lasts unless its owner renews it: how soon another "
        "node may take over a dead node's tables (default 5)",
    )


def _cluster_config(args: argparse.Namespace, node: str) -> ClusterConfig | str | None:
    """The cluster settings (``None``: no ``--redis``), or the one-line problem with them."""
    from erren.server.clusterconfig import ClusterConfig  # noqa: PLC0415

    if args.redis is None:
        return None
    if not args.redis.startswith(("redis://", "rediss://", "unix://")):
        return f"--redis must be a redis://HOST:PORT/DB URL, not {args.redis!r}"
    if not (args.database or "").startswith(("postgresql://", "postgresql+")):
        return (
            "--redis runs one node of a cluster, whose nodes share one PostgreSQL database: "
            "give --database postgresql://USER@HOST/DB"
        )
    if not 0.1 <= args.lease <= 600:
        return f"--lease must be between 0.1 and 600 seconds, not {args.lease:g}"
    try:
        import redis  # noqa: PLC0415
        from redis.exceptions import RedisError  # noqa: PLC0415
    except ImportError:  # pragma: no cover - the extra is missing
        return "--redis needs the redis package (pip install 'erren[server]')"
    try:
        client = redis.Redis.from_url(args.redis, socket_connect_timeout=5)
        client.ping()
        client.close()
    except (RedisError, ValueError) as err:
        return f"Redis at {args.redis} does not answer: {err}"
    return ClusterConfig(args.redis, node_id=node, prefix=args.redis_prefix, lease_s=args.lease)


def _matchmaking_problem(args: argparse.Namespace) -> str | None:
    """The one-line problem with a matchmaking time (``--queue-grace``, ``--match-any-after``,
    ``--show-up``; ``None``: none)."""
    for flag, value, least in (
        ("--queue-grace", args.queue_grace, 0.0),
        ("--match-any-after", args.match_any_after, 0.0),
        ("--show-up", args.show_up, 0.1),
    ):
        if not least <= value <= 600:  # NaN included
            return f"{flag} must be between {least:g} and 600 seconds, not {value:g}"
    return None


def run(args: argparse.Namespace) -> int:
    problem = _matchmaking_problem(args)
    if problem is not None:
        print(f"erren serve: {problem}", file=sys.stderr)
        return 2
    # a fatal signal (SIGBUS from SQLite's shared memory on a broken disk, SIGSEGV) leaves the
    # Python stacks of every thread in the log instead of a silent death
    faulthandler.enable()
    if args.node_id is not None and not NODE_ID.fullmatch(args.node_id):
        print(
            f"erren serve: --node-id {args.node_id!r}: use 1-63 letters, digits, '.', '_' or "
            "'-', starting with a letter or digit",
            file=sys.stderr,
        )
        return 2
    missing = _missing_server_extra()
    if missing is not None:  # pragma: no cover - the extra is missing
        print(f"erren serve needs the server extra (pip install 'erren[server]'): {missing}")
        return 2
    from erren.server.logs import default_node_id  # noqa: PLC0415

    node = args.node_id or default_node_id()
    cluster = _cluster_config(args, node)
    if isinstance(cluster, str):
        print(f"erren serve: {cluster}", file=sys.stderr)
        return 2
    app = _create_app(args, node, cluster)
    _tell_address(args)
    server = _server(args, app, node)
    if args.fast_passwords:  # logged once uvicorn.Config has set the log format up
        logging.getLogger("erren.server").warning(
            "--fast-passwords: passwords are hashed with minimal argon2id parameters, "
            "for test servers only"
        )
    server.run()
    return 0


def _missing_server_extra() -> ImportError | None:
    """Why the server's modules do not import (the ``server`` extra is missing), or ``None``."""
    try:
        for module in SERVER_MODULES:
            importlib.import_module(module)
    except ImportError as err:  # pragma: no cover - the extra is missing
        return err
    return None


def _create_app(args: argparse.Namespace, node: str, cluster: ClusterConfig | None) -> Starlette:
    """The server application with the options' settings."""
    from erren.server.app import create_app  # noqa: PLC0415
    from erren.server.clock import Clock  # noqa: PLC0415
    from erren.server.ratelimit import AccessLimits  # noqa: PLC0415
    from erren.server.store import Passwords  # noqa: PLC0415
    from erren.server.table import TableConfig  # noqa: PLC0415

    return create_app(
        args.database,
        clock=Clock(args.time_scale),
        config=TableConfig(
            grace_s=args.grace,
            bot_delay_s=args.bot_delay,
            ready_timeout_s=args.ready_timeout,
            idle_timeout_s=args.idle_timeout,
            claim_min_pause_s=args.claim_pause,
            trustee_toggles=args.trustee_toggles,
            new_player_hands=args.new_player_hands,
            queue_grace_s=args.queue_grace,
            match_any_after_s=args.match_any_after,
            show_up_s=args.show_up,
            watch_delay_events=args.watch_delay,
            max_watchers=args.max_watchers,
            review_hands=args.review_hands,
        ),
        rate=args.rate,
        burst=2 * args.rate,
        limits=AccessLimits(
            register_per_address=args.register_limit,
            login_per_account=args.login_limit,
            login_per_address=args.login_address_limit,
            login_window_s=args.login_window,
            guest_per_address=args.guest_limit,
            unauthenticated_per_address=args.unauthenticated_per_address,
            sockets_per_address=args.sockets_per_address,
        ),
        node=node,
        metrics=args.metrics,
        cluster=cluster,
        passwords=Passwords.fast() if args.fast_passwords else None,
    )


def _tell_address(args: argparse.Namespace) -> None:
    """Print where to open the server, and where its SQLite file is (text logs only: with
    json logs every line of the output is a JSON log record)."""
    from erren.server.store import database_url  # noqa: PLC0415

    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    if args.log_format == "text":
        print(f"erren: open http://{shown}:{args.port}/ in a browser  (Ctrl-C stops the server)")
        if args.database is None:
            path = database_url(None).split(":///", 1)[-1]
            print(f"erren: games and beans are kept in {path}", flush=True)


def _server(args: argparse.Namespace, app: Starlette, node: str) -> uvicorn.Server:
    """uvicorn's server for ``app`` behind the edge (its connection budget told in the log)."""
    import uvicorn  # noqa: PLC0415

    from erren.server.appstate import app_state  # noqa: PLC0415
    from erren.server.edge import (  # noqa: PLC0415
        KEEP_ALIVE_S,
        Edge,
        EdgeLimits,
        connection_budget,
        edge_protocol,
        raise_open_files,
        trusted_peers,
    )
    from erren.server.logs import log_config  # noqa: PLC0415

    class Server(uvicorn.Server):
        """uvicorn's server, whose first signal also turns ``/ready`` to 503
        ``shutting-down`` (a load balancer stops sending new players at once)."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            app_state(app).shutting_down = True
            super().handle_exit(sig, frame)

    budget = connection_budget(raise_open_files())
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        backlog=budget.backlog,
        log_level=args.log_level,
        timeout_keep_alive=KEEP_ALIVE_S,
        ws_max_size=1 << 20,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        ws_per_message_deflate=False,  # small JSON messages: costs more CPU than it saves
        forwarded_allow_ips=args.forwarded_allow_ips,
        server_header=False,  # no software version in every response
        log_config=log_config(node, args.log_format, args.log_level),
    )
    # the edge trusts the proxies uvicorn resolved (the option, $FORWARDED_ALLOW_IPS, or its
    # default); the protocol class is read when the server loads the config, at run()
    edge = Edge(
        EdgeLimits(max_connections=budget.connections),
        trusted_peers(config.forwarded_allow_ips),
    )
    config.http = edge_protocol(edge)
    _tell_budget(budget.open_files, budget.connections, budget.backlog)
    return Server(config)


def _tell_budget(open_files: int, connections: int, backlog: int) -> None:
    """Log how many connections the node holds (a warning when the open-file limit is low)."""
    logger = logging.getLogger("erren.server")
    if open_files < FEW_OPEN_FILES:
        logger.warning(
            "the open-file limit is %d: this node holds at most %d connections; raise it "
            "(systemd: LimitNOFILE=65536, docs/deploy.md)",
            open_files,
            connections,
        )
    else:
        logger.info(
            "holding at most %d connections (open-file limit %d, listen backlog %d)",
            connections,
            open_files,
            backlog,
        )
