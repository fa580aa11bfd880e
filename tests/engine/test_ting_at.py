"""Where each seat declared 报听 is public (``Observation.ting_at``): the index of his 报听
discard in his river, the same in both seats' views and in a resampled state; and the tiles he
throws after it are ones his locked hand does not win on (guobiao-2p §2.8, ``ting_auto_hu`` on:
a drawn tile that wins is taken, so a thrown one does not), over many random hands."""

from __future__ import annotations

import random

from erren.analysis.shapes import GUOBIAO_2P
from erren.analysis.waits import waits
from erren.bots import find_bot
from erren.engine import State, find_family
from erren.engine.resample import resample


def _played_until_both_locked_or_end(seed: int) -> list[State]:
    """A guobiao-2p hand between two 普通 bots (which declare 报听 when they can), with the state
    after each action."""
    state = State.new(find_family("guobiao-2p"), seed=seed, dealer=seed % 2)
    bots = (find_bot("efficiency", seed=seed), find_bot("efficiency", seed=seed + 1))
    states = [state.clone()]
    while not state.is_terminal:
        seat = state.current_player()
        view = state.observe(seat)
        state.apply(bots[seat].choose(view, view.legal_actions))
        states.append(state.clone())
    return states


def test_ting_at_marks_the_declaring_discard_and_later_throws_are_not_waits() -> None:
    declared = after = 0
    for seed in range(300):
        states = _played_until_both_locked_or_end(seed)
        for state in states:
            for seat in (0, 1):
                mine, theirs = state.observe(seat), state.observe(1 - seat)
                assert mine.ting_at == theirs.ting_at  # public: the same in both views
                at = mine.ting_at[seat]
                if not mine.ting[seat]:
                    assert at == -1
                    continue
                # the declaring discard is the one the 报听 event threw
                assert 0 <= at < len(mine.discards[seat])
        last = states[-1]
        for seat in (0, 1):
            at = last.observe(seat).ting_at[seat]
            if at < 0:
                continue
            declared += 1
            # his locked tiles: his hand just before the 报听 less the declaring discard (the
            # engine plays on automatically within the same step)
            before = states[next(i for i, s in enumerate(states) if s.ting[seat]) - 1]
            locked = list(before.hands[seat])
            locked[last.discards[seat][at]] -= 1
            held = before.meld_counts[seat] if before.melds[seat] else None
            wins = set(waits(locked, shapes=GUOBIAO_2P, held=held))
            assert wins  # ready, as 报听 requires
            for tile in last.discards[seat][at + 1 :]:
                after += 1
                assert tile not in wins, (seed, seat, tile, wins)
    # the check was not empty: both kinds of facts were seen many times
    assert declared >= 100 and after >= 300, (declared, after)


def test_a_resampled_state_keeps_ting_at() -> None:
    rng = random.Random(5)
    for seed in range(200):
        for state in _played_until_both_locked_or_end(seed)[:-1]:
            seat = state.current_player()
            if seat not in (0, 1) or not any(state.ting):
                continue
            view = state.observe(seat)
            sample = resample(state.ruleset, view, rng)
            assert sample.observe(seat).ting_at == view.ting_at
            assert sample.tianting == [view.ting_at[s] == 0 and view.ting[s] for s in (0, 1)]
            return
    raise AssertionError("no 报听 position in 200 hands")
