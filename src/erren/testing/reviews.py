"""Kept reviews made up for tests of a player's error profile (``GET /me/coach`` and the
profile page): seeded ``HandReview``-shaped dicts whose decisions carry a category and a loss
in quarters of a point (so that every sum is exact in floating point, whatever its order),
stored for finished games of the player."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from erren.review.model import Category
from erren.server.store import Store

__all__ = ["BAD_LOSS", "MadeHand", "keep_reviews", "made_review"]

BAD_LOSS = 1.0
"""A decision losing more than this is counted bad in these reviews."""


@dataclass(frozen=True, slots=True)
class MadeHand:
    """One stored review as the test made it: its game and its decisions'
    ``(category, loss, bad)``."""

    game: int
    decisions: tuple[tuple[str, float, bool], ...]

    @property
    def matches(self) -> int:
        return sum(loss == 0 for _, loss, _ in self.decisions)

    @property
    def bad(self) -> int:
        return sum(bad for _, _, bad in self.decisions)

    @property
    def loss(self) -> float:
        return sum(loss for _, loss, _ in self.decisions)


def made_review(rng: random.Random, family: str, seat: int) -> dict[str, Any]:
    """A review of ``seat``: 4 to 12 decisions, each of a random category with a loss of 0
    (matched, half the time) or 1 to 12 quarters of a point."""
    decisions: list[dict[str, Any]] = []
    for step in range(rng.randint(4, 12)):
        category = rng.choice(list(Category)).value
        loss = 0.0 if rng.random() < 0.5 else rng.randint(1, 12) / 4
        text = "discard:1m" if loss == 0 else "discard:2m"
        decisions.append(
            {
                "hand": 0,
                "step": step,
                "seat": seat,
                "category": category,
                "player": {"text": text, "tiles": [text[-2:]]},
                "bot": {"text": "discard:1m", "tiles": ["1m"]},
                "match": loss == 0,
                "ev_player": None,
                "ev_bot": None,
                "loss": loss,
                "stderr": None,
                "bad": loss > BAD_LOSS,
                "reasons": {},
            }
        )
    matches = sum(bool(d["match"]) for d in decisions)
    bad = sum(bool(d["bad"]) for d in decisions)
    summary: dict[str, Any] = {
        "decisions": len(decisions),
        "matches": matches,
        "match_rate": matches / len(decisions),
        "bad": bad,
        "bad_rate": bad / len(decisions),
        "loss": sum(float(d["loss"]) for d in decisions),
        "costliest": [],
    }
    return {
        "hand": 0,
        "ruleset": family,
        "seat": seat,
        "threshold": BAD_LOSS,
        "result": None,
        "summary": summary,
        "decisions": decisions,
    }


async def keep_reviews(
    store: Store, user_id: int, family: str, count: int, *, seed: int, seat: int = 0
) -> list[MadeHand]:
    """``count`` games of ``family`` with the player at ``seat`` (the computer at the other),
    each with a made-up review of his seat kept; oldest first."""
    rng = random.Random(seed)
    made = []
    for _ in range(count):
        seats = (user_id, None) if seat == 0 else (None, user_id)
        game = await store.games.create(family, {}, seats, 1, "00" * 16)
        review = made_review(rng, family, seat)
        await store.reviews.put(game, seat, review, user_id=user_id, family=family)
        found = tuple((d["category"], d["loss"], d["bad"]) for d in review["decisions"])
        made.append(MadeHand(game, found))
    return made
