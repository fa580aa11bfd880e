"""``erren arcade`` end to end: stdin answers every prompt, the save file carries the run.

Each session reads its answers from :class:`Answers`, a stdin that looks at the last prompt
printed and answers from a script (stake, exchange, pick, ``[y/N]``) or by a steady policy
(discard the first tile, pass every claim, Enter for the next hand).  Runs that must reach the
stage-clear, run-complete and game-over screens are set up through
:mod:`erren.families.arcade.campaign` and a
save file holding a crafted hand in play.  No test touches the real user data folder: an
autouse fixture points ``ERREN_DATA_DIR`` and ``XDG_DATA_HOME`` into ``tmp_path``.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO, cast

import pytest

from erren.cli.main import main
from erren.display import Palette
from erren.engine import Action, State
from erren.families.arcade.campaign import COMPUTER, HUMAN, Run, Status, table
from erren.families.arcade.campaign import save as saving
from erren.families.arcade.campaign.command import arcade
from erren.families.arcade.campaign.save import Save
from erren.notation import parse_tiles
from erren.tiles import NUM_KINDS

CHOICE = "Your choice"
SETTLED = "— settlement ═"
Policy = Callable[[str, str], str | None]


class Answers:
    """A stdin whose every line answers the prompt last printed to ``out``; ``policy(prompt,
    text so far)`` returns the answer, ``None`` for the end of input, or raises (Ctrl-C)."""

    def __init__(self, out: io.StringIO, policy: Policy, limit: int = 4000) -> None:
        self.out = out
        self.policy = policy
        self.limit = limit
        self.prompts: list[str] = []

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        text = self.out.getvalue()
        prompt = text[text.rfind("\n") + 1 :]
        self.prompts.append(prompt)
        assert len(self.prompts) < self.limit, f"the session does not end; last: {prompt!r}"
        answer = self.policy(prompt, text)
        return "" if answer is None else answer + "\n"


def steady(prompt: str, text: str) -> str | None:
    """Stake Enter, no exchange, blind draws, pass every claim, otherwise discard tile 1
    (or win when the only other choice is to pass), Enter for the next hand."""
    if prompt.startswith(CHOICE):
        return "" if "Enter = pass" in prompt else "1"
    return ""


def quit_at(hand: int, choice: int, *, answer: str | None = "q", then: Policy = steady) -> Policy:
    """Play steadily; at the ``choice``-th decision of the session's ``hand``-th hand (1-based,
    counted from the session's first hand), answer ``answer`` (``None``: end of input)."""
    seen = {"n": 0}

    def policy(prompt: str, text: str) -> str | None:
        if prompt.startswith(CHOICE) and text.count(SETTLED) == hand - 1:
            seen["n"] += 1
            if seen["n"] == choice:
                return answer
        return then(prompt, text)

    return policy


def session(
    path: Path, policy: Policy, *, new: bool = False, seed: int | None = 11
) -> tuple[int, str]:
    out = io.StringIO()
    code = arcade(
        cast("TextIO", Answers(out, policy)),
        out,
        path=path,
        new=new,
        seed=seed,
        palette=Palette(ascii=True),
    )
    return code, out.getvalue()


def last_screen(text: str) -> str:
    """The last decision screen shown: from its rule line to the menu."""
    start = text.rfind("─" * 78)
    return text[start : text.find(CHOICE, start)]


def first_screen(text: str) -> str:
    start = text.find("─" * 78)
    return text[start : text.find(CHOICE, start)]


def stored(path: Path) -> Save:
    save = saving.read(path)
    assert save is not None
    return save


@pytest.fixture(autouse=True)
def _private_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Every default save path lands under ``tmp_path``, never in the user's folder."""
    folder = tmp_path / "data"
    monkeypatch.setenv(saving.ENV_DIR, str(folder))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return folder


# ---------------------------------------------------------------------------- crafted runs
DEAL = ((0, 4), (1, 4), (0, 4), (1, 4), (0, 4), (1, 4), (0, 1), (1, 1), (0, 1))
"""R1.14: (0 dealer / 1 non-dealer, tiles) in dealing order."""


