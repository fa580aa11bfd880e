"""Self-play positions labelled with the opponent's real winning tiles, for the wait reader.

``python -m erren.bots.waitreader.dataset --hands 30000 --seed 1 --out train.npz`` deals
``hands`` guobiao-2p hands from ``seed``, half with the ``2p`` fan table and half with ``gb``
(hand ``i`` uses ``gb`` when ``i`` is odd), each played by ``efficiency`` (普通) on both seats.
Each seat is, with chance ``--dama`` (default :data:`DAMA`), a 普通 that never declares 报听
(默听: 普通 declares as soon as it is ready with 3 unseen winning tiles, so without it a ready
hand before 报听 would hardly ever be seen, and a human or 大师 does wait silently), and with
chance ``--strong`` 高手 (``Level.STRONG``; default 0: 高手 and 大师 read the opponent with
this very reader, so data made with them would change whenever the reader or their defence
does).

A position is recorded at every ``TURN`` decision of the seat to act (``state.actor``: a
discard decision, the one a defence needs) while the other seat holds a 13-tile (3n+1) hand;
the engine plays a locked (报听) hand's turns inside one ``apply``, so the locked seat itself
never decides and the opponent of the deciding seat always holds 3n+1 tiles in practice.  The
label is the set of kinds on which the other seat's concealed hand, as it is then, wins on a
discard **legally** (``State.can_win``: the shape of :data:`~erren.analysis.shapes.GUOBIAO_2P`
with the §3.4 four-copies rule, then 起和: 8 fan in ``gb``), leaving out a kind all four
copies of which the deciding seat sees, none in his own hand: no copy of it can reach the
opponent any more.  The shape waits
(:func:`erren.analysis.waits.waits`) are stored beside it (``shape``) to measure how often the
two differ.  Stored per position: the features of the deciding seat's observation
(:func:`~erren.bots.waitreader.features.encode`, float16), the labels and the certainly-not
mask over the 16 playing kinds, the opponent's 报听 flag and shanten, the table and the hand.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from erren.analysis.shanten import shanten
from erren.analysis.shapes import GUOBIAO_2P
from erren.analysis.waits import waits
from erren.bots.base import Bot, find_bot
from erren.bots.efficiency import EfficiencyBot
from erren.bots.levels import Level, level_bot
from erren.bots.waitreader.features import FEATURE_NAMES, NUM_FEATURES, NUM_PLAYING, encode
from erren.engine import Family, Observation, State, find_family
from erren.engine.phases import Phase
from erren.engine.result import WinHow

__all__ = ["Position", "Samples", "main", "positions", "table_of_hand"]

TABLES = ("2p", "gb")
DAMA = 0.3
"""The share of seats played by a 普通 that never declares 报听 (it still wins when it can)."""
NEVER = 1_000
"""``ting_min_waits`` of that player: more waits than any hand has."""
_NONE_UNSEEN = FEATURE_NAMES.index("none_unseen")
_MINE = FEATURE_NAMES.index("mine")


def table_of_hand(i: int) -> str:
    """The fan table of hand ``i``: ``2p`` for even ``i``, ``gb`` for odd."""
    return TABLES[i % 2]


@dataclass(frozen=True, slots=True)
class Position:
    """One recorded position: the deciding seat's observation and the truth about the other."""

    observation: Observation
    fan_table: str
    wins: frozenset[int]
    """Kinds the opponent's hand wins on legally (on a discard)."""
    shape: frozenset[int]
    """His shape waits (no 起和 check)."""
    shanten: int
    hand: int


def _bots(
    rules: Family, rng: random.Random, strong: float, dama: float, master: float = 0.0
) -> list[Bot]:
    out: list[Bot] = []
    for _ in range(2):
        seed = rng.randrange(2**31)
        draw = rng.random()
        if draw < master:
            out.append(level_bot(Level.MASTER, seed=seed, ruleset=rules))
        elif draw < master + strong:
            out.append(level_bot(Level.STRONG, seed=seed, ruleset=rules))
        elif draw < master + strong + dama:
            quiet = EfficiencyBot(seed=seed, ting_min_waits=NEVER, ting_late_wall=-1)
            quiet.bind(rules)
            out.append(quiet)
        else:
            out.append(find_bot("efficiency", seed=seed, ruleset=rules))
    return out


