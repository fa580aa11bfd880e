"""Learn how close to ready the opponent is from what is public: self-play statistics.

Plays ``efficiency`` against ``efficiency`` (guobiao-2p, seeded) and, at every decision of
either seat, records the *other* seat's public facts — his discards so far, his melds (hidden
kongs included) and his 报听 flag — with the true shanten of his concealed hand.  The counts
become :data:`erren.bots.expert.opponent_data.COUNTS`, the table
:mod:`erren.bots.expert.opponent` samples from::

    PYTHONPATH=src python -m erren.bots.expert.train_opponent --hands 4000 --seed 1 \\
        > src/erren/bots/expert/opponent_data.py

The output is a Python module (the command and seed that made it in its docstring).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from erren.analysis.shanten import shanten
from erren.analysis.shapes import GUOBIAO_2P
from erren.bots.base import find_bot
from erren.engine import State, find_family

__all__ = ["MAX_DISCARDS", "MAX_SHANTEN", "collect", "context_key", "main"]

MAX_DISCARDS = 16
"""Discard counts above this share the last row."""
MAX_SHANTEN = 4
"""Shanten above this counts as this."""


def context_key(discards: int, melds: int, ting: bool) -> str:
    """The table key of the opponent's public facts: ``"d/m/t"``."""
    return f"{min(discards, MAX_DISCARDS)}/{min(melds, 4)}/{int(ting)}"


def collect(hands: int, seed: int) -> dict[str, list[int]]:
    """``{key: counts by shanten 0..MAX_SHANTEN}`` over ``hands`` self-play hands."""
    rules = find_family("guobiao-2p")
    bots = [find_bot("efficiency", seed=seed, ruleset=rules) for _ in range(2)]
    table: dict[str, list[int]] = {}
    for i in range(hands):
        state = State.new(rules, seed=seed * 1_000_003 + i, dealer=i % 2)
        while not state.is_terminal:
            seat = state.actor
            other = 1 - seat
            h = state.hands[other]
            if sum(h) % 3 == 1:
                key = context_key(
                    len(state.discards[other]), len(state.melds[other]), state.ting[other]
                )
                k = min(shanten(h, shapes=GUOBIAO_2P), MAX_SHANTEN)
                table.setdefault(key, [0] * (MAX_SHANTEN + 1))[k] += 1
            state.apply(bots[seat].choose(state.observe(seat), state.legal_actions()))
    return table


def render(table: dict[str, list[int]], hands: int, seed: int) -> str:
    """The data module's text."""
    lines = [
        '"""The opponent readiness table (made by ``erren.bots.expert.train_opponent``).',
        "",
        f"Command: ``python -m erren.bots.expert.train_opponent --hands {hands} --seed {seed}``.",
        "``COUNTS[key][k]``: how often the opponent's concealed hand was ``k`` from ready",
        f"(``k`` = {MAX_SHANTEN} for {MAX_SHANTEN} or more), ``key`` = discards/melds/报听 flag.",
        '"""',
        "",
        f"HANDS = {hands}",
        f"SEED = {seed}",
        "COUNTS: dict[str, tuple[int, ...]] = {",
    ]
    for key in sorted(table, key=lambda k: tuple(int(x) for x in k.split("/"))):
        lines.append(f'    "{key}": {tuple(table[key])},')
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sys.stdout.write(render(collect(args.hands, args.seed), args.hands, args.seed))


if __name__ == "__main__":
    main()
