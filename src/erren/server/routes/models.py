"""The bodies of the HTTP API (its OpenAPI description is at ``/openapi.json``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from erren.server.store import User
from erren.server.table import TableView

__all__ = [
    "BalanceOut",
    "BeanPointOut",
    "BiggestHandOut",
    "ComputerIn",
    "Credentials",
    "FamilyStatsOut",
    "GameOut",
    "InviteIn",
    "LeaderOut",
    "LeaderboardOut",
    "LedgerOut",
    "PrivateIn",
    "ProfileOut",
    "QuickMatchIn",
    "RankBoardOut",
    "RankHistoryOut",
    "RankLeaderOut",
    "RankMoveOut",
    "RankOut",
    "RatingOut",
    "ReliefOut",
    "ReliefRulesOut",
    "RoomOut",
    "SeasonOut",
    "SeasonsOut",
    "SeatOut",
    "SessionOut",
    "StandingOut",
    "TableIn",
    "UnitOut",
    "UserOut",
    "seat_out",
    "user_out",
]


class Credentials(BaseModel):
    name: str = Field(examples=["alice"], max_length=100)
    password: str = Field(examples=["correct horse battery staple"], max_length=1024)


class UserOut(BaseModel):
    id: int
    name: str
    guest: bool


class SessionOut(BaseModel):
    token: str
    user: UserOut


class BalanceOut(BaseModel):
    balance: int
    new_player_hands_left: int = Field(
        description="Bean-room hands still to play to the end before an escape moves beans "
        "(a new account's escape costs the match and rating only); 0 once it does"
    )


class ReliefOut(BaseModel):
    granted: int = Field(description="Beans granted now: 2,000 − the balance before")
    balance: int = Field(description="The balance after the grant (2,000)")


class LedgerOut(BaseModel):
    id: int
    amount: int
    balance_after: int
    reason: str
    key: str | None
    counterparty_id: int | None
    created_at: str


class UnitOut(BaseModel):
    """A unit in Chinese and English (分 point, 番 fan), and its English name for a count other
    than one (points, fan)."""

    zh: str
    en: str
    en_many: str


class RoomOut(BaseModel):
    id: str
    family: str
    tier: str
    name: str
    english: str
    stake: int
    unit: UnitOut = Field(
        description="what the stake is per: one point of the family's hands (guobiao-2p's "
        "points are its fan, 1 番 = 1 分; xiamen's and arcade's are plain points, 分)"
    )
    entry_min: int
    entry_max: int
    options: dict[str, Any]
    account_needed: bool = Field(description="bean rooms need a registered account")
    escape_points: int = Field(description="what leaving a running hand costs, in points")
    escape_beans: int = Field(
        description="the same in beans at the room's stake (at most the leaver's balance)"
    )


class QuickMatchIn(BaseModel):
    room: str = Field(examples=["guobiao-2p/normal"], max_length=100)
    wait_s: float = Field(30.0, ge=0, le=120, description="How long to wait for an opponent")
    resume: bool = Field(
        False,
        description="Only resume your search in this room, kept in its place while your page "
        "was away (404 `search-lost` when none is kept); without it a search kept there is "
        "resumed too, or a new one starts",
    )


class TableIn(BaseModel):
    family: str = Field("guobiao-2p", examples=["guobiao-2p", "xiamen"], max_length=100)
    options: dict[str, Any] = Field(default_factory=dict)


class PrivateIn(TableIn):
    room: str | None = Field(
        None,
        max_length=100,
        description="A bean room's id: the private table plays for that room's beans, with its "
        "entry limits and escape rules (registered players only); none: score-only",
    )


class ComputerIn(TableIn):
    level: str | None = Field(
        None,
        examples=["normal", "strong"],
        max_length=100,
        description="The computer's level: novice (入门), normal (普通), strong (高手) or master "
        "(大师); default normal.  The seat info carries it as ``level``; the client names the "
        "computer by it (电脑·高手, Computer (Strong)).",
    )
    bot: str | None = Field(
        None,
        examples=["efficiency", "random"],
        max_length=100,
        description="Instead of a level (not with it): any registered bot by its name, as "
        "``GET /families`` lists them.  Kept for API compatibility; prefer ``level``.",
    )


class InviteIn(BaseModel):
    invite: str = Field(examples=["K7QX2M"], max_length=100)


class SeatOut(BaseModel):
    table: str
    seat: int
    invite: str | None = None
    ws: str = "/ws"
    info: dict[str, Any]


class GameOut(BaseModel):
    id: int
    ruleset: str
    room: str | None
    players: list[str | None]
    finished: bool
    summary: str | None
    created_at: str
    finished_at: str | None
    seat: int | None = None
    """The asking player's seat in the game."""
    outcome: dict[str, Any] | None = None
    """How it ended, for the client to word (docs/records.md, ``outcome``)."""
    result: Literal["win", "loss", "draw"] | None = Field(
        default=None,
        description="Your result once the hand is settled (an opponent's escape is a win); "
        "null while it runs, when called off, or settled before profiles existed",
    )
    beans: int | None = Field(default=None, description="The beans the hand moved for you")