def stock(dealer: str, other: str, back: str, wild: str) -> tuple[int, ...]:
    """A 136-tile stock (R1.3) dealing ``dealer`` (14) and ``other`` (13), with ``back`` at
    the tail (flower replacements), the indicator ``wild`` at 71, the rest in kind order
    with no flower or wild in the live wall."""
    hands = [[int(t) for t in parse_tiles(dealer)], [int(t) for t in parse_tiles(other)]]
    front: list[int] = []
    for who, n in DEAL:
        front += hands[who][:n]
        del hands[who][:n]
    tail = [int(t) for t in parse_tiles(back)]
    w = int(parse_tiles(wild)[0])
    flower = 33 if w == 31 else 31
    rest = [k for k in range(NUM_KINDS) for _ in range(4)]
    for t in [*front, *tail, w]:
        rest.remove(t)
    plain = [k for k in rest if k not in (w, flower)]
    n = 71 - len(front) - len(tail)
    later = plain[n:] + [k for k in rest if k in (w, flower)]
    return (*front, *plain[:n], *tail[::-1], w, *later)


def crafted(
    path: Path,
    *,
    dealer: int,
    dealt: tuple[str, str],
    stage: int = 1,
    bankroll: int = 1000,
    purse: int | None = None,
    multiplier: int = 1,
    back: str = "",
) -> Run:
    """A run in hand ``stage``/``bankroll``/``purse`` whose hand in play was dealt ``dealt``
    (dealer's 14, non-dealer's 13, flower replacements ``back``), saved at ``path``."""
    run = Run.new(seed=5)
    run.stage = stage
    run.purse = purse if purse is not None else run.params.purse(stage)
    run.bankroll = bankroll
    run.dealer = dealer
    start = run.start_hand(multiplier)
    state = State(table.ruleset(start.features), dealer=start.dealer)
    state.seed = start.seed
    state.apply(Action.shuffle(stock(*dealt, back, "9s")))
    state.apply(Action.dice(1, 2, 3, 4))
    state.apply(Action.seed(0))  # Random(0).random() = 0.84: no big bleed in stage 3/4
    saving.write(path, Save(run, state.record().to_dict()))
    return run


HEAVENLY = "123m456m789p11122z"
"""A dealer's dealt hand that is already complete: 天和 (L1), one yakuman, 10000 at m = 1."""
NOTHING = "119m119p19s22334z"


