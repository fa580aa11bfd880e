"""External bots over mjai: the Node.js example bot plays full arena runs in every family,
a simulation and its stream keep the answering rule, and a bot that answers late, answers
wrongly or exits gets a one-line error and the spec's default move (a ``timeout``), and the
game goes on."""

from __future__ import annotations

import io
import json
import resource
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from erren.bots import Bot, BotError, find_bot
from erren.bots.base import play_hand
from erren.engine import Action, ActionKind, Event, EventKind, Observation, State, find_family
from erren.engine.autoplay import default_move
from erren.engine.record import replay
from erren.mjai.bot import LEGAL_KEY, MjaiBot, mjai_command, split_bot_specs
from erren.mjai.process import MAX_LINE_CHARS, BotProgram, ProgramLateError
from erren.mjai.stream import action_to_mjai
from erren.sim.arena import arena, make_bot
from erren.sim.simulator import simulate
from erren.testing.mjai_bots import DEAF, ENDLESS, EXITS, GARBAGE_ONCE, LATE_ONCE, OVERSIZED

ROOT = Path(__file__).resolve().parents[2]
NODE_BOT = ROOT / "examples" / "mjai-bot" / "bot.js"
NODE = shutil.which("node")
FAMILIES = ("guobiao-2p", "xiamen", "arcade")


def node_command() -> str:
    assert NODE is not None, "node is needed (scripts/system-deps.sh installs nodejs)"
    return f"{NODE} {NODE_BOT}"


class SameRule(Bot):
    """The example bot's rule in Python, on the same mjai forms: win; else the drawn tile, else
    the first discard; else pass; else the first legal move."""

    name = "same-rule"

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        forms = [action_to_mjai(a, observation) for a in legal_actions]
        types = [f["type"] for f in forms]
        if "hora" in types:
            return legal_actions[types.index("hora")]
        discards = [i for i, t in enumerate(types) if t == "dahai"]
        if discards:
            drawn = [i for i in discards if forms[i].get("tsumogiri") is True]
            return legal_actions[(drawn or discards)[0]]
        if "none" in types:
            return legal_actions[types.index("none")]
        return legal_actions[0]


# ---------------------------------------------------------------------- bot specs
def test_bot_specs_split_at_the_comma_that_starts_the_next_spec() -> None:
    assert split_bot_specs("efficiency,random") == ["efficiency", "random"]
    assert split_bot_specs("mjai:node a.js --x 1,2,expert") == ["mjai:node a.js --x 1,2", "expert"]
    assert split_bot_specs("expert,mjai:node a.js --x 1,2") == ["expert", "mjai:node a.js --x 1,2"]
    assert split_bot_specs("mjai:node a.js,mjai:node b.js") == ["mjai:node a.js", "mjai:node b.js"]
    assert split_bot_specs("mjai:node a.js") == ["mjai:node a.js"]
    assert split_bot_specs("a,") == ["a", ""]
    assert mjai_command("mjai: node a.js ") == "node a.js"
    assert mjai_command("expert") is None


_NAMES = st.sampled_from(["efficiency", "expert", "random", "novice", "master", "高手"])
_COMMANDS = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyz0123456789 ,./-=_", min_size=1, max_size=40
).filter(lambda c: c.strip() == c and "mjai:" not in c and c)


@given(_COMMANDS, _NAMES)
def test_an_mjai_command_keeps_its_commas(command: str, name: str) -> None:
    spec = "mjai:" + command
    assert split_bot_specs(f"{spec},{name}") == [spec, name]
    assert split_bot_specs(f"{name},{spec}") == [name, spec]
    assert split_bot_specs(f"{spec},{spec}") == [spec, spec]
    assert mjai_command(spec) == command


def test_a_missing_program_is_refused_before_anything_runs() -> None:
    with pytest.raises(ValueError, match="mjai bot command not found: 'no-such-bot-program'"):
        make_bot("mjai:no-such-bot-program --x", 0, find_family("guobiao-2p"))
    with pytest.raises(ValueError, match="needs a command"):
        MjaiBot("  ")
    with pytest.raises(ValueError, match="timeout must be > 0"):
        MjaiBot("cat", timeout=0)


