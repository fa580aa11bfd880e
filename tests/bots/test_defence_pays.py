"""The defence that pays (guobiao-2p, knob ``pays``): against a 报听 opponent 大师 never throws a
risky tile while a certainly-safe one keeps it as close to ready, it folds when the risk × the
payment of a deal-in outweighs what the hand is worth, and a bot against itself still comes out
at 0."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from erren.analysis.shanten import shanten
from erren.analysis.shapes import GUOBIAO_2P
from erren.analysis.waits import waits
from erren.bots import EfficiencyBot
from erren.bots.efficiency import seen_counts
from erren.bots.expert import ExpertBot
from erren.bots.expert.knobs import Knobs
from erren.bots.levels import Level, level_bot
from erren.engine import Action, ActionKind, Observation, State, find_family
from erren.engine.phases import Phase
from erren.families.guobiao.bot.defence import (
    Option,
    deal_in_payment,
    defend,
    race_value,
    self_drawn_payment,
)
from erren.families.guobiao.bot.strategy import valuer_of
from erren.sim.arena import arena
from erren.tiles import NUM_KINDS

FAMILY = find_family("guobiao-2p")


def _turns(seeds: range, *, declared: bool) -> Iterator[tuple[State, Observation]]:
    """Turns with a choice of a seat whose opponent has (``declared``) or has not declared
    报听, in hands two 普通 bots play."""
    for seed in seeds:
        state = State.new(FAMILY, seed=seed, dealer=seed % 2)
        bots = (EfficiencyBot(), EfficiencyBot())
        while not state.is_terminal:
            seat = state.current_player()
            view = state.observe(seat)
            if (
                view.phase is Phase.TURN
                and view.ting[1 - seat] == declared
                and len(view.legal_actions) > 1
            ):
                yield state, view
            state.apply(bots[seat].choose(view, view.legal_actions))


def _facing_ting(seeds: range) -> Iterator[tuple[State, Observation]]:
    """Turns of a seat whose opponent has declared 报听."""
    return _turns(seeds, declared=True)


def _safe_by_rule(view: Observation) -> set[int]:
    """The kinds thrown after the opponent's 报听 discard, by him or by the player (his locked
    hand takes every win): the seats alternate, so in the player's turn his last ``k`` discards
    followed it, ``k`` the opponent's discards after it."""
    opp, me = view.opponent, view.player
    theirs = view.discards[opp][view.ting_at[opp] + 1 :]
    mine = view.discards[me][len(view.discards[me]) - len(theirs) :] if theirs else ()
    return {int(t) for t in (*theirs, *mine)}


def _shanten_after(view: Observation, kind: int) -> int:
    hand, _ = seen_counts(view)
    hand[kind] -= 1
    return shanten(hand, shapes=GUOBIAO_2P)


def _discarded(action: Action) -> int | None:
    return action.tile_kind() if action.kind in (ActionKind.DISCARD, ActionKind.TING) else None


def test_a_certainly_safe_tile_as_close_to_ready_is_thrown_before_a_risky_one() -> None:
    """Searches played hands for four turns where 大师 without the defence (``pays=0``) throws a
    tile that is not certainly safe though a certainly-safe one keeps its hand as close to ready;
    the 大师 players meet (the level, the defence that pays on) throws a certainly-safe one
    there, as close to ready, and it is indeed no winning tile of the opponent's real hand."""
    old = ExpertBot(seed=1, knobs=Knobs(pays=False))
    old.bind(FAMILY)
    new = level_bot(Level.MASTER, seed=1, ruleset=FAMILY)
    found = 0
    for state, view in _facing_ting(range(400)):
        legal = view.legal_actions
        before = _discarded(old.choose(view, legal))
        safe = _safe_by_rule(view)
        if before is None or before in safe:
            continue
        level = _shanten_after(view, before)
        held = {a.tile_kind() for a in legal if a.kind is ActionKind.DISCARD}
        if not any(k in held and _shanten_after(view, k) <= level for k in safe):
            continue
        after = _discarded(new.choose(view, legal))
        assert after is not None and after in safe, (view.hand, before, after, safe)
        assert _shanten_after(view, after) <= level
        opp = view.opponent
        hand = list(state.hands[opp])
        melded = state.meld_counts[opp] if state.melds[opp] else None
        assert after not in waits(hand, shapes=GUOBIAO_2P, held=melded)
        found += 1
        if found == 4:
            return
    raise AssertionError(f"only {found} such turns in 400 hands")


