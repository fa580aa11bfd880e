"""The ``learned`` bot: NumPy inference of the network distilled from the expert (no PyTorch)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from erren.analysis.shanten import shanten  # noqa: E402
from erren.bots import find_bot  # noqa: E402
from erren.bots.base import play_hand  # noqa: E402
from erren.bots.efficiency import seen_counts  # noqa: E402
from erren.bots.learned import LearnedBot, Network  # noqa: E402
from erren.bots.learned.dataset import generate, quantize  # noqa: E402
from erren.engine import Action, ActionKind, Observation, State, find_family, observe  # noqa: E402
from erren.engine.resample import resample  # noqa: E402
from erren.rl.actions import action_index, index_action  # noqa: E402
from erren.rl.planes import encode_observation  # noqa: E402

GB = find_family("guobiao-2p")


class Watcher(LearnedBot):
    """The learned bot, keeping every observation it decided from and what it chose."""

    def __init__(self) -> None:
        super().__init__(seed=1)
        self.seen: list[tuple[Observation, list[Action], Action]] = []

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:  # type: ignore[override]
        chosen = super().choose(observation, legal_actions)
        assert chosen in legal_actions
        self.seen.append((observation, list(legal_actions), chosen))
        return chosen


def _results(bot_seed: int, hands: int) -> list[str]:
    bots = [find_bot("learned", seed=bot_seed, ruleset=GB), find_bot("efficiency", seed=2)]
    out = []
    for seed in range(hands):
        state = play_hand(State.new(GB, seed=seed, dealer=seed % 2), bots)
        out.append(str(state.result))
    return out


def test_learned_plays_legal_moves_to_the_end_and_deterministically() -> None:
    assert _results(5, 12) == _results(5, 12)


def test_learned_decides_from_the_observation_alone() -> None:
    """Redraw what the player cannot see: the same move."""
    watcher = Watcher()
    for seed in range(6):
        play_hand(State.new(GB, seed=seed, dealer=seed % 2), [watcher, find_bot("efficiency")])
    rng = random.Random(3)
    checked = 0
    for obs, legal, chosen in watcher.seen[::2]:
        twin = resample(GB, obs, rng)
        assert LearnedBot(seed=9).choose(observe(twin, obs.player), legal) == chosen
        checked += 1
    assert checked > 20


def test_learned_always_wins_when_it_may() -> None:
    watcher = Watcher()
    for seed in range(30):
        play_hand(State.new(GB, seed=seed, dealer=seed % 2), [watcher, find_bot("efficiency")])
    wins = [c for _, legal, c in watcher.seen if any(a.kind is ActionKind.HU for a in legal)]
    assert all(c.kind is ActionKind.HU for c in wins)


def test_learned_discards_only_tiles_that_leave_the_least_shanten() -> None:
    watcher = Watcher()
    for seed in range(8):
        play_hand(State.new(GB, seed=seed, dealer=seed % 2), [watcher, find_bot("efficiency")])
    checked = 0
    for obs, legal, chosen in watcher.seen:
        if chosen.kind not in (ActionKind.DISCARD, ActionKind.TING) or chosen.tile is None:
            continue
        hand, _ = seen_counts(obs)
        after = {}
        for a in legal:
            if a.kind is ActionKind.DISCARD:
                counts = list(hand)
                counts[a.tile_kind()] -= 1
                after[a.tile_kind()] = shanten(counts, shapes=watcher.fallback.shapes)
        assert after[int(chosen.tile)] == min(after.values())
        checked += 1
    assert checked > 50


def test_the_network_is_relu_layers_over_the_kept_inputs() -> None:
    """A two-layer network computed by hand: inputs 0 and 35 (row 1, column 1) kept."""
    w0 = np.array([[1.0, -1.0], [2.0, 0.5]], dtype=np.float32)
    b0 = np.array([0.0, 0.25], dtype=np.float32)
    w1 = np.zeros((2, 269), dtype=np.float32)
    w1[0, 7], w1[1, 8] = 1.0, 1.0
    net = Network(np.array([0, 35]), [(w0, b0), (w1, np.zeros(269, dtype=np.float32))])
    planes = np.zeros((44, 34), dtype=np.float32)
    planes[0, 0], planes[1, 1], planes[2, 2] = 1.0, 1.0, 1.0  # (2, 2) is not kept
    # hidden = relu([1 + 2·1 + 0, −1 + 0.5 + 0.25]) = [3, 0]
    logits = net.logits(planes)
    assert (logits[7], logits[8]) == (3.0, 0.0)
    assert np.count_nonzero(logits) == 1


def test_the_shipped_weights_read_every_planes_column_the_data_sets_use() -> None:
    net = Network.load()
    assert net.layers[0][0].shape[0] == len(net.keep)
    assert net.layers[-1][0].shape[1] == 269
    assert all(0 <= k < 44 * 34 for k in net.keep)


def test_the_data_set_records_the_experts_legal_choices() -> None:
    samples = generate(3, seed=4)
    assert len(samples.chosen) > 20
    for planes, mask, chosen in zip(samples.planes, samples.masks, samples.chosen, strict=True):
        assert mask[chosen] == 1
        assert planes.dtype == np.uint8
        assert planes.shape == (44, 34)


def test_action_indices_and_quantised_planes_round_trip() -> None:
    state = State.new(GB, seed=11)
    for _ in range(40):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        for action in legal:
            assert index_action(action_index(action), action.player) == action
        planes = encode_observation(observe(state, state.actor))
        assert np.abs(quantize(planes) / 255.0 - planes).max() <= 0.5 / 255.0 + 1e-6
        state.apply(legal[0])