# ---------------------------------------------------------------------- the node bot
@pytest.mark.parametrize(
    "family",
    [
        family if family == "guobiao-2p" else pytest.param(family, marks=pytest.mark.slow)
        for family in FAMILIES
    ],
)  # one family in every run, the others in make test (40 games each through the program)
def test_the_node_bot_plays_a_full_arena_run(
    family: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = find_family(family)
    spec = "mjai:" + node_command()
    records = io.StringIO()
    result = arena(rules, (spec, "efficiency"), deals=20, seed=7, jsonl=records)
    assert "mjai bot" not in capsys.readouterr().err  # every answer on time and legal
    a, b = result.sides
    assert result.games == 40 and a.games == b.games == 40
    assert a.wins + b.wins + result.draws + result.aborts == 40
    assert result.aborts == 0
    assert a.points + b.points == 0
    assert a.decisions > 40 * 5
    lines = records.getvalue().splitlines()
    assert len(lines) == 40
    assert not any(":timeout" in act for line in lines for act in json.loads(line)["actions"])


@pytest.mark.parametrize("family", FAMILIES)
def test_the_node_bot_plays_exactly_its_rule(family: str) -> None:
    """The program, fed its seat's stream and answering over the pipe, makes the moves the
    same rule makes in Python from the same legal moves: hand for hand the same records."""
    rules = find_family(family)
    node = MjaiBot(node_command())
    node.bind(rules)
    try:
        for seed in range(8):
            played = []
            for bot in (node, SameRule()):
                state = State.new(rules, seed=seed, dealer=seed % 2)
                play_hand(state, [bot, find_bot("efficiency", seed=seed, ruleset=rules)])
                played.append(state.record().to_json())
            assert played[0] == played[1]
        assert node.faults == 0
    finally:
        node.close()


def test_the_node_bot_plays_a_simulation_as_one_program(tmp_path: Path) -> None:
    rules = find_family("guobiao-2p")
    bot = MjaiBot(node_command())
    stats = simulate(rules, (bot, "efficiency"), hands=12, seed=3, match_length=4)
    assert stats.hands == 12 and stats.matches == 3
    assert bot.faults == 0
    assert bot.program.running  # a bot the caller built is the caller's to close
    bot.close()
    assert not bot.program.running


# ---------------------------------------------------------------------- the stream
RECORDER = """
import json, sys
log = open(sys.argv[1], "w")
for line in sys.stdin:
    log.write(line); log.flush()
    message = json.loads(line)
    if "erren:legal" in message:
        print(json.dumps(message["erren:legal"][0]), flush=True)
"""


def test_only_messages_with_legal_moves_are_answered(tmp_path: Path) -> None:
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER)
    log = tmp_path / "stream.jsonl"
    rules = find_family("guobiao-2p")
    bot = MjaiBot(f"{sys.executable} {script} {log}")
    bot.bind(rules)
    decisions = [0]

    class Counting(Bot):
        name = "counting"
        listens = True

        def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
            decisions[0] += 1
            return bot.choose(observation, legal)

        def hear(self, observation: Observation, events: Sequence[Event]) -> None:
            bot.hear(observation, events)

    for seed in (1, 2):
        play_hand(State.new(rules, seed=seed, dealer=seed % 2), [Counting(), find_bot("random")])
    bot.close()
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    assert messages[0]["type"] == "start_game" and messages[-1]["type"] == "end_game"
    asked = [m for m in messages if LEGAL_KEY in m]
    assert len(asked) == decisions[0] > 0
    assert bot.faults == 0


# ---------------------------------------------------------------------- faults
def _play_with(tmp_path: Path, source: str, seed: int = 11) -> tuple[State, MjaiBot, list[str]]:
    script = tmp_path / "bot.py"
    script.write_text(source)
    rules = find_family("guobiao-2p")
    errors: list[str] = []
    bot = MjaiBot(f"{sys.executable} {script}", timeout=0.3, label="faulty", report=errors.append)
    bot.bind(rules)
    state = State.new(rules, seed=seed, dealer=0)
    try:
        play_hand(state, [bot, find_bot("efficiency", seed=1)])
    finally:
        bot.close()
    return state, bot, errors


def _timeouts(state: State) -> list[tuple[int, Action, str]]:
    """Each timeout of the hand: its index in the record, the default move the spec gives for
    the state before it (§2.9, :func:`autoplay.default_move`) and the move the engine made."""
    record = state.record()
    events = [e for e in state.events if e.kind is EventKind.TIMEOUT]
    found = []
    for index, text in enumerate(record.actions):
        if text.endswith(":timeout"):
            before = replay(record, upto=index)
            found.append((index, default_move(before, before.actor), ""))
    return [(i, move, events[k].word("move")) for k, (i, move, _) in enumerate(found)]


def test_a_late_answer_is_a_timeout_and_the_next_answers_count(tmp_path: Path) -> None:
    state, bot, errors = _play_with(tmp_path, LATE_ONCE)
    assert state.is_terminal and state.result is not None
    assert errors == [
        "erren: mjai bot 'faulty' at seat 0: no answer within 0.3 s; "
        "the default move is played (a timeout)"
    ]
    timeouts = _timeouts(state)
    assert len(timeouts) == 1 and bot.faults == 1
    _, expected, made = timeouts[0]
    assert made == str(expected)