def test_race_value_over_one_and_two_rounds() -> None:
    # ready: his draw ends it with q, then his discard and the player's draw win with w/2 each
    q, w, pay = 0.1, 0.2, 10.0
    one = (1 - q) * (w / 2) * pay + (1 - q) * (1 - w / 2) * (w / 2) * pay
    got = race_value(
        ready_chance=0.0, win_chance=w, payment=pay, their_chance=q, rounds=1, ready=True
    )
    assert abs(got - one) < 1e-12
    alive = (1 - q) * (1 - w / 2) ** 2  # still playing, ready, after one round
    two = one + alive * (1 - q) * ((w / 2) + (1 - w / 2) * (w / 2)) * pay
    got = race_value(
        ready_chance=0.0, win_chance=w, payment=pay, their_chance=q, rounds=2, ready=True
    )
    assert abs(got - two) < 1e-12
    # one from ready: ready only after the player's first draw, so one round gains nothing and
    # the second wins as a ready hand would in one round, from the chance c of getting there
    c = 0.3
    got = race_value(
        ready_chance=c, win_chance=w, payment=pay, their_chance=q, rounds=2, ready=False
    )
    assert abs(got - (1 - q) * c * one) < 1e-12


def test_the_score_weighs_risk_times_payment_against_the_gain() -> None:
    payment = 17.0
    keep = Option(tile=0, shanten=0, gain=4.0, risk=0.2)  # 0.8 × 4 − 0.2 × 17 = −0.2
    fold = Option(tile=1, shanten=2, gain=0.0, risk=0.0)  # 0
    assert abs(keep.score(payment) - (0.8 * 4.0 - 0.2 * 17.0)) < 1e-12
    assert fold.score(payment) > keep.score(payment)
    # a smaller risk: 0.9 × 4 − 0.1 × 17 = 1.9 > 0, the hand is kept
    assert Option(0, 0, 4.0, 0.1).score(payment) > fold.score(payment)


class _FixedRisk:
    """A risk model that names each kind's chance."""

    def __init__(self, chances: Sequence[float]) -> None:
        self.figures = list(chances)

    def chances(self, observation: Observation) -> Sequence[float]:
        return self.figures