class RatingOut(BaseModel):
    mu: float = Field(description="openskill (Plackett-Luce) skill estimate; a newcomer has 25")
    sigma: float = Field(description="its uncertainty; a newcomer has 25/3")
    ordinal: float = Field(description="mu − 3σ, the conservative estimate leaderboards use")
    hands: int = Field(description="rated hands played")
    provisional: bool = Field(
        description="fewer than erren.server.rating.PROVISIONAL_HANDS rated hands: the "
        "estimate is not yet shown as a number (a newcomer's μ − 3σ starts near 0 and swings)"
    )


class BiggestHandOut(BaseModel):
    game: int = Field(description="the game id: its replay is #/replay/{game}")
    fan: int
    points: int


class FamilyStatsOut(BaseModel):
    family: str
    hands: int = Field(description="settled hands (computer tables included)")
    wins: int
    self_drawn: int = Field(description="wins by self-draw (自摸)")
    dealt_in: int = Field(description="hands lost on one's own discard or robbed kong (放铳)")
    losses: int = Field(description="hands paid: dealt in, the opponent's self-draw, an escape")
    draws: int
    win_rate: float | None = Field(description="wins / hands")
    self_drawn_rate: float | None = Field(description="self-drawn wins / wins")
    deal_in_rate: float | None = Field(description="dealt in / hands")
    average_fan: float | None = Field(description="fans summed over the wins / wins")
    beans: int = Field(description="net beans won in the family's rooms")
    biggest: BiggestHandOut | None = Field(description="the win with the most fans (the first)")
    rating: RatingOut | None = Field(description="null until a rated hand (bean rooms, people)")


class ReliefRulesOut(BaseModel):
    below: int = Field(description="relief is for a balance below this")
    top_up: int = Field(description="a grant tops the balance up to exactly this")
    available: bool = Field(description="you may claim it now (registered, below, not today)")
    claimed_today: bool


class SeasonOut(BaseModel):
    """A season of the ladder (erren.server.ranks.Seasons): its number and dates (ISO 8601)."""

    number: int
    start: str
    end: str = Field(description="exclusive")


class StandingOut(BaseModel):
    """A standing in a family's ladder (erren.server.ranks.standing_json)."""

    step: int = Field(description="the step's index in the ladder, 0 (新人一级) to 15 (雀神)")
    rank: str = Field(description="newcomer, adept, expert, master, saint, celestial")
    level: int = Field(description="1-3 (一/二/三级); 1 at the top rank")
    zh: str
    en: str
    points: int = Field(description="rank points (PT) on the step, never negative")
    threshold: int | None = Field(description="PT that promote; null at the top rank")


class RankOut(BaseModel):
    """A player's standing in one family this season; ``hands``: the hands that moved it in
    the season (0: carried from an earlier season)."""

    family: str
    season: int
    hands: int
    standing: StandingOut


class ProfileOut(BaseModel):
    user: UserOut
    balance: int
    relief: ReliefRulesOut
    families: list[FamilyStatsOut]
    provisional_hands: int = Field(
        description="rated hands before a rating is shown as a number (erren.server.rating)"
    )
    ranks: list[RankOut] = Field(
        default_factory=list,
        description="the player's rank per family in the current season (none for a guest)",
    )


class BeanPointOut(BaseModel):
    id: int
    at: str
    amount: int
    balance: int = Field(description="the balance after this ledger row")
    reason: str
    key: str | None


class BeanBandOut(BaseModel):
    """A net of beans as a range (erren.server.privacy): ``low <= net < high`` for a net won,
    ``low < net <= high`` for one lost; ``null`` is open."""

    low: int | None
    high: int | None


class LeaderOut(BaseModel):
    rank: int
    user_id: int
    name: str
    hands: int
    beans: BeanBandOut | None = Field(
        default=None, description="by=beans: the band of the net beans won in the family"
    )
    rating: RatingOut | None = Field(default=None, description="by=rating: the rating")


class LeaderboardOut(BaseModel):
    family: str
    by: Literal["beans", "rating"]
    leaders: list[LeaderOut]
    provisional_hands: int = Field(
        description="rated hands before a rating is shown as a number (erren.server.rating)"
    )


def user_out(user: User) -> UserOut:
    return UserOut(id=user.id, name=user.name, guest=user.is_guest)


def seat_out(table: TableView, seat: int) -> SeatOut:
    return SeatOut(table=table.spec.id, seat=seat, invite=table.spec.invite, info=table.info())


class RankMoveOut(BaseModel):
    """One hand's move of a player's rank (erren.server.ranks.move_json)."""

    game: int
    family: str
    season: int
    at: str
    change: int = Field(description="the PT the hand moved")
    before: StandingOut
    after: StandingOut
    promoted: bool
    demoted: bool


class RankHistoryOut(BaseModel):
    season: SeasonOut
    moves: list[RankMoveOut]


class SeasonsOut(BaseModel):
    current: SeasonOut
    seasons: list[SeasonOut] = Field(description="every season so far, newest first")


class RankLeaderOut(BaseModel):
    rank: int
    user_id: int
    name: str
    hands: int
    standing: StandingOut


class RankBoardOut(BaseModel):
    family: str
    season: SeasonOut
    leaders: list[RankLeaderOut]