def test_garbage_and_illegal_answers_are_timeouts(tmp_path: Path) -> None:
    state, bot, errors = _play_with(tmp_path, GARBAGE_ONCE)
    assert state.is_terminal
    assert len(errors) == 2 and bot.faults == 2
    assert errors[0] == (
        "erren: mjai bot 'faulty' at seat 0: answer is not JSON: 'hello there'; "
        "the default move is played (a timeout)"
    )
    assert errors[1].startswith("erren: mjai bot 'faulty' at seat 0: ")
    assert '"pai": "?"' in errors[1] or '"pai":"?"' in errors[1]
    timeouts = _timeouts(state)
    assert len(timeouts) == 2
    for _, expected, made in timeouts:
        assert made == str(expected)


def test_deep_and_overlong_answers_are_timeouts_and_the_next_answers_count(
    tmp_path: Path,
) -> None:
    state, bot, errors = _play_with(tmp_path, OVERSIZED)
    assert state.is_terminal and state.result is not None
    tail = "; the default move is played (a timeout)"
    assert errors == [
        "erren: mjai bot 'faulty' at seat 0: answer is nested too deeply: "
        f"{'[' * 79 + '…'!r}{tail}",  # the answer cut at 80 characters
        f"erren: mjai bot 'faulty' at seat 0: answer longer than {MAX_LINE_CHARS} characters"
        + tail,
    ]
    timeouts = _timeouts(state)
    assert len(timeouts) == 2 and bot.faults == 2
    for _, expected, made in timeouts:
        assert made == str(expected)


def test_an_endless_line_is_dropped_as_it_comes(tmp_path: Path) -> None:
    """A program that writes one line without end: the question times out and the reader
    drops what it reads (without the cap it held gigabytes within seconds)."""
    script = tmp_path / "endless.py"
    script.write_text(ENDLESS)
    program = BotProgram(f"{sys.executable} {script}")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB
    try:
        with pytest.raises(ProgramLateError):
            program.ask(["{}"], timeout=1.0)
        grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        assert grown_mib < 64, f"the reader kept {grown_mib:.0f} MiB"
    finally:
        program.close()
    assert not program.running


def test_a_program_that_exits_plays_by_timeouts_to_the_end(tmp_path: Path) -> None:
    state, bot, errors = _play_with(tmp_path, EXITS)
    assert state.is_terminal and state.result is not None
    assert errors == [
        "erren: mjai bot 'faulty' at seat 0: the program exited with status 3; "
        "the default move is played (a timeout) now and for the rest of the run"
    ]
    timeouts = _timeouts(state)
    assert timeouts, "the seat's next decision is a timeout"
    for _, expected, made in timeouts:
        assert made == str(expected)
    # after auto_trustee_after timeouts in a row the engine puts the seat in 托管, as a table does
    trustee = [e for e in state.events if e.kind is EventKind.TRUSTEE and e.player == 0]
    assert len(timeouts) >= 2 or not trustee
    with pytest.raises(BotError):
        bot.choose(state.observe(0), [Action.make(ActionKind.PASS, 0)])


def test_an_arena_with_workers_plays_the_same_games() -> None:
    rules = find_family("guobiao-2p")
    spec = "mjai:" + node_command()
    one = arena(rules, (spec, "efficiency"), deals=4, seed=5, mjai_timeout=10.0)
    two = arena(rules, (spec, "efficiency"), deals=4, seed=5, workers=2, mjai_timeout=10.0)
    assert two.a_points == one.a_points
    assert [s.wins for s in two.sides] == [s.wins for s in one.sides]


def test_a_program_that_never_reads_nor_answers_never_blocks_the_run(tmp_path: Path) -> None:
    """Its stdin pipe fills up (a few hundred kilobytes of stream): every decision times out,
    the run goes on to the end, and closing it kills the program."""
    script = tmp_path / "deaf.py"
    script.write_text(DEAF)
    errors: list[str] = []
    bot = MjaiBot(f"{sys.executable} {script}", timeout=0.01, label="deaf", report=errors.append)
    stats = simulate(find_family("guobiao-2p"), (bot, "efficiency"), hands=30, seed=2)
    assert stats.hands == 30
    assert errors and bot.faults == len(errors)
    assert all(
        e.startswith("erren: mjai bot 'deaf' at seat 0: no answer within 0.01 s;") for e in errors
    )
    bot.close()
    assert not bot.program.running
