"""Export a batch of hands as the full mjai log, import it back: the same games."""

from __future__ import annotations

import io
import json

import pytest

from erren.engine import Record, replay
from erren.mjai.export import export_mjai
from erren.mjai.imports import import_mjai
from erren.mjai.stream import MjaiError
from erren.sim.simulator import simulate

from ._support.play import FAMILIES, play, ruleset_of


def _simulated(family: str, hands: int, seed: int) -> list[Record]:
    out = io.StringIO()
    simulate(ruleset_of(family), ["efficiency", "random"], hands=hands, seed=seed, jsonl=out)
    return [Record.from_json(line) for line in out.getvalue().splitlines()]


def _through_mjai(records: list[Record]) -> list[Record]:
    lines = [json.dumps(m, ensure_ascii=False) for m in export_mjai(records)]
    return list(import_mjai((n, json.loads(text)) for n, text in enumerate(lines, 1)))


def _assert_same_games(records: list[Record]) -> None:
    back = _through_mjai(records)
    assert len(back) == len(records)
    for original, imported in zip(records, back, strict=True):
        assert replay(imported).fingerprint() == replay(original).fingerprint()
        assert imported.result == replay(original).record().result
        assert (imported.dealer, imported.round_wind, imported.streak, imported.seed) == (
            original.dealer,
            original.round_wind,
            original.streak,
            original.seed,
        )


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_simulated_hands_come_back_the_same(family: str) -> None:
    _assert_same_games(_simulated(family, 25, seed=7))


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_hands_with_passes_timeouts_and_trustee_come_back_the_same(family: str) -> None:
    records = [play(ruleset_of(family, privacy=s % 2 == 0), s).record() for s in range(20)]
    _assert_same_games(records)


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_many_simulated_hands_come_back_the_same(family: str) -> None:
    """Slow (about 7 s): many simulated hands exported to mjai and imported back."""
    _assert_same_games(_simulated(family, 300, seed=2026))


def test_several_rulesets_in_one_log() -> None:
    records = [play(ruleset_of(f), s, system=False).record() for s, f in enumerate(FAMILIES)]
    _assert_same_games(records)


def test_an_unfinished_hand_imports_as_far_as_it_goes() -> None:
    record = play(ruleset_of("guobiao-2p"), 4, system=False).record()
    short = Record.from_dict({**record.to_dict(), "actions": list(record.actions[:20])})
    short = Record.from_dict({k: v for k, v in short.to_dict().items() if k != "result"})
    (back,) = _through_mjai([short])
    assert back.actions == short.actions
    assert replay(back).fingerprint() == replay(short).fingerprint()


def _log(record: Record, seat: int | None = None) -> list[dict[str, object]]:
    return [json.loads(json.dumps(m)) for m in export_mjai([record], seat)]


def _import(messages: list[dict[str, object]]) -> list[Record]:
    return list(import_mjai(enumerate(messages, 1)))


def test_a_seat_stream_is_refused_as_such() -> None:
    record = play(ruleset_of("xiamen"), 1, system=False).record()
    with pytest.raises(MjaiError, match="line 1: this is seat 1's stream, not a full log"):
        _import(_log(record, 1))


def test_a_tampered_log_names_the_line() -> None:
    record = play(ruleset_of("guobiao-2p"), 2, system=False).record()
    messages = _log(record)
    i = next(i for i, m in enumerate(messages) if m["type"] == "dahai" and i > 5)
    messages[i] = {**messages[i], "pai": "N" if messages[i]["pai"] != "N" else "S"}
    with pytest.raises(MjaiError, match=rf"line {i + 1}: .*does not follow"):
        _import(messages)


def test_a_log_without_its_wall_or_game_is_refused() -> None:
    record = play(ruleset_of("guobiao-2p"), 2, system=False).record()
    messages = [m for m in _log(record) if m["type"] != "erren:shuffle"]
    with pytest.raises(MjaiError, match="line 2: the hand has no erren:shuffle"):
        _import(messages)
    with pytest.raises(MjaiError, match="line 1: start_kyoku before start_game"):
        _import(_log(record)[1:])
    with pytest.raises(MjaiError, match="line 3: an mjai message is a JSON object"):
        _import([*_log(record)[:2], [1, 2]])  # type: ignore[list-item]
