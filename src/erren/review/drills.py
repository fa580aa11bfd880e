"""何切る drills (what to discard): a discard decision as a puzzle, 大师's answer, the expected
points of every discard the seat could make and the reasons the hint button gives (issue #31
point 5, ``docs/review.md``).

A :class:`Puzzle` holds only what the seat saw at that moment: his observation in its wire form
(:func:`erren.server.wire.observation_json`: his hand and the tile he drew, both seats' melds
as he sees them, the flowers, both rivers, the opponent's 报听, the family's view — the gold,
the wild; the clock, 托管, the dice, the event count and the legal list are left out: every
legal move is a discard, and the tiles are the choices).  Every
distinct tile he may discard is valued from that observation alone by
:func:`erren.review.estimate.estimate` (the same worlds for every tile: common random numbers),
so a wrong answer has a cost: ``loss(tile) = max(0, ev(大师's tile) - ev(tile))``.

Puzzles are made from *decisions* (:class:`Source`: an observation, the tile thrown, a seed)
by :func:`make_puzzle`; :func:`corpus_sources` yields them from seeded simulated hands of 入门
against 普通 where 大师 throws another tile than 普通 would (or, where they agree, than 入门
did), and :func:`record_sources` from a reviewed hand of a player (his costliest discards in
a :class:`~erren.review.HandReview`).
The corpus shipped with the package (``drills.json``) is written by
``python -m erren.review.drills_corpus``; :func:`load_corpus` reads it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from erren.bots.base import Bot
from erren.bots.hints import reason
from erren.bots.levels import Level, level_bot
from erren.engine import Action, ActionKind, Family, Observation, Record, State, find_family
from erren.review.estimate import estimate
from erren.review.model import HandReview
from erren.review.walk import decision_points, deterministic
from erren.server.wire import observation_json

__all__ = [
    "CORPUS_FILE",
    "DRILL_ROLLOUTS",
    "SCHEMA",
    "Choice",
    "Puzzle",
    "Source",
    "corpus_sources",
    "discard_choices",
    "foil_loss",
    "load_corpus",
    "make_puzzle",
    "puzzle_view",
    "record_sources",
]

SCHEMA = "erren-drills/1"
"""The ``schema`` of the corpus file; a reader refuses another."""

CORPUS_FILE = "drills.json"
"""The corpus in the package (``erren/review/drills.json``)."""

DRILL_ROLLOUTS = 24
"""Worlds per puzzle: half again a review's 16 (a puzzle is made once, offline)."""

DROPPED = ("timer", "result", "trustee", "last_n", "wins", "dice", "legal")
"""Wire fields a puzzle leaves out: the clock, the result (none yet), 托管, the event count,
the winning moves (a discard decision has none), the dice and the legal moves (every one a
discard: the choices' tiles)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One discard the seat could make: the ``tile``, its expected points ``ev`` for him (in
    the family's unit), and the hint's reason for it (``code``, ``params``)."""

    tile: str
    ev: float
    code: str
    params: dict[str, int]

    def to_list(self) -> list[Any]:
        return [self.tile, round(self.ev, 2), self.code, self.params]

    @classmethod
    def from_list(cls, data: Sequence[Any]) -> Choice:
        tile, ev, code, params = data
        return cls(str(tile), float(ev), str(code), {str(k): int(v) for k, v in params.items()})


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A discard decision: ``id``, the ``family`` and its ``options``, the seat's
    ``observation`` (wire form, see the module), 大师's ``answer`` (a tile), the other tile
    thrown there (``foil``) and who threw it (``by``: ``normal`` 普通 or ``novice`` 入门 in a
    simulated hand, ``player`` in a player's own), every discard's :class:`Choice` (best
    estimate first) and the ``worlds`` they were valued on."""

    id: str
    family: str
    options: dict[str, Any]
    observation: dict[str, Any]
    answer: str
    foil: str
    by: str
    choices: tuple[Choice, ...]
    worlds: int

    def choice(self, tile: str) -> Choice | None:
        return next((c for c in self.choices if c.tile == tile), None)

    def loss(self, tile: str) -> float:
        """Expected points given away by discarding ``tile`` instead of 大师's answer."""
        mine, best = self.choice(tile), self.choice(self.answer)
        if mine is None or best is None:
            raise KeyError(tile)
        return max(0.0, best.ev - mine.ev)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "family": self.family,
            "observation": self.observation,
            "answer": self.answer,
            "foil": self.foil,
            "by": self.by,
            "choices": [c.to_list() for c in self.choices],
            "worlds": self.worlds,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], options: dict[str, Any] | None = None) -> Puzzle:
        """The puzzle of :meth:`to_dict` (its family's ``options`` are the corpus's)."""
        return cls(
            id=str(data["id"]),
            family=str(data["family"]),
            options=dict(options or {}),
            observation=dict(data["observation"]),
            answer=str(data["answer"]),
            foil=str(data["foil"]),
            by=str(data["by"]),
            choices=tuple(Choice.from_list(c) for c in data["choices"]),
            worlds=int(data["worlds"]),
        )


