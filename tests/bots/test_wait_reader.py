"""The wait reader: each kind's chance to be a winning tile of the opponent, from the observation
alone (NumPy inference; :mod:`erren.bots.waitreader`)."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")

from erren.bots.waitreader import WaitReader, load_reader  # noqa: E402
from erren.bots.waitreader.dataset import Position, generate, positions  # noqa: E402
from erren.bots.waitreader.features import encode  # noqa: E402
from erren.bots.waitreader.model import WEIGHTS  # noqa: E402
from erren.bots.waitreader.train import fit, rows  # noqa: E402
from erren.engine import Observation, State, find_family  # noqa: E402
from erren.engine.resample import resample  # noqa: E402
from erren.tiles import Tile  # noqa: E402

GB = find_family("guobiao-2p")
HONOURS = tuple(range(27, 34))


def _ting_positions(seed: int, hands: int) -> list[Position]:
    return [p for p in positions(hands, seed) if p.observation.ting[p.observation.opponent]]


def _first_observation() -> Observation:
    """The dealer's first decision of a seeded hand (14 tiles in his hand, no river)."""
    state = State.new(GB, seed=11, dealer=0)
    return state.observe(0)


def test_chances_have_the_shape_and_range_and_play_only_the_table_kinds() -> None:
    reader = load_reader()
    for pos in itertools.islice(positions(4, 3), 0, None, 5):
        chances = reader.chances(pos.observation)
        assert chances.shape == (34,)
        assert chances.dtype == np.float64
        assert ((chances >= 0.0) & (chances <= 1.0)).all()
        # guobiao-2p plays 万 (the default suit) and the honours: nothing else can win
        assert (chances[9:27] == 0.0).all()


def test_tiles_thrown_after_his_ting_are_exactly_zero() -> None:
    """A constructed river: he declared 报听 with his second discard; the three tiles he threw
    after it and the ones I threw after it have chance 0, exactly."""
    base = _first_observation()
    mine = {int(t) for t in base.hand}
    free = [t for t in range(9) if t not in mine] + [t for t in HONOURS if t not in mine]
    his = tuple(Tile(t) for t in free[:5])  # he is seat 1, not the dealer
    ours = tuple(Tile(t) for t in free[5:8])
    obs = dataclasses.replace(
        base,
        player=0,
        discards=(ours, his),
        ting=(False, True),
        ting_at=(-1, 1),
    )
    chances = load_reader().chances(obs)
    # I deal: my discard j comes after his discard 1 (global 3) iff j >= 2
    safe = {int(t) for t in his[2:]} | {int(t) for t in ours[2:]}
    for t in safe:
        assert chances[t] == 0.0
    off = dataclasses.replace(obs, ting=(False, False), ting_at=(-1, -1))
    unlocked = load_reader().chances(off)
    assert all(unlocked[t] > 0.0 for t in safe)  # before 报听 none of them is proven safe


def test_kinds_no_copy_of_which_can_reach_him_are_exactly_zero() -> None:
    """All four copies in my sight and none in my hand: 0; an honour all four of which I see
    (one in my hand): 0 too, he cannot hold the pair it would need."""
    base = _first_observation()
    mine = [int(t) for t in base.hand]
    gone = next(t for t in range(9) if t not in mine)
    honour = next(t for t in HONOURS if 0 < mine.count(t) < 4)
    rest = 4 - mine.count(honour)
    obs = dataclasses.replace(
        base,
        discards=((Tile(gone),) * 2 + (Tile(honour),) * rest, (Tile(gone),) * 2),
    )
    chances = load_reader().chances(obs)
    assert chances[gone] == 0.0
    assert chances[honour] == 0.0


def test_certainly_safe_kinds_are_zero_in_self_play() -> None:
    """Every position after a 报听 of a few seeded hands: the kinds he or I threw after it, and
    the kinds no copy of which can reach him, have chance 0 (computed here from the rule)."""
    reader = load_reader()
    checked = 0
    for pos in _ting_positions(5, 30):
        obs = pos.observation
        me, opp = obs.player, obs.opponent
        ta = obs.ting_at[opp]
        first_mine = ta if obs.dealer == opp else ta + 1
        safe = {int(t) for t in obs.discards[opp][ta + 1 :]}
        safe |= {int(t) for t in obs.discards[me][first_mine:]}
        chances = reader.chances(obs)
        for t in safe:
            assert chances[t] == 0.0
            assert t not in pos.wins  # and the rule is true
        checked += len(safe)
    assert checked > 20


def test_dataset_and_training_are_deterministic_for_a_seed(tmp_path: object) -> None:
    a = generate(3, 4).arrays()
    b = generate(3, 4).arrays()
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key])
    path = f"{tmp_path}/d.npz"
    np.savez(path, **a)
    data = rows(path)
    w1 = fit(data, seed=2, epochs=1, hidden=4, holdout=0.0, log=False)
    w2 = fit(data, seed=2, epochs=1, hidden=4, holdout=0.0, log=False)
    for key in w1:
        assert np.array_equal(w1[key], w2[key])


def test_shipped_weights_give_their_forward_pass_and_the_documented_values() -> None:
    """The reader's chances are the perceptron's, computed here from ``weights.npz``; on the
    documented position (:mod:`erren.bots.waitreader.model`) the largest chances."""
    with np.load(WEIGHTS) as w:
        weights = {k: w[k].astype(np.float64) for k in w.files}
    reader = load_reader()
    assert isinstance(reader, WaitReader)
    pos = _ting_positions(7, 10)[0]
    kinds, x, never = encode(pos.observation)
    z = (x - weights["mean"]) / weights["scale"]
    h = np.maximum(z @ weights["w1"] + weights["b1"], 0.0)
    p = 1.0 / (1.0 + np.exp(-(h @ weights["w2"] + weights["b2"])))
    p[never] = 0.0
    chances = reader.chances(pos.observation)
    assert np.allclose(chances[kinds], p, rtol=1e-9, atol=1e-12)
    assert {t: round(float(chances[t]), 3) for t in DOCUMENTED} == DOCUMENTED
    assert max(chances) == chances[Tile.RED]


DOCUMENTED = {Tile.EAST: 0.161, Tile.WHITE: 0.287, Tile.GREEN: 0.235, Tile.RED: 0.287}
"""The largest chances on the first position after a 报听 of seed 7 (model docstring; his
real winning tiles there: 白 and 中)."""


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000))
def test_chances_read_nothing_hidden(seed: int) -> None:
    """Two states equal in my observation, the opponent's concealed hand redrawn: the same
    chances, to the last bit."""
    rng = random.Random(seed)
    pool = _ting_positions(seed % 7, 3) or list(itertools.islice(positions(2, seed % 7), 8))
    pos = pool[rng.randrange(len(pool))]
    obs = pos.observation
    me, opp = obs.player, obs.opponent
    one = resample(GB, obs, random.Random(seed))
    two = resample(GB, obs, random.Random(seed + 1))
    reader = load_reader()
    a = reader.chances(one.observe(me))
    b = reader.chances(two.observe(me))
    assert np.array_equal(a, b)
    assert np.array_equal(a, reader.chances(obs))
    assert one.hands[opp] != two.hands[opp] or sum(one.hands[opp]) <= 1