def _truth(state: State, opp: int) -> tuple[frozenset[int], frozenset[int], int]:
    hand = state.hands[opp]
    held = state.meld_counts[opp] if state.melds[opp] else None
    shape = frozenset(waits(hand, shapes=GUOBIAO_2P, held=held))
    wins = frozenset(t for t in shape if state.can_win(opp, t, WinHow.DISCARD))
    return wins, shape, shanten(hand, shapes=GUOBIAO_2P)


def positions(
    hands: int,
    seed: int,
    *,
    strong: float = 0.0,
    dama: float = DAMA,
    first: int = 0,
    master: float = 0.0,
) -> Iterator[Position]:
    """The recorded positions of hands ``first`` … ``first + hands - 1`` of ``seed``'s
    stream, in order (the state moves on after each is consumed)."""
    rules = {table: find_family("guobiao-2p", fan_table=table) for table in TABLES}
    for i in range(first, first + hands):
        rng = random.Random(seed * 1_000_003 + i)
        table = table_of_hand(i)
        ruleset = rules[table]
        bots = _bots(ruleset, rng, strong, dama, master)
        state = State.new(ruleset, seed=rng.randrange(2**62), dealer=i % 2)
        while not state.is_terminal:
            seat = state.actor
            opp = 1 - seat
            observation = state.observe(seat)
            if state.phase is Phase.TURN and sum(state.hands[opp]) % 3 == 1:
                wins, shape, k = _truth(state, opp)
                yield Position(observation, table, wins, shape, k, i)
            state.apply(bots[seat].choose(observation, state.legal_actions()))


@dataclass
class Samples:
    """Positions as arrays over the 16 playing kinds."""

    x: list[npt.NDArray[np.float16]] = field(default_factory=list)
    wins: list[npt.NDArray[np.bool_]] = field(default_factory=list)
    shape: list[npt.NDArray[np.bool_]] = field(default_factory=list)
    never: list[npt.NDArray[np.bool_]] = field(default_factory=list)
    ting: list[bool] = field(default_factory=list)
    shanten: list[int] = field(default_factory=list)
    gb: list[bool] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)

    def add(self, position: Position) -> None:
        obs = position.observation
        kinds, x, never = encode(obs, fan_table=position.fan_table)
        self.x.append(x.astype(np.float16))
        # A wait on a kind no copy of which can reach him (all four in my sight, none in my
        # hand) never wins: it is no winning tile "now".
        dead = (x[:, _NONE_UNSEEN] > 0) & (x[:, _MINE] == 0)
        self.wins.append(np.isin(kinds, list(position.wins)) & ~dead)
        self.shape.append(np.isin(kinds, list(position.shape)))
        self.never.append(never)
        self.ting.append(obs.ting[obs.opponent])
        self.shanten.append(position.shanten)
        self.gb.append(position.fan_table == "gb")
        self.hand.append(position.hand)

    def arrays(self) -> dict[str, npt.NDArray[np.generic]]:
        n = len(self.x)
        return {
            "x": np.stack(self.x) if n else np.zeros((0, NUM_PLAYING, NUM_FEATURES), np.float16),
            "wins": np.stack(self.wins) if n else np.zeros((0, NUM_PLAYING), bool),
            "shape": np.stack(self.shape) if n else np.zeros((0, NUM_PLAYING), bool),
            "never": np.stack(self.never) if n else np.zeros((0, NUM_PLAYING), bool),
            "ting": np.asarray(self.ting, dtype=bool),
            "shanten": np.asarray(self.shanten, dtype=np.int8),
            "gb": np.asarray(self.gb, dtype=bool),
            "hand": np.asarray(self.hand, dtype=np.int32),
        }


def generate(
    hands: int, seed: int, *, strong: float = 0.0, dama: float = DAMA, master: float = 0.0
) -> Samples:
    """The samples of ``hands`` hands of ``seed``."""
    samples = Samples()
    for position in positions(hands, seed, strong=strong, dama=dama, master=master):
        samples.add(position)
    return samples


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strong", type=float, default=0.0, help="share of 高手 seats")
    parser.add_argument("--dama", type=float, default=DAMA, help="share of seats never 报听")
    parser.add_argument("--master", type=float, default=0.0, help="share of 大师 seats")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    data = generate(
        args.hands, args.seed, strong=args.strong, dama=args.dama, master=args.master
    ).arrays()
    np.savez_compressed(args.out, **data)  # type: ignore[arg-type]
    n = len(data["ting"])
    print(
        f"{n} positions ({int(data['ting'].sum())} after 报听) from {args.hands} hands "
        f"in {time.perf_counter() - start:.0f} s -> {args.out}"
    )


if __name__ == "__main__":
    main()