def puzzle_view(puzzle: Puzzle) -> dict[str, Any]:
    """What a client is shown before answering: the position and the tiles it may throw, never
    the answer, the estimates nor the reasons."""
    return {
        "id": puzzle.id,
        "family": puzzle.family,
        "observation": puzzle.observation,
        "tiles": sorted(c.tile for c in puzzle.choices),
    }


@dataclass(frozen=True, slots=True)
class Source:
    """A decision to make a puzzle of: the seat's ``observation`` (every legal action a
    discard), the tile the player (or 普通) threw, and the ``seed`` of its worlds."""

    ruleset: Family
    observation: Observation
    thrown: str
    seed: int
    by: str = "player"
    """Who threw ``thrown``: ``player`` (his own hand), or the level that did (``normal``,
    ``novice``) in a simulated hand."""
    answer: str | None = None
    """大师's tile when it was already asked (a review's, the corpus's); else asked here."""
    step: int | None = None
    """The decision's index in its record's actions, for a player's own (``None``: the
    corpus's, from a simulated hand)."""


def discard_choices(obs: Observation) -> list[Action] | None:
    """One discard per distinct tile when every legal action of ``obs`` is a discard and
    there are at least two tiles to choose from (a 何切る question); else ``None``."""
    legal = obs.legal_actions
    if not legal or any(a.kind is not ActionKind.DISCARD or a.tile is None for a in legal):
        return None
    by_tile: dict[str, Action] = {}
    for action in legal:
        by_tile.setdefault(str(action.tile), action)
    return list(by_tile.values()) if len(by_tile) >= 2 else None


def wire_observation(obs: Observation) -> dict[str, Any]:
    """The seat's observation as a puzzle keeps it (:data:`DROPPED` left out)."""
    out = observation_json(obs)
    for name in DROPPED:
        out.pop(name, None)
    return out


def make_puzzle(
    source: Source, master: Bot | None, *, ident: str, rollouts: int = DRILL_ROLLOUTS
) -> Puzzle:
    """The puzzle of ``source``: 大师's tile (the source's, else ``master``, bound to the
    source's rules, asked from the observation alone), every discard valued over ``rollouts``
    worlds seeded by the source."""
    obs = source.observation
    moves = discard_choices(obs)
    if moves is None:
        raise ValueError("not a discard decision with a choice")
    answer = source.answer
    if answer is None:
        if master is None:
            raise ValueError("no answer and no bot to ask")
        answer = str(master.choose(obs, obs.legal_actions).tile)
    found = estimate(source.ruleset, obs, moves, rollouts=rollouts, seed=source.seed)
    choices = []
    for move, ev in zip(moves, found.means, strict=True):
        why = reason(obs, move)
        choices.append(Choice(str(move.tile), ev, why.code, dict(why.params)))
    choices.sort(key=lambda c: (-c.ev, c.tile))
    return Puzzle(
        id=ident,
        family=source.ruleset.name,
        options=source.ruleset.options_dict(),
        observation=wire_observation(obs),
        answer=answer,
        foil=source.thrown,
        by=source.by,
        choices=tuple(choices),
        worlds=found.worlds,
    )


def foil_loss(source: Source, *, rollouts: int = DRILL_ROLLOUTS) -> float:
    """The foil's loss against 大师's tile (``source.answer``) on the worlds
    :func:`make_puzzle` draws for the source: the same number (a world's value of a move does
    not depend on the other moves valued with it), for two moves' rollouts instead of every
    tile's — a cheap first test of a candidate."""
    obs = source.observation
    moves = discard_choices(obs)
    if moves is None or source.answer is None:
        raise ValueError("not a discard decision with a known answer")
    by_tile = {str(m.tile): m for m in moves}
    pair = [by_tile[source.thrown], by_tile[source.answer]]
    found = estimate(source.ruleset, obs, pair, rollouts=rollouts, seed=source.seed)
    return max(0.0, found.means[1] - found.means[0])


def master_bot(ruleset: Family, seed: int = 0) -> Bot:
    """大师 as a review asks it (deterministic: a tick clock), bound to ``ruleset``."""
    return deterministic(level_bot(Level.MASTER, seed=seed, ruleset=ruleset))