def test_folding_from_far_pays() -> None:
    """Two or more from ready the hand only loses what the opponent's own win costs, ``L``, the
    same after either discard; with risk 0.3 on the fast choice and 0 on a tile that leaves the
    hand further from ready the scores are 0.7 × (−L) − 0.3 × P against −L: it folds when
    L < P.  Here the other held kinds are given risk 0.05 and the rest 0, so his chance to draw his
    win is q = Σ risk × unseen copies / unseen tiles, and L ≤ 20 × (1 − (1 − q)^rounds) (table
    ``2p``: a self-drawn 报听 win counts 17 + 3 fan, no flowers in this table by default)."""
    bot = ExpertBot(seed=1)
    bot.bind(FAMILY)
    fallback = EfficiencyBot()
    for _, view in _facing_ting(range(300)):
        legal = view.legal_actions
        chosen = fallback.choose(view, legal)
        tile = _discarded(chosen)
        if tile is None or view.flowers[view.opponent]:
            continue
        level = _shanten_after(view, tile)
        held = sorted({a.tile_kind() for a in legal if a.kind is ActionKind.DISCARD})
        worse = [k for k in held if _shanten_after(view, k) > level]
        if level < 2 or not worse:
            continue
        risk = [0.0] * NUM_KINDS
        for k in held:
            risk[k] = 0.05
        risk[tile], risk[worse[0]] = 0.3, 0.0
        _, visible = seen_counts(view)
        pool = view.wall_count + view.concealed_count[view.opponent]
        q = min(1.0, sum(risk[k] * max(0, 4 - visible[k]) for k in range(NUM_KINDS)) / pool)
        if 20 * (1 - (1 - q) ** (view.wall_count // 2)) >= 17:
            continue
        valuer = valuer_of(bot, view)
        got = defend(view, legal, chosen, valuer, _FixedRisk(risk))
        assert _discarded(got) == worse[0]
        # and with no risk on the fast choice, it stays
        risk[tile] = 0.0
        assert defend(view, legal, chosen, valuer, _FixedRisk(risk)) == chosen
        return
    raise AssertionError("no turn two from ready against 报听 in 300 hands")


def test_the_deal_in_payment_is_the_tables_settlement() -> None:
    # table 2p: 1 fan = 1 point, no cap, 点和 ×1, and 2 fan for each flower (补花)
    _, view = next(_facing_ting(range(50)))
    bot = ExpertBot(seed=1)
    bot.bind(FAMILY)
    flowers = len(view.flowers[view.opponent])
    assert deal_in_payment(valuer_of(bot, view), view) == 17 + 2 * flowers
    assert self_drawn_payment(valuer_of(bot, view), view) == 17 + 3 + 2 * flowers


def test_the_defending_bot_against_itself_is_exactly_zero() -> None:
    result = arena(FAMILY, ("expert[pays=1]", "expert[pays=1]"), deals=3, seed=7)
    assert result.mean == 0.0


def test_before_his_ting_the_defence_plays_only_with_pays_before_and_reads_the_injected_risk() -> (
    None
):
    """An injected risk model (``ExpertBot.risk``: how the ceiling benchmark tells the defence
    the opponent's real winning tiles) puts certainty on 大师's own choice.  Before his 报听 the
    defence leaves the choice alone unless ``pays_before`` is on; with it (and no folding) it
    throws another tile that keeps the hand exactly as close to ready."""
    found = 0
    for _, view in _turns(range(60), declared=False):
        legal = view.legal_actions
        plain = ExpertBot(seed=1, knobs=Knobs(pays=True))
        plain.bind(FAMILY)
        choice = _discarded(plain.choose(view, legal))
        if choice is None:
            continue
        level = _shanten_after(view, choice)
        held = {a.tile_kind() for a in legal if a.kind is ActionKind.DISCARD}
        if not any(k != choice and _shanten_after(view, k) == level for k in held):
            continue
        risk = [0.0] * NUM_KINDS
        risk[choice] = 1.0
        told = ExpertBot(seed=1, knobs=Knobs(pays=True))
        told.bind(FAMILY)
        told.risk = _FixedRisk(risk)
        assert _discarded(told.choose(view, legal)) == choice  # not before his 报听
        before = ExpertBot(seed=1, knobs=Knobs(pays=True, pays_before=True, pays_fold=False))
        before.bind(FAMILY)
        before.risk = _FixedRisk(risk)
        other = _discarded(before.choose(view, legal))
        assert other is not None and other != choice
        assert _shanten_after(view, other) == level
        found += 1
        if found == 5:
            return
    raise AssertionError(f"only {found} such turns in 60 hands")


def test_pays_before_is_an_arena_knob() -> None:
    assert Knobs.parse("pays=1;pays_before=1").pays_before is True
    assert Knobs().pays_before is False


def test_the_ceiling_benchmark_prints_its_rows(run_benchmark: Callable[..., str]) -> None:
    """``python -m benchmarks.bench_defence_ceiling`` as the README runs it, on four deals: one
    table row per asked variant, each A − B inside its own interval."""
    printed = run_benchmark(
        "bench_defence_ceiling", "--deals", "4", "--seed", "5", "--rows", "1,4", "--workers", "1"
    )
    rows = [
        line
        for line in printed.splitlines()
        if line.startswith("| after") or line.startswith("| also")
    ]
    assert [r.split("|")[1].strip() for r in rows] == [
        "after 报听, folding",
        "also before 报听, as close to ready",
    ]
    for row in rows:
        cells = [c.strip() for c in row.split("|")]
        mean = float(cells[2])
        low, high = (float(x) for x in cells[3].strip("[]").split(","))
        assert low <= mean <= high
