"""Does the arcade campaign get harder?  The human's win rate per stage of stage mode.

Run ``python -m benchmarks.bench_campaign [--hands N] [--seed S] [--humans normal master]
[--stages 1 2 3 4] [--computer LEVEL]``.

Each stage plays ``--hands`` stage-mode hands (:func:`erren.families.arcade.campaign.table.
ruleset` of the stage's own features, the human in seat 0) between the human, played by each
level of ``--humans`` (default 普通 and 大师), and the stage's computer (its level
:func:`~erren.families.arcade.campaign.stage_level`, or ``--computer`` for every stage).  Hand
``i`` has the same seed at every stage (drawn from ``--seed``: the stages are compared on the
same deals, as in a duplicate match), the dealer alternates and both bots are built with a seed
of the hand: the same command prints the same figures.  Printed per stage and human: the
human's wins, the computer's wins, draws, the human's win rate with its 95 % Wilson interval,
the change from the stage before, and his bankroll's change per hand at stake ×1 (a win's
payout, less the stake each computer win takes).

Target (issue 30, point 4): the human's win rate falls by at least 5 points from each stage to
the next, for both humans.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from erren.bots.levels import parse_level
from erren.engine import State
from erren.families.arcade.campaign import HUMAN, STAGES, CampaignParams, stage_level
from erren.families.arcade.campaign.hand import OutcomeKind
from erren.families.arcade.campaign.table import outcome_of, ruleset
from erren.sim.arena import make_bot

HUMANS = ("normal", "master")
STAKE = 100
"""The stake at ×1 (R3.3: ``stage_stake_unit``)."""
Z95 = 1.96


@dataclass(slots=True)
class Tally:
    """The outcomes of one stage's hands for one human."""

    human: str
    stage: int
    computer: str
    hands: int = 0
    wins: int = 0
    losses: int = 0
    paid: int = 0
    """The payouts of the human's wins at stake ×1 (R3.4: ``stage_base``)."""
    seconds: float = 0.0

    @property
    def draws(self) -> int:
        return self.hands - self.wins - self.losses

    @property
    def net(self) -> float:
        """The human's bankroll change per hand at stake ×1: a win pays its payout (the stake
        comes back), the computer's win takes the stake (R3.4), a draw returns it."""
        return (self.paid - self.losses * STAKE) / self.hands if self.hands else 0.0

    @property
    def rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson interval of the human's win rate."""
        n, p = self.hands, self.rate
        if n == 0:
            return 0.0, 1.0
        centre = (p + Z95 * Z95 / (2 * n)) / (1 + Z95 * Z95 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / (1 + Z95 * Z95 / n)
        return centre - half, centre + half


def play_stage(human: str, stage: int, computer: str | None, hands: int, seed: int) -> Tally:
    """``hands`` hands of ``stage`` between ``human`` (seat 0) and the stage's computer."""
    rules = ruleset(CampaignParams().features(stage), human=HUMAN)
    level = parse_level(computer) if computer is not None else stage_level(stage)
    tally = Tally(human, stage, level.value)
    rng = random.Random(seed * 7919)
    start = time.perf_counter()
    for i in range(hands):
        hand_seed = rng.getrandbits(63)
        bot_seed = rng.getrandbits(31)
        bots = (make_bot(human, bot_seed, rules), make_bot(level.value, bot_seed + 1, rules))
        state = State.new(rules, seed=hand_seed, dealer=i % 2)
        chance = random.Random(hand_seed)
        while not state.is_terminal:
            seat = state.actor
            if seat not in (0, 1):
                state.apply(state.sample_chance(chance))
                continue
            obs = state.observe(seat)
            state.apply(bots[seat].choose(obs, obs.legal_actions))
        tally.hands += 1
        outcome = outcome_of(state)
        if outcome.kind is OutcomeKind.PLAYER_WIN:
            tally.wins += 1
            tally.paid += outcome.base
        elif outcome.kind is OutcomeKind.COMPUTER_WIN:
            tally.losses += 1
    tally.seconds = time.perf_counter() - start
    return tally


def row(tally: Tally, before: Tally | None) -> str:
    low, high = tally.interval()
    change = f"{100 * (tally.rate - before.rate):+.1f}" if before is not None else "–"
    return (
        f"| {tally.human} | {tally.stage} | {tally.computer} | {tally.hands:,} | {tally.wins:,} "
        f"| {tally.losses:,} | {tally.draws:,} | **{100 * tally.rate:.1f} %** "
        f"| [{100 * low:.1f}, {100 * high:.1f}] | {change} | {tally.net:+,.0f} "
        f"| {tally.seconds:,.0f} s |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_campaign", description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per stage (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    parser.add_argument("--humans", nargs="+", default=HUMANS, help="levels playing the human")
    parser.add_argument(
        "--stages", nargs="+", type=int, default=list(range(1, STAGES + 1)), help="stages"
    )
    parser.add_argument("--computer", default=None, help="one level for every stage's computer")
    args = parser.parse_args(argv)
    if args.hands < 1 or any(not 1 <= s <= STAGES for s in args.stages):
        parser.error(f"--hands must be ≥ 1 and the stages 1..{STAGES}")
    print(f"Stage mode, {args.hands:,} hands per stage, seed {args.seed}\n")
    print(
        "| human | stage | computer | hands | human wins | computer wins | draws "
        "| human win rate | 95 % CI | change | net per hand at ×1 | time |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    failed: list[str] = []
    for human in args.humans:
        before: Tally | None = None
        for stage in args.stages:
            tally = play_stage(human, stage, args.computer, args.hands, args.seed)
            print(row(tally, before), flush=True)
            if before is not None and tally.rate > before.rate - 0.05:
                failed.append(f"{human}: stage {before.stage} → {stage}")
            before = tally
    if failed:
        print(f"\nfalls by less than 5 points: {'; '.join(failed)}")
    else:
        print("\nthe human's win rate falls by at least 5 points from each stage to the next")
    return 0


if __name__ == "__main__":
    sys.exit(main())