def corpus_sources(ruleset: Family, *, seed: int, hands: int) -> Iterator[Source]:
    """Discard decisions of ``hands`` seeded hands of 入门 (seat 0) against 普通 where 大师
    throws another tile than 普通 would (``by`` ``normal``) or, where those two agree, than
    the seat's own bot did (``by`` ``novice``: in xiamen and arcade 大师 discards as 普通
    does); the hand ``i`` is dealt from ``seed·100003 + i``."""
    master = master_bot(ruleset, seed)
    for i in range(hands):
        state = State.new(ruleset, seed=seed * 100_003 + i, dealer=i % 2)
        players = [
            level_bot(Level.NOVICE, seed=i, ruleset=ruleset),
            level_bot(Level.NORMAL, seed=i, ruleset=ruleset),
        ]
        normal = level_bot(Level.NORMAL, seed=i, ruleset=ruleset)
        step = 0
        while not state.is_terminal:
            step += 1
            seat = state.actor
            legal = state.legal_actions()
            obs = state.observe(seat)
            move = players[seat].choose(obs, legal)
            if discard_choices(obs) is not None:
                found = _disagreement(obs, move, master, normal)
                if found is not None:
                    world = seed * 1_000_003 + i * 10_007 + step
                    yield Source(ruleset, obs, found[1], world, found[0], found[2])
            state.apply(move)


def _disagreement(
    obs: Observation, move: Action, master: Bot, normal: Bot
) -> tuple[str, str, str] | None:
    """``(by, foil tile, 大师's tile)`` where 大师 throws another tile than 普通 or the
    seat's bot, else ``None``."""
    advice = str(master.choose(obs, obs.legal_actions).tile)
    theirs = str(normal.choose(obs, obs.legal_actions).tile)
    if advice != theirs:
        return (Level.NORMAL.value, theirs, advice)
    if str(move.tile) != advice and move.player == 0:
        return (Level.NOVICE.value, str(move.tile), advice)
    return None


def record_sources(record: Record, review: HandReview, *, top: int = 3) -> Iterator[Source]:
    """A player's own puzzles: the ``top`` costliest decisions of ``review`` (his hand
    ``record`` reviewed) that were discards with a choice, each from his observation then.
    Feed them to :func:`make_puzzle` (``docs/review.md``, Drills)."""
    ruleset = find_family(record.ruleset, record.options)
    wanted = {
        d.step: d for d in sorted(review.decisions, key=lambda d: -d.loss)[:top] if d.loss > 0
    }
    for point in decision_points(record, review.seat):
        decision = wanted.get(point.step)
        if decision is None or discard_choices(point.observation) is None:
            continue
        seed = review.hand * 10_007 + point.step
        bot = decision.bot.tiles[0] if decision.bot.text.startswith("discard:") else None
        tile = str(point.move.tile)
        yield Source(ruleset, point.observation, tile, seed, "player", bot, point.step)


def material(puzzle: Puzzle, threshold: float) -> bool:
    """Whether the puzzle is worth asking: the foil loses more than ``threshold`` against
    大师's answer, and no discard is estimated better than the answer by more than
    ``threshold`` (the estimate and 大师 agree, within its noise, on what is best)."""
    best = puzzle.choice(puzzle.answer)
    assert best is not None
    return puzzle.choices[0].ev - best.ev <= threshold and puzzle.loss(puzzle.foil) > threshold


def corpus_json(puzzles: Sequence[Puzzle], made_by: dict[str, Any]) -> str:
    """The corpus file: a head line (the schema, how it was made, each family's options),
    then one line a puzzle."""
    options = {p.family: p.options for p in puzzles}
    head = {"schema": SCHEMA, "made_by": made_by, "options": options}
    lines = [json.dumps(head, ensure_ascii=False)]
    lines += [json.dumps(p.to_dict(), ensure_ascii=False, separators=(",", ":")) for p in puzzles]
    return "\n".join(lines) + "\n"


def read_corpus(text: str) -> list[Puzzle]:
    """The puzzles of a corpus file (:func:`corpus_json`)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return []
    head = json.loads(lines[0])
    if not isinstance(head, dict) or head.get("schema") != SCHEMA:
        raise ValueError("not an erren drills corpus")
    options = head.get("options", {})
    out = []
    for line in lines[1:]:
        data = json.loads(line)
        out.append(Puzzle.from_dict(data, options.get(data["family"])))
    return out


@cache
def load_corpus() -> tuple[Puzzle, ...]:
    """The corpus shipped with the package (empty if the file is missing)."""
    path = resources.files("erren.review").joinpath(CORPUS_FILE)
    if not path.is_file():
        return ()
    return tuple(read_corpus(path.read_text(encoding="utf-8")))
