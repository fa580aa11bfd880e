"""Table settings for tables run in the process by tests and benchmarks."""

from __future__ import annotations

from erren.server.table import TableConfig

__all__ = ["SLOW_CLOCK"]

SLOW_CLOCK = TableConfig(
    grace_s=600.0,
    ready_timeout_s=600.0,
    bot_delay_s=0.001,
    turn_timeout_s=600.0,
    claim_timeout_s=600.0,
    claim_min_pause_s=0.0,
    idle_timeout_s=600.0,
    show_up_s=600.0,
)
"""A table whose timers never get in the way (bots move at once), nor a quick match's show-up
time (wall seconds)."""
