"""A player's page: his figures per family, his bean history, the leaderboards."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query

from erren.engine import family_names
from erren.server import rating
from erren.server.privacy import bean_band
from erren.server.routes.common import ApiError, CurrentUser, StoreDep, StrictJSONRoute, Viewer
from erren.server.routes.models import (
    BeanBandOut,
    BeanPointOut,
    BiggestHandOut,
    FamilyStatsOut,
    LeaderboardOut,
    LeaderOut,
    ProfileOut,
    RatingOut,
    ReliefRulesOut,
    user_out,
)
from erren.server.routes.ranks import ranks_out
from erren.server.store import RELIEF_BELOW, RELIEF_TOP_UP, FamilyStats

__all__ = ["router"]

router = APIRouter(route_class=StrictJSONRoute, tags=["profile"])


def _share(part: int, whole: int) -> float | None:
    return None if whole == 0 else part / whole


def _stats_out(f: FamilyStats) -> FamilyStatsOut:
    rated = f.rating_mu is not None and f.rating_sigma is not None
    return FamilyStatsOut(
        family=f.family,
        hands=f.hands,
        wins=f.wins,
        self_drawn=f.self_drawn,
        dealt_in=f.dealt_in,
        losses=f.losses,
        draws=f.draws,
        win_rate=_share(f.wins, f.hands),
        self_drawn_rate=_share(f.self_drawn, f.wins),
        deal_in_rate=_share(f.dealt_in, f.hands),
        average_fan=_share(f.fan_total, f.wins),
        beans=f.beans,
        biggest=None
        if f.best_game is None
        else BiggestHandOut(game=f.best_game, fan=f.best_fan, points=f.best_points),
        rating=_rating_out(f.rating_mu, f.rating_sigma, f.rated_hands) if rated else None,
    )


def _rating_out(mu: float | None, sigma: float | None, hands: int) -> RatingOut:
    assert mu is not None and sigma is not None
    return RatingOut(
        mu=mu,
        sigma=sigma,
        ordinal=rating.ordinal((mu, sigma)),
        hands=hands,
        provisional=rating.provisional(hands),
    )


@router.get("/me/profile", response_model=ProfileOut)
async def profile(user: CurrentUser, store: StoreDep) -> ProfileOut:
    """Your figures in every family you played (settled hands), your rating there, your
    balance and the relief grant's rules (whether you may claim it now)."""
    balance = await store.ledger.balance(user.id)
    day = datetime.now(UTC).date().isoformat()
    claimed = bool(await store.ledger.journals("grant", prefix=f"relief:{user.id}:{day}"))
    return ProfileOut(
        user=user_out(user),
        balance=balance,
        relief=ReliefRulesOut(
            below=RELIEF_BELOW,
            top_up=RELIEF_TOP_UP,
            available=not user.is_guest and not claimed and balance < RELIEF_BELOW,
            claimed_today=claimed,
        ),
        families=[_stats_out(f) for f in await store.profiles.family_stats(user.id)],
        provisional_hands=rating.PROVISIONAL_HANDS,
        ranks=await ranks_out(store, user),
    )


@router.get("/me/beans/history", response_model=list[BeanPointOut])
async def bean_history(
    user: CurrentUser, store: StoreDep, limit: Annotated[int, Query(ge=1, le=1000)] = 200
) -> list[BeanPointOut]:
    """Your balance over time: your last ``limit`` ledger rows, oldest first, each with the
    balance after it (grants, settlements, relief)."""
    rows = await store.ledger.entries(user.id, limit=limit)
    return [
        BeanPointOut(
            id=r.id,
            at=r.created_at.isoformat(),
            amount=r.amount,
            balance=r.balance_after,
            reason=r.reason,
            key=r.key,
        )
        for r in reversed(rows)
    ]


@router.get("/leaderboard/{family}", response_model=LeaderboardOut)
async def leaderboard(
    family: str,
    store: StoreDep,
    viewer: Viewer,
    by: Literal["beans", "rating"] = "rating",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> LeaderboardOut:
    """A family's registered players, best first: ``by=rating`` (mu − 3σ: rated hands in bean
    rooms between people; public) or ``by=beans`` (ranked by the net beans won in the family's
    rooms, each shown as a band, never the exact figure: a balance stays private; for players
    logged in only, 401 otherwise).  404 for a family erren does not have."""
    if family not in family_names():
        raise ApiError(404, "no-family", f"no family {family!r}")
    if by == "beans" and viewer is None:
        raise ApiError(401, "auth", "log in first to see the bean leaderboard")
    if by == "rating":
        leaders = [
            LeaderOut(
                rank=rank,
                user_id=r.user_id,
                name=r.name,
                hands=r.hands,
                rating=RatingOut(
                    mu=r.mu,
                    sigma=r.sigma,
                    ordinal=r.ordinal,
                    hands=r.hands,
                    provisional=rating.provisional(r.hands),
                ),
            )
            for rank, r in enumerate(await store.profiles.rating_leaders(family, limit), start=1)
        ]
    else:
        leaders = [
            LeaderOut(
                rank=rank,
                user_id=b.user_id,
                name=b.name,
                hands=b.hands,
                beans=BeanBandOut(**bean_band(b.beans).to_json()),
            )
            for rank, b in enumerate(await store.profiles.bean_leaders(family, limit), start=1)
        ]
    return LeaderboardOut(
        family=family, by=by, leaders=leaders, provisional_hands=rating.PROVISIONAL_HANDS
    )
