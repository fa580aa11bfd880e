"""The review's data: one :class:`Decision` per decision of the reviewed seat, gathered in a
:class:`HandReview` per hand and a :class:`GameReview` per game, with their summaries and a
stable JSON form (``docs/review.md``).

A decision's ``ev_player`` and ``ev_bot`` are the expected points of the two moves for the
seat, in the family's unit (``HandResult.deltas``, as the table pays), estimated by
:mod:`erren.review.estimate` (the method is stated in :attr:`GameReview.method`).  Where the
player moved as the bot would, nothing is rolled out: both are ``None`` and ``loss`` is 0.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = [
    "SCHEMA",
    "Category",
    "Decision",
    "GameReview",
    "HandReview",
    "Move",
    "Summary",
]

SCHEMA = "erren-review/1"
"""The ``schema`` of the JSON form (``docs/review.md``): a reader refuses another."""

TOP = 3
"""How many costliest decisions a summary names."""


class Category(StrEnum):
    """What a decision was about (``docs/review.md`` says how each is decided)."""

    EFFICIENCY = "efficiency"
    """A discard or kong where speed to ready was the question."""
    VALUE = "value"
    """A discard where the bot gave up speed for a bigger hand."""
    DEFENCE = "defence"
    """A discard against an opponent who declared 报听."""
    CLAIM = "claim"
    """The opponent's discard could be claimed: 吃, 碰, 杠 or 过."""
    TING = "ting"
    """报听 was on offer: declare it (and with which discard) or not."""
    WIN = "win"
    """A win was on offer: take it or not."""
    FAMILY = "family"
    """A family's own verb was on offer (游金 and the 游 climbs, 三金倒/抢金, the arcade
    exchange, the pung offer and the pick)."""


@dataclass(frozen=True, slots=True)
class Move:
    """A move as the wire writes it (``erren.server.protocol.action_text``: ``discard:5m``)
    and the tiles it names (``["5m"]``; a chi its chow; none for a pass or a win)."""

    text: str
    tiles: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "tiles": list(self.tiles)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Move:
        return cls(str(data["text"]), tuple(str(t) for t in data.get("tiles", ())))


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat: where (``hand`` index, ``step`` index into the record's
    ``actions``), what it was about, both moves, their expected points and the loss."""

    hand: int
    step: int
    seat: int
    category: Category
    player: Move
    bot: Move
    ev_player: float | None = None
    """Expected points of the player's move (``None``: the moves agree, nothing rolled out)."""
    ev_bot: float | None = None
    loss: float = 0.0
    """``max(0, ev_bot - ev_player)``; 0 where the moves agree."""
    stderr: float | None = None
    """The standard error of ``ev_bot - ev_player`` over the rollouts (paired)."""
    bad: bool = False
    """``loss`` above the family's threshold (:attr:`erren.engine.Family.review_bad_loss`)."""
    reasons: dict[str, Any] = field(default_factory=dict)
    """The hint's reason (:func:`erren.bots.hints.reason`) for each move where it applies:
    ``{"player": {"code": "keeps", "params": {...}}, "bot": {...}}``."""

    @property
    def matches(self) -> bool:
        return self.player.text == self.bot.text

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "step": self.step,
            "seat": self.seat,
            "category": self.category.value,
            "player": self.player.to_dict(),
            "bot": self.bot.to_dict(),
            "match": self.matches,
            "ev_player": self.ev_player,
            "ev_bot": self.ev_bot,
            "loss": self.loss,
            "stderr": self.stderr,
            "bad": self.bad,
            "reasons": self.reasons,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        def num(key: str) -> float | None:
            value = data.get(key)
            return None if value is None else float(value)

        return cls(
            hand=int(data["hand"]),
            step=int(data["step"]),
            seat=int(data["seat"]),
            category=Category(data["category"]),
            player=Move.from_dict(data["player"]),
            bot=Move.from_dict(data["bot"]),
            ev_player=num("ev_player"),
            ev_bot=num("ev_bot"),
            loss=float(data.get("loss", 0.0)),
            stderr=num("stderr"),
            bad=bool(data.get("bad", False)),
            reasons=dict(data.get("reasons", {})),
        )