# ---------------------------------------------------------------------------- play and resume
def test_play_hands_quit_mid_hand_and_resume_at_the_same_point(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    code, text = session(path, quit_at(3, 2))
    assert code == 0
    assert text.count(SETTLED) == 2 and "A new run: bankroll 1,000" in text
    assert "Your opponent now: Computer (Beginner). A sparring partner:" in text
    assert "Progress saved (in the middle of a hand)" in text and str(path) in text
    save = stored(path)
    assert save.run.status is Status.IN_HAND and save.run.hands == 3
    assert save.hand is not None and save.hand["seed"] == save.run.current.seed  # type: ignore[union-attr]
    screen = last_screen(text)
    assert "Stage 1/4" in screen and "Your hand" in screen
    assert "Stage 1 · hand 1 · Computer (Beginner)" in text  # stage 1 plays 入门

    code, again = session(path, quit_at(1, 1), seed=None)
    assert code == 0
    assert "Welcome back — resuming your run (stage 1, " in again
    assert "2 hands played, hand 3 in play" in again
    assert "Back to hand 3 where you left it" in again
    assert first_screen(again) == screen  # the same board, hand and header
    assert stored(path) == save  # nothing was played: the same record is saved


def test_resumed_hand_plays_on_to_its_settlement(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    session(path, quit_at(1, 2))
    before = stored(path).run
    code, text = session(path, quit_at(2, 1))
    assert code == 0 and "Back to hand 1" in text and text.count(SETTLED) == 1
    after = stored(path).run
    assert after.hands == before.hands + 1 and after.status is Status.IN_HAND


def test_a_saved_hand_that_no_longer_replays_is_called_off(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    session(path, quit_at(1, 2))
    save = stored(path)
    assert save.hand is not None
    broken = dict(save.hand, actions=[*save.hand["actions"], "0:discard:9z"])
    saving.write(path, Save(save.run, broken))
    code, text = session(path, quit_at(1, 1))
    assert code == 0 and "called off" in text and "stake 100 returned" in text
    run = stored(path).run
    assert run.hands == 1 and run.bankroll == 900  # the new hand 1's stake is out again


def test_bad_stakes_are_asked_again(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    stakes = iter(["lots", "0", "11", "3"])

    def policy(prompt: str, text: str) -> str | None:
        if prompt.startswith("Stake multiplier"):
            return next(stakes)
        return quit_at(1, 1)(prompt, text)

    code, text = session(path, policy)
    assert code == 0
    assert "'lots' is not a number — type 1 to 10, or Enter for 1." in text
    assert "the stake multiplier is 1..10, not 0." in text
    assert "the stake multiplier is 1..10, not 11." in text
    run = stored(path).run
    assert run.multiplier == 3 and run.bankroll == 700 and run.current is not None
    assert run.current.stake == 300


def test_a_stake_above_the_bankroll_is_refused_and_enter_keeps_what_it_covers(
    tmp_path: Path,
) -> None:
    path = tmp_path / "run.json"
    run = Run.new(seed=3)
    run.bankroll, run.multiplier = 250, 5
    saving.write(path, Save(run))
    stakes = iter(["3", ""])

    def policy(prompt: str, text: str) -> str | None:
        if prompt.startswith("Stake multiplier"):
            assert "(1–2;" in prompt and "Enter = 2" in prompt
            return next(stakes)
        return "q"

    code, text = session(path, policy)
    assert code == 0
    assert "Your bankroll covers at most 2 × 100: the stake is lowered to 2" in text
    assert "a stake of 3 × 100 = 300 is more than your bankroll 250: choose 2 or less." in text
    assert stored(path).run.bankroll == 50


# ---------------------------------------------------------------------------- --new
def _in_progress(path: Path) -> Run:
    session(path, quit_at(2, 1))
    run = stored(path).run
    assert run.hands == 2 and run.status is Status.IN_HAND
    return run


def test_new_answered_no_keeps_the_run(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    run = _in_progress(path)

    def policy(prompt: str, text: str) -> str | None:
        if prompt.endswith("[y/N] "):
            assert "Discard your run in progress (stage 1, " in prompt
            return "n"
        return "q"

    code, text = session(path, policy, new=True)
    assert code == 0 and "Kept — resuming it." in text and "Back to hand 2" in text
    assert stored(path).run == run


def test_new_answered_yes_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    old = _in_progress(path)

    def policy(prompt: str, text: str) -> str | None:
        return "yes" if prompt.endswith("[y/N] ") else quit_at(1, 1)(prompt, text)

    code, text = session(path, policy, new=True, seed=99)
    assert code == 0 and "A new run: bankroll 1,000" in text
    run = stored(path).run
    assert run.seed == 99 != old.seed and run.hands == 1


def test_a_finished_run_is_followed_by_a_new_one(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    run = Run.new(seed=1)
    run.bankroll = 100
    run.start_hand(1)
    from erren.families.arcade.campaign import Outcome  # noqa: PLC0415

    run.settle(Outcome.computer_win())
    assert run.status is Status.GAME_OVER
    saving.write(path, Save(run))
    code, text = session(path, lambda prompt, text: "q")
    assert code == 0 and "Your last run ended (stage 1, bankroll 0" in text
    assert "A new run: bankroll 1,000" in text
    assert stored(path).run.status is Status.READY


# ---------------------------------------------------------------------------- unusable files
GARBAGE = b'{"format": "erren-arcade-campaign", "version": 1, "run": {"seed": "x"'


def test_an_unreadable_save_is_reported_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_bytes(GARBAGE)
    code, text = session(path, lambda prompt, text: pytest.fail(f"asked {prompt!r}"))
    assert code == 2
    assert "The save file cannot be used:" in text and "is not a JSON save file" in text
    assert "It is left as it is. Move it away, or start over with --new." in text
    assert path.read_bytes() == GARBAGE and [p.name for p in tmp_path.iterdir()] == ["run.json"]


def test_an_unreadable_save_with_new_answered_no_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_bytes(GARBAGE)
    code, text = session(path, lambda prompt, text: "n", new=True)
    assert code == 1 and "Nothing changed." in text
    assert path.read_bytes() == GARBAGE and [p.name for p in tmp_path.iterdir()] == ["run.json"]


def test_an_unreadable_save_with_new_answered_yes_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_bytes(GARBAGE)
    code, text = session(path, lambda prompt, text: "y" if "[y/N]" in prompt else "q", new=True)
    aside = tmp_path / "run.json.unreadable"
    assert code == 0 and f"Set aside as {aside}." in text
    assert aside.read_bytes() == GARBAGE
    assert stored(path).run.hands == 0


def test_a_save_from_another_program_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    other = json.dumps({"format": "erren-hand", "version": 1}).encode()
    path.write_bytes(other)
    code, text = session(path, lambda prompt, text: "q")
    assert code == 2 and "is not an erren arcade save" in text
    assert path.read_bytes() == other


# ---------------------------------------------------------------------------- Ctrl-C and EOF
def _interrupt(prompt: str, text: str) -> str | None:
    raise KeyboardInterrupt


def test_ctrl_c_mid_hand_saves_the_hand(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    shown: list[str] = []

    def policy(prompt: str, text: str) -> str | None:
        if prompt.startswith(CHOICE) and text.count(SETTLED) == 1:
            shown.append(last_screen(text))
            raise KeyboardInterrupt
        return steady(prompt, text)

    code, text = session(path, policy)
    assert code == 0 and "Progress saved (in the middle of a hand)" in text
    save = stored(path)
    assert save.run.status is Status.IN_HAND and save.run.hands == 2 and save.hand is not None
    code, again = session(path, lambda prompt, text: "q")
    assert code == 0 and first_screen(again) == shown[0]


def test_ctrl_c_at_the_stake_prompt_saves_the_run(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    code, text = session(path, _interrupt)
    assert code == 0 and "Progress saved to" in text and "middle" not in text
    run = stored(path).run
    assert run.status is Status.READY and run.hands == 0 and run.bankroll == 1000


def test_end_of_input_mid_hand_saves_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    code, text = session(path, quit_at(1, 2, answer=None))
    assert code == 0 and "Progress saved (in the middle of a hand)" in text
    screen = last_screen(text)
    code, again = session(path, lambda prompt, text: None)
    assert code == 0 and first_screen(again) == screen
    assert stored(path).hand is not None


# ---------------------------------------------------------------------------- where it is saved
def _run_main(monkeypatch: pytest.MonkeyPatch, argv: list[str], policy: Policy) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", Answers(out, policy))
    monkeypatch.setattr(sys, "stdout", out)
    code = main(["arcade", "--ascii", "--no-color", "--seed", "2", *argv])
    return code, out.getvalue()


def test_erren_data_dir_holds_the_save(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    folder = tmp_path / "elsewhere"
    monkeypatch.setenv(saving.ENV_DIR, str(folder))
    code, text = _run_main(monkeypatch, [], quit_at(1, 1))
    path = folder / saving.FILE_NAME
    assert code == 0 and f"to {path}" in text
    assert stored(path).run.seed == 2
    assert not (tmp_path / "data").exists() and not (tmp_path / "xdg").exists()


def test_save_option_names_the_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "my" / "campaign.json"
    code, text = _run_main(monkeypatch, ["--save", str(path)], quit_at(1, 1))
    assert code == 0 and f"to {path}" in text and stored(path).run.hands == 1
    assert not (tmp_path / "data").exists()  # $ERREN_DATA_DIR untouched


def test_default_path_without_the_variable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(saving.ENV_DIR)
    assert saving.default_path() == tmp_path / "xdg" / "erren" / saving.FILE_NAME


def test_unknown_bot_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["arcade", "--bot", "nobody"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main(["arcade", "--level", "nobody"]) == 2
    assert "unknown level 'nobody'" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()


# ---------------------------------------------------------------------------- the end screens
def _win_then(after: Policy) -> Policy:
    def policy(prompt: str, text: str) -> str | None:
        if prompt.startswith(CHOICE) and SETTLED not in text:
            assert "  h  " in text[text.rfind("─" * 78) :]
            return "h"
        return after(prompt, text)

    return policy


def test_stage_clear_screen(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    crafted(path, dealer=HUMAN, dealt=(HEAVENLY, NOTHING))
    code, text = session(path, _win_then(lambda prompt, text: "q"))
    assert code == 0
    assert "天和" in text and "Payout m × base = 1 × 10,000 = 10,000" in text
    assert "Stage 1 cleared!" in text and "On to stage 2: the computer's purse is 20,000." in text
    assert "起始换牌" in text  # stage 2's features are announced
    # and its level, 普通, with how it plays at this stage
    assert (
        "Your opponent now: Computer (Normal). Plays a concealed 混一色: no chi, no peng, no 报听."
        in text
    )
    run = stored(path).run
    assert (run.stage, run.purse, run.streak, run.status) == (2, 20000, 0, Status.READY)
    assert run.bankroll == 1000 + 10000


def test_run_complete_screen(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    crafted(path, dealer=HUMAN, dealt=(HEAVENLY, NOTHING), stage=4, purse=300, multiplier=2)
    code, text = session(path, _win_then(lambda prompt, text: ""))  # Enter: no exchange
    assert code == 0
    assert "通关 — all four stages cleared!" in text
    assert "Final bankroll (your score): 21,000" in text
    assert "Stage reached: 4" in text and "best payout: 20,000" in text
    assert "[Enter] next hand" not in text
    assert stored(path).run.status is Status.COMPLETE


def test_game_over_screen(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    crafted(path, dealer=COMPUTER, dealt=(HEAVENLY, NOTHING), bankroll=100)
    code, text = session(path, lambda prompt, text: pytest.fail(f"asked {prompt!r}"))
    assert code == 0
    assert "The computer wins." in text and "(its fan is not counted)" in text
    assert "游戏失败 — GAME OVER" in text
    assert "Your bankroll 0 cannot cover the smallest stake (100)." in text
    run = stored(path).run
    assert run.status is Status.GAME_OVER and stored(path).hand is None


def test_flowers_in_the_crafted_deal_are_replaced(tmp_path: Path) -> None:
    """The crafted save holds a real record: a dealt flower is set aside and replaced."""
    path = tmp_path / "run.json"
    crafted(path, dealer=HUMAN, dealt=("123m456m789p11125z", NOTHING), back="2z")
    code, text = session(path, _win_then(lambda prompt, text: "q"))
    assert code == 0 and "flower 5z" in text and "天和" in text


# ---------------------------------------------------------------------------- the advice
RAW_ACTION = re.compile(r"\d:[a-z]+(:|$)")
"""An action in its wire form: ``0:pick:3m``, ``1:pass``."""


def test_advice_at_a_pick_is_in_words(tmp_path: Path) -> None:
    """Stage 3 offers 搓牌 at some draws; the first time, the player asks for advice (``a``):
    it names the tile to pick in words, like the advice at a discard, never the raw action
    (``0:pick:3m``); then he draws blind, and quits at the next decision."""
    path = tmp_path / "run.json"
    crafted(path, dealer=COMPUTER, dealt=("147m258p369s123456z", NOTHING), stage=3)
    asked: list[int] = []

    def policy(prompt: str, text: str) -> str | None:
        if prompt.startswith("Pick: "):
            if not asked:
                asked.append(len(text))
                return "a"
            return ""
        if asked and prompt.startswith(CHOICE):
            return "q"
        return steady(prompt, text)

    code, text = session(path, policy)
    assert code == 0
    assert asked, "no 搓牌 was offered"
    advice = [line for line in text[asked[0] :].splitlines() if "Advice:" in line]
    assert advice, text[asked[0] : asked[0] + 400]
    line = advice[0]
    assert not RAW_ACTION.search(line), line
    assert re.fullmatch(r".*Advice: (搓牌 pick \S+ as your draw|draw blind \(Enter\))", line), line
