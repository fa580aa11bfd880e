"""何切る drills (erren.review.drills): a hand-built last discard against 报听 whose every
tile's value the test computes by the family's rule; the puzzle keeps only the seat's view; a
player's own costliest discard becomes his puzzle; the shipped corpus holds puzzles of every
family that are worth asking."""

from __future__ import annotations

import json
from importlib import resources

from erren.bots.base import play_hand
from erren.bots.levels import Level, level_bot
from erren.engine import ActionKind, Record, State, family_names, find_family
from erren.review import review_hand
from erren.review.drills import (
    Source,
    corpus_json,
    make_puzzle,
    master_bot,
    puzzle_view,
    read_corpus,
    record_sources,
)

from ._support import last_discard_against_ting

RULES = "guobiao-2p"
SEEN_ONLY = {
    "player", "dealer", "round_wind", "phase", "to_act", "origin", "pending", "hand",
    "last_drawn", "melds", "hidden_kongs", "discards", "claimed", "flowers", "concealed_count",
    "wall_count", "ting", "view", "streak", "ting_at",
}  # fmt: skip


def _value(state: State, tile: str) -> float:
    """What seat 0 is paid when he throws ``tile`` (the opponent wins on his waits; a draw
    pays nothing), played out by the engine: the family's rule, not the drill's code."""
    after = state.clone()
    throw = next(a for a in after.legal_actions() if str(a.tile) == tile)
    after.apply(throw)
    while after.result is None:
        legal = after.legal_actions()
        win = next((a for a in legal if a.kind.is_win), None)
        after.apply(win if win is not None else legal[0])
    return float(after.result.deltas[0])


def test_a_last_discard_against_ting_has_every_tile_valued_exactly() -> None:
    state = last_discard_against_ting()
    rules = state.ruleset
    obs = state.observe(0)
    assert all(a.kind is ActionKind.DISCARD for a in obs.legal_actions)
    source = Source(rules, obs, "6m", seed=5, by="player")
    puzzle = make_puzzle(source, master_bot(rules, 3), ident="t.1", rollouts=4)
    tiles = sorted({str(t) for t in obs.hand})
    assert sorted(c.tile for c in puzzle.choices) == tiles
    values = {t: _value(state, t) for t in tiles}
    assert values["6m"] < 0  # his wait
    for choice in puzzle.choices:
        assert choice.ev == values[choice.tile], choice.tile
    best = max(values.values())
    assert values[puzzle.answer] == best == 0.0  # 大师 throws a safe tile
    assert puzzle.loss("6m") == best - values["6m"]
    assert puzzle.foil == "6m" and puzzle.by == "player" and puzzle.worlds == 4
    # best estimate first, ties by tile
    assert [c.tile for c in puzzle.choices] == sorted(tiles, key=lambda t: (-values[t], t))


def test_a_puzzle_keeps_only_what_the_seat_saw() -> None:
    state = last_discard_against_ting()
    obs = state.observe(0)
    puzzle = make_puzzle(Source(state.ruleset, obs, "6m", 1, "player", "1z"), None, ident="t.2")
    assert set(puzzle.observation) == SEEN_ONLY
    assert puzzle.observation["hand"] == [str(t) for t in obs.hand]
    assert puzzle.observation["concealed_count"] == [14, 13]  # the opponent's: a count only
    assert "1234567899m" not in json.dumps(puzzle.to_dict())
    shown = puzzle_view(puzzle)
    assert set(shown) == {"id", "family", "observation", "tiles"}
    assert shown["tiles"] == sorted({str(t) for t in obs.hand})
    assert puzzle.answer == "1z"  # the source's answer, not asked again
    again = read_corpus(corpus_json([puzzle], {"by": "test"}))
    assert again[0].to_dict() == {**puzzle.to_dict()} and again[0].options == puzzle.options


def test_a_players_costliest_discards_become_his_puzzles() -> None:
    """入门's hand (seed 12) reviewed: his three costliest decisions are two discards and a
    报听; the two discards (every legal move a discard there) are his puzzles."""
    rules = find_family(RULES)
    state = State.new(rules, seed=12, dealer=0)
    play_hand(
        state,
        [level_bot(Level.NOVICE, seed=1, ruleset=rules), level_bot(Level.NORMAL, ruleset=rules)],
    )
    record = Record.of(state)
    review = review_hand(record, 0, master_bot(rules), rollouts=2, seed=0)
    ranked = sorted(review.decisions, key=lambda d: -d.loss)[:3]
    wanted = {
        d.step: d
        for d in ranked
        if d.loss > 0 and d.player.text.startswith("discard:") and d.bot.text.startswith("discard:")
    }
    assert len(wanted) == 2 and any(d.player.text.startswith("ting:") for d in ranked)
    sources = list(record_sources(record, review))
    assert [s.seed for s in sources] == sorted(wanted)  # hand 0: a source's seed is its step
    for source in sources:
        decision = wanted[source.seed]
        assert source.thrown == decision.player.tiles[0]
        assert source.answer == decision.bot.tiles[0]
        puzzle = make_puzzle(source, None, ident="mine", rollouts=2)
        assert puzzle.foil == decision.player.tiles[0] and puzzle.by == "player"
        assert puzzle.answer == decision.bot.tiles[0]


def test_the_shipped_corpus_has_worthwhile_puzzles_of_every_family() -> None:
    text = resources.files("erren.review").joinpath("drills.json").read_text(encoding="utf-8")
    lines = text.splitlines()
    head = json.loads(lines[0])
    assert head["schema"] == "erren-drills/1"
    assert head["made_by"]["script"] == "python -m erren.review.drills_corpus"
    rows = [json.loads(line) for line in lines[1:]]
    families = {r["family"] for r in rows}
    assert families == {"guobiao-2p", "xiamen", "arcade"} <= set(family_names())
    assert len({r["id"] for r in rows}) == len(rows)
    assert len(text.encode()) < 600_000  # small
    for r in rows:
        ev = {c[0]: c[1] for c in r["choices"]}
        threshold = find_family(r["family"]).review_bad_loss * head["made_by"]["args"]["material"]
        # the file keeps the points to 2 decimals: the choice was made on the unrounded ones
        assert max(ev.values()) - ev[r["answer"]] <= threshold + 0.01, r["id"]
        assert ev[r["answer"]] - ev[r["foil"]] > threshold - 0.01, r["id"]
        assert r["answer"] != r["foil"]
        assert len(ev) >= 2 and set(ev) <= set(r["observation"]["hand"]), r["id"]
        assert set(r["observation"]) == SEEN_ONLY