@dataclass(frozen=True, slots=True)
class Summary:
    """The summary of some decisions: ``decisions``, ``matches``, ``match_rate`` (matches /
    decisions), ``bad`` and ``bad_rate`` (bad / decisions), ``loss`` (the sum of the losses:
    the expected points given away) and ``costliest`` (the ``(hand, step)`` of the
    :data:`TOP` largest losses, largest first, losses > 0 only)."""

    decisions: int
    matches: int
    bad: int
    loss: float
    costliest: tuple[tuple[int, int], ...]

    @property
    def match_rate(self) -> float:
        return self.matches / self.decisions if self.decisions else 1.0

    @property
    def bad_rate(self) -> float:
        return self.bad / self.decisions if self.decisions else 0.0

    @classmethod
    def of(cls, decisions: list[Decision]) -> Summary:
        ranked = sorted(
            (d for d in decisions if d.loss > 0), key=lambda d: (-d.loss, d.hand, d.step)
        )
        return cls(
            decisions=len(decisions),
            matches=sum(d.matches for d in decisions),
            bad=sum(d.bad for d in decisions),
            loss=sum(d.loss for d in decisions),
            costliest=tuple((d.hand, d.step) for d in ranked[:TOP]),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "matches": self.matches,
            "match_rate": self.match_rate,
            "bad": self.bad,
            "bad_rate": self.bad_rate,
            "loss": self.loss,
            "costliest": [{"hand": h, "step": s} for h, s in self.costliest],
        }


@dataclass(frozen=True, slots=True)
class HandReview:
    """The review of one hand: its index in the game, its ruleset, the seat reviewed, the
    family's bad-move ``threshold`` and the seat's decisions in the order played."""

    hand: int
    ruleset: str
    seat: int
    threshold: float
    decisions: tuple[Decision, ...]
    result: str | None = None

    @property
    def summary(self) -> Summary:
        return Summary.of(list(self.decisions))

    def costliest(self) -> list[Decision]:
        """The :data:`TOP` costliest decisions, largest loss first."""
        by_key = {(d.hand, d.step): d for d in self.decisions}
        return [by_key[k] for k in self.summary.costliest]

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "ruleset": self.ruleset,
            "seat": self.seat,
            "threshold": self.threshold,
            "result": self.result,
            "summary": self.summary.to_dict(),
            "decisions": [d.to_dict() for d in self.decisions],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandReview:
        return cls(
            hand=int(data["hand"]),
            ruleset=str(data["ruleset"]),
            seat=int(data["seat"]),
            threshold=float(data["threshold"]),
            decisions=tuple(Decision.from_dict(d) for d in data["decisions"]),
            result=data.get("result"),
        )


@dataclass(frozen=True, slots=True)
class GameReview:
    """The review of a game (one or more hands): the ``level`` asked, the ``method`` of the
    estimate in words, its ``rollouts`` and ``seed``, and the hands."""

    level: str
    method: str
    rollouts: int
    seed: int
    hands: tuple[HandReview, ...]

    @property
    def decisions(self) -> list[Decision]:
        return [d for h in self.hands for d in h.decisions]

    @property
    def summary(self) -> Summary:
        return Summary.of(self.decisions)

    def costliest(self) -> list[Decision]:
        by_key = {(d.hand, d.step): d for d in self.decisions}
        return [by_key[k] for k in self.summary.costliest]

    def to_dict(self) -> dict[str, Any]:
        summary = self.summary.to_dict()
        summary["loss_per_hand"] = summary["loss"] / len(self.hands) if self.hands else 0.0
        return {
            "schema": SCHEMA,
            "level": self.level,
            "method": self.method,
            "rollouts": self.rollouts,
            "seed": self.seed,
            "summary": summary,
            "hands": [h.to_dict() for h in self.hands],
        }

    def to_json(self, *, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameReview:
        if data.get("schema") != SCHEMA:
            raise ValueError(f"not an erren review (schema {data.get('schema')!r})")
        return cls(
            level=str(data["level"]),
            method=str(data["method"]),
            rollouts=int(data["rollouts"]),
            seed=int(data["seed"]),
            hands=tuple(HandReview.from_dict(h) for h in data["hands"]),
        )

    @classmethod
    def from_json(cls, text: str) -> GameReview:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("a review is a JSON object")
        return cls.from_dict(data)
