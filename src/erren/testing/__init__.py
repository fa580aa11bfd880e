"""Tools for testing erren and programs built on it; erren itself never imports this package.

Everything the tests and the benchmarks share lives here, so that no test imports another test
module or a benchmark, and no benchmark imports a test:

* :mod:`erren.testing.hands` — seeded random hands on the 64- and 136-tile walls, and each
  reference library's input format (the benchmarks time them, the differential tests compare on
  them);
* :mod:`erren.testing.strategies` — the hypothesis strategies (count arrays and hands drawn from
  real walls); it needs ``hypothesis``, which the ``dev`` extra installs;
* :mod:`erren.testing.oracles` — slow, obviously-correct shanten and decomposition references;
* :mod:`erren.testing.differential` — the differential suite's seed and its disagreement report;
* :mod:`erren.testing.mjai_bots` — faulty mjai bot programs for the external-bot tests;
* :mod:`erren.testing.servers` — ``erren serve`` in a subprocess, a fresh database per run and
  its ledger audit, a private key prefix of Redis (the server and cluster tests, the failover
  benchmark); it needs the ``server`` extra;
* :mod:`erren.testing.scripted` — hands played to a chosen end over the real app: a rigged
  generator, a line of play found with the engine, scripted WebSocket clients, and the app on a
  thread of its own for the browser tests; it needs the ``server`` extra;
* :mod:`erren.testing.proxy` — a TCP proxy that can be cut and restored (Redis unreachable);
* :mod:`erren.testing.waits` — waiting for a state instead of sleeping;
* :mod:`erren.testing.rl_planes` — the pure-Python encoder of the RL planes read from the state,
  the reference the C encoder of :mod:`erren.rl.encoder` is held byte-identical to.
"""
