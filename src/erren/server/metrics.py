"""The server's Prometheus metrics, served at ``/metrics`` (docs/deploy.md, "Metrics").

Each app has its own :class:`Metrics` with its own
:class:`~prometheus_client.CollectorRegistry` (never the library's global one, so that several
apps in one process — the tests — do not collide), reachable as ``app.state.metrics``.  Every
sample carries the label ``node`` (``erren serve --node-id``).

What is counted where:

* ``erren_tables{family}`` and ``erren_connections`` are read from the lobby and the open
  sockets when ``/metrics`` is scraped (:meth:`Metrics.watch`): nothing on the hot path.
* ``erren_action_latency_seconds{family}``: from the moment a player's ``act`` message is
  read off his socket to the moment its events are queued for the seats' sockets (validated,
  committed to the database, filtered per seat).  A pass held back by 鸣牌保护 (the rule's
  deliberate wait) and a refused move are not observed.
* ``erren_actions_total{family}``: every action stored at a table (a player's, a computer's,
  a timeout, 托管) — the count of the records' ``actions``; ``erren_hands_settled_total``:
  hands that reached their settlement.
* ``erren_database_errors_total``: every failed database call (a driver error, a dropped or
  refused connection, a write refused because the SQLite file vanished).
* ``erren_redis_errors_total`` and ``erren_lease_renewals_total`` belong to the cluster layer
  (``--redis``), which calls :meth:`Metrics.redis_error` and :meth:`Metrics.lease_renewed`;
  on a single node they stay at 0.

An update is one call on a child bound once (``.inc()``, ``.observe()``): the library's own
per-value lock, nothing more.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector
from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import GaugeMetricFamily, Metric

__all__ = ["LATENCY_BUCKETS", "FamilyMetrics", "Metrics"]

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0)
"""The action latency histogram's upper bounds (seconds): 1 ms to 2 s, then ``+Inf``."""


@dataclass(frozen=True, slots=True)
class FamilyMetrics:
    """The children of one family (``node`` and ``family`` bound): what a table updates."""

    latency: Histogram
    actions: Counter
    hands: Counter


class _Live:
    """``erren_tables`` and ``erren_connections``, read at scrape time."""

    def __init__(self, node: str) -> None:
        self.node = node
        self.tables: Callable[[], Iterable[str]] = tuple
        self.families: tuple[str, ...] = ()
        self.connections: Callable[[], int] = int

    def collect(self) -> Iterator[Metric]:
        tables = GaugeMetricFamily(
            "erren_tables", "Open tables on this node, by rules family", labels=["node", "family"]
        )
        tally = Tally(dict.fromkeys(self.families, 0))
        tally.update(self.tables())
        for family in sorted(tally):
            tables.add_metric([self.node, family], tally[family])
        yield tables
        connections = GaugeMetricFamily(
            "erren_connections", "Open, authenticated WebSockets on this node", labels=["node"]
        )
        connections.add_metric([self.node], self.connections())
        yield connections


class Metrics:
    """One app's metrics; ``node`` labels every sample."""

    def __init__(self, node: str, *, process: bool = True) -> None:
        self.node = node
        self.registry = CollectorRegistry()
        registry = self.registry
        self._live = _Live(node)
        registry.register(self._live)
        if process:  # CPU seconds, resident memory, open files of this process (Linux)
            ProcessCollector(registry=registry)
        self.action_latency = Histogram(
            "erren_action_latency_seconds",
            "From reading a player's action off his socket to queueing its events",
            ["node", "family"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.actions = Counter(
            "erren_actions", "Actions stored at tables", ["node", "family"], registry=registry
        )
        self.hands_settled = Counter(
            "erren_hands_settled", "Hands settled", ["node", "family"], registry=registry
        )
        self.database_errors = Counter(
            "erren_database_errors", "Failed database calls", ["node"], registry=registry
        ).labels(node)
        self.redis_errors = Counter(
            "erren_redis_errors", "Failed Redis calls (cluster layer)", ["node"], registry=registry
        ).labels(node)
        self.lease_renewals = Counter(
            "erren_lease_renewals",
            "Table leases renewed (cluster layer)",
            ["node"],
            registry=registry,
        ).labels(node)
        self._families: dict[str, FamilyMetrics] = {}

    def watch(
        self,
        *,
        tables: Callable[[], Iterable[str]],
        connections: Callable[[], int],
        families: Iterable[str] = (),
    ) -> None:
        """Read the gauges from these at scrape time: ``tables()`` the family of each open
        table, ``connections()`` the open sockets; ``families`` are shown even at 0."""
        self._live.tables = tables
        self._live.connections = connections
        self._live.families = tuple(families)
        for family in self._live.families:  # their counters show from the start, at 0
            self.family(family)

    def family(self, family: str) -> FamilyMetrics:
        """The children of ``family``, bound once (a table keeps them)."""
        bound = self._families.get(family)
        if bound is None:
            bound = FamilyMetrics(
                self.action_latency.labels(self.node, family),
                self.actions.labels(self.node, family),
                self.hands_settled.labels(self.node, family),
            )
            self._families[family] = bound
        return bound

    # ------------------------------------------------------------------ the cluster's hooks
    def redis_error(self) -> None:
        """A Redis call failed (the cluster layer calls this once per failed call)."""
        self.redis_errors.inc()

    def lease_renewed(self, count: int = 1) -> None:
        """``count`` table leases were renewed (the cluster layer calls this after each
        successful renewal)."""
        self.lease_renewals.inc(count)

    def database_error(self, _err: BaseException | None = None) -> None:
        """A database call failed (the store calls this; see ``Database.on_error``)."""
        self.database_errors.inc()

    # ------------------------------------------------------------------ the exposition
    def render(self, accept: str = "") -> tuple[bytes, str]:
        """The exposition for a scrape with this ``Accept`` header, and its content type
        (Prometheus text, or OpenMetrics when asked for)."""
        encode, content_type = choose_encoder(accept)
        return encode(self.registry), content_type
