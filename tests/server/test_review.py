"""The quick review of a finished hand judges every decision of the player's own, not only his
discards: a win on offer, 报听, a claim and a plain turn, each asked of the bot from his own
observation at that moment.  Hands are dealt from crafted walls (:mod:`erren.testing.deals`)
and played by a script; the bot's answers are scripted too, so every count is the test's own."""

from __future__ import annotations

from collections.abc import Sequence

from erren.bots import Bot
from erren.bots.levels import Level, level_bot
from erren.engine import Action, Observation, Record, find_family
from erren.server.review import Judged, review, review_json
from erren.testing.deals import start

DEALER = "128899m567z22334z"
"""Seat 0 deals and throws 5z, then 6z, then 7z."""
PLAYER = "123456m556677z1z"
"""Seat 1 (reviewed): 123m 456m, pairs of 5z 6z 7z and a lone 1z — one from ready."""
DRAWS = "1z4m4m"

MOVES = [
    # (the move, the bot's answer at seat 1's decisions)
    ("0:discard:5z", None),
    ("1:pass", "1:peng"),  # a pung declined that the bot takes (pass: 1 from ready; peng: 0)
    ("1:discard:1z", "1:discard:1z"),  # a plain turn (no 报听 on offer): the same tile
    ("0:discard:6z", None),
    ("1:peng", "1:peng"),  # a pung both take
    ("1:discard:1z", "1:ting:1z"),  # ready, 报听 on offer: he does not declare, the bot does
    ("0:discard:7z", None),
    ("1:pass", "1:hu"),  # a winning tile passed
]


class Scripted(Bot):
    """The bot's answers in order, and every observation it was asked from."""

    name = "scripted"

    def __init__(self, answers: Sequence[str]) -> None:
        self.answers = list(answers)
        self.seen: list[Observation] = []

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        self.seen.append(observation)
        answer = Action.parse(self.answers[len(self.seen) - 1])
        assert answer in legal_actions, (answer, legal_actions)
        return answer


def _record() -> Record:
    state = start(find_family("guobiao-2p", {}), DEALER, PLAYER, DRAWS)
    for move, _ in MOVES:
        state.apply(Action.parse(move))
    return state.record()


def test_the_review_judges_wins_claims_ting_and_turns() -> None:
    bot = Scripted([answer for _, answer in MOVES if answer is not None])
    decisions, judged = review(_record(), 1, bot)
    # one question per decision of seat 1, asked from seat 1's view with his legal moves
    assert len(bot.seen) == 5 and all(obs.player == 1 for obs in bot.seen)
    assert dict(judged) == {Judged.CLAIM: 2, Judged.DISCARD: 1, Judged.TING: 1, Judged.WIN: 1}
    # costliest first: the missed win; then the pung declined (a shanten lost); then the 报听
    # not declared (the same tile thrown: nothing lost in the yardstick, a 报听 before a turn)
    assert [(d.kind, str(d.played), str(d.expert)) for d in decisions] == [
        (Judged.WIN, "1:pass", "1:hu"),
        (Judged.CLAIM, "1:pass", "1:peng"),
        (Judged.TING, "1:discard:1z", "1:ting:1z"),
    ]
    body = review_json(decisions, judged)
    assert (body["count"], body["agreed"]) == (5, 2)
    assert body["kinds"] == {
        "win": {"count": 1, "agreed": 0},
        "ting": {"count": 1, "agreed": 0},
        "claim": {"count": 2, "agreed": 1},
        "discard": {"count": 1, "agreed": 1},
    }
    win, claim, ting = body["decisions"]
    assert (win["kind"], win["offered"], win["played"], win["expert"]) == (
        "win",
        "7z",
        "pass",
        "hu",
    )
    assert win["expert_after"] is None
    # passing keeps 123m 456m 55z 77z + the 6z pung: ready (shanten 0)
    assert win["played_after"] == {"shanten": 0, "left": None}
    assert (claim["kind"], claim["offered"]) == ("claim", "5z")
    # pass: 123m 456m 55z 66z 77z 1z is one from ready; peng then throw 1z: ready
    assert claim["played_after"] == {"shanten": 1, "left": None}
    assert claim["expert_after"] == {"shanten": 0, "left": None}
    assert (ting["kind"], ting["played"], ting["expert"], ting["offered"]) == (
        "ting",
        "discard:1z",
        "ting:1z",
        None,
    )
    # either way 123m 456m 55z 77z + the 6z pung waits on 5z and 7z: of the four 5z he holds
    # two and seat 0 threw one (1 left); of the 7z he holds two (seat 0's is still hidden: 2)
    assert ting["played_after"] == ting["expert_after"] == {"shanten": 0, "left": 3}


def test_every_decision_agreed_lists_none() -> None:
    bot = Scripted([move for move, answer in MOVES if answer is not None])
    decisions, judged = review(_record(), 1, bot)
    assert decisions == []
    body = review_json(decisions, judged)
    assert (body["count"], body["agreed"], body["decisions"]) == (5, 5, [])
    assert body["kinds"] == {
        "win": {"count": 1, "agreed": 1},
        "ting": {"count": 1, "agreed": 1},
        "claim": {"count": 2, "agreed": 2},
        "discard": {"count": 1, "agreed": 1},
    }


def test_the_expert_would_have_taken_the_win_passed() -> None:
    """The review's own bot (高手): the winning tile passed is the costliest decision."""
    rs = find_family("guobiao-2p", {})
    decisions, judged = review(_record(), 1, level_bot(Level.STRONG, seed=1, ruleset=rs))
    assert sum(judged.values()) == 5
    first = decisions[0]
    assert (first.kind, str(first.played), first.expert.kind.value) == (Judged.WIN, "1:pass", "hu")
