"""Skill ratings: openskill's Weng-Lin Bayesian model (Plackett-Luce), one rating per player and
family, updated by every rated hand.

A rating is ``(mu, sigma)``: the estimated skill and its uncertainty; a new player starts at
the model's defaults (25, 25/3).  A hand is a two-team match: the winner ranks first, a drawn
hand (荒庄) is a tie, an escape ranks the escaper last.  Leaderboards order by the *ordinal*
``mu − 3σ``, the conservative estimate (a player with few hands ranks low until his skill is
known).  The model's defaults are used as they are (``tau`` = 25/300 keeps ratings moving).

A rating is *provisional* for a player's first :data:`PROVISIONAL_HANDS` rated hands in a
family: the screens show "provisional (n of 10 hands)" rather than a number.  A newcomer's
ordinal starts at 0 (25 − 3 × 25/3) and after one lost hand reads −1.8; it says nothing yet
about his play, and a negative number reads as a penalty.  After ten hands σ has fallen from
8.3 to about 6 and the ordinal of an even player is clear of zero.

>>> (a, b) = rate((25.0, 25 / 3), (25.0, 25 / 3), 0)
>>> a[0] > 25 > b[0] and a[1] == b[1] < 25 / 3
True
"""

from __future__ import annotations

from typing import Final

from openskill.models import PlackettLuce

__all__ = ["MODEL", "PROVISIONAL_HANDS", "START", "Rating", "ordinal", "provisional", "rate"]

Rating = tuple[float, float]
"""``(mu, sigma)``."""

MODEL: Final = PlackettLuce()
"""The one model every rating is computed with."""
START: Final[Rating] = (MODEL.mu, MODEL.sigma)
"""A new player's rating."""
PROVISIONAL_HANDS: Final = 10
"""Rated hands in a family before a player's rating is shown as a number."""


def rate(first: Rating, second: Rating, winner: int | None) -> tuple[Rating, Rating]:
    """The two seats' ratings after a hand that seat ``winner`` (0 or 1) won, or a tie
    (``None``)."""
    if winner not in (0, 1, None):
        raise ValueError(f"the winner is seat 0, seat 1 or None (a tie), not {winner!r}")
    a = MODEL.rating(mu=first[0], sigma=first[1])
    b = MODEL.rating(mu=second[0], sigma=second[1])
    ranks = [0.0, 0.0] if winner is None else [float(winner != 0), float(winner != 1)]
    (new_a,), (new_b,) = MODEL.rate([[a], [b]], ranks=ranks)
    return (new_a.mu, new_a.sigma), (new_b.mu, new_b.sigma)


def ordinal(rating: Rating) -> float:
    """The conservative estimate ``mu − 3σ`` that leaderboards order by."""
    return MODEL.rating(mu=rating[0], sigma=rating[1]).ordinal()


def provisional(hands: int) -> bool:
    """Whether a rating made of ``hands`` rated hands is still provisional (fewer than
    :data:`PROVISIONAL_HANDS`)."""
    return hands < PROVISIONAL_HANDS
