"""The bodies of the HTTP API (its OpenAPI description is at ``/openapi.json``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from erren.server.store import User
from erren.server.table import Table

__all__ = [
    "BalanceOut",
    "ComputerIn",
    "Credentials",
    "GameOut",
    "InviteIn",
    "LedgerOut",
    "QuickMatchIn",
    "ReliefOut",
    "RoomOut",
    "SeatOut",
    "SessionOut",
    "StakeIn",
    "TableIn",
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


class RoomOut(BaseModel):
    id: str
    family: str
    tier: str
    name: str
    english: str
    stake: int
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


class TableIn(BaseModel):
    family: str = Field("guobiao-2p", examples=["guobiao-2p", "xiamen"], max_length=100)
    options: dict[str, Any] = Field(default_factory=dict)


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


class StakeIn(BaseModel):
    multiplier: int = Field(1, description="The stake multiplier m (stake m × 100), 1..10")


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


def user_out(user: User) -> UserOut:
    return UserOut(id=user.id, name=user.name, guest=user.is_guest)


def seat_out(table: Table, seat: int) -> SeatOut:
    return SeatOut(table=table.spec.id, seat=seat, invite=table.spec.invite, info=table.info())
