"""Friends (``/friends``): a registered player's friend code, friends with their presence,
friend requests, blocks, recent opponents, and invites of a friend to a private table (a bean
room's included).  Every route answers a guest 403 ``account-needed``.

A change the other side should see at once is pushed to his open sockets on any node
(:mod:`erren.server.friends`): ``{"type": "friends"}`` (his lists changed: read them again),
``{"type": "invite", ...}`` (a friend invites him), ``{"type": "invite-over", ...}`` (that
table no longer waits for him) and ``{"type": "invite-declined", ...}``.
Friend requests and invites count against the account's throttle (30 in ten minutes: 429
``friend-throttled`` with ``retry_after``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from erren.server.appstate import app_state
from erren.server.friends import Friends, Presence, UndeliveredError
from erren.server.routes.common import (
    MAX_ID,
    ApiError,
    CurrentUser,
    Gate,
    LobbyDep,
    StoreDep,
    StrictJSONRoute,
)
from erren.server.routes.models import SeatOut, seat_out
from erren.server.store import User
from erren.server.store.social import (
    MAX_BLOCKS,
    MAX_FRIENDS,
    MAX_INCOMING,
    MAX_OUTGOING,
    FriendError,
    Peer,
    RequestOutcome,
)
from erren.server.table.spec import CloseCode

__all__ = ["router"]

router = APIRouter(route_class=StrictJSONRoute, tags=["friends"])

STATUS = {
    "account-needed": 403,
    "no-player": 404,
    "friend-self": 422,
    "friend-already": 409,
    "friend-blocked": 403,
    "friend-limit": 409,
    "no-request": 404,
    "not-friends": 404,
}
"""The HTTP status of each :class:`~erren.server.store.social.FriendError` code."""


def _refused(err: FriendError) -> ApiError:
    params = {} if err.limit is None else {"limit": err.limit}
    return ApiError(STATUS.get(err.code, 409), err.code, str(err), params=params)


def _registered(user: CurrentUser) -> User:
    if user.is_guest:
        raise ApiError(403, "account-needed", "friends are for registered accounts; register")
    return user


Registered = Annotated[User, Depends(_registered)]


def _friends(request: Request) -> Friends:
    running = app_state(request.app).running
    assert running is not None and running.friends is not None
    return running.friends


FriendsDep = Annotated[Friends, Depends(_friends)]


def _counted(gate: Gate, user: User) -> None:
    """429 ``friend-throttled`` past the account's friend requests and invites."""
    key = str(user.id)
    wait = gate.friends.retry_after(key)
    if wait is not None:
        raise ApiError(
            429,
            "friend-throttled",
            f"at most {gate.friends.limit} friend requests and invites at a time; "
            f"try again in {wait} s",
            params={"retry_after": wait},
            headers={"Retry-After": str(wait)},
        )
    gate.friends.count(key)


def _user_id(user_id: int) -> int:
    if not 0 < user_id <= MAX_ID:
        raise ApiError(404, "no-player", "no such player")
    return user_id


class PeerOut(BaseModel):
    id: int
    name: str
    since: datetime = Field(description="When it began (a recent opponent: the last game)")
    state: str | None = Field(
        None, description="A friend's presence: offline, lobby, table or watching"
    )
    family: str | None = Field(None, description="The family of the friend's table")
    friend: bool | None = Field(None, description="A recent opponent: already a friend")


class FriendsOut(BaseModel):
    code: str = Field(description="Your friend code")
    friends: list[PeerOut]
    received: list[PeerOut] = Field(description="Requests waiting for your answer")
    sent: list[PeerOut] = Field(description="Your requests waiting for an answer")
    blocked: list[PeerOut]
    limits: dict[str, int]


class AddIn(BaseModel):
    who: str = Field(min_length=1, max_length=40, description="A name or a friend code")


class AddOut(BaseModel):
    outcome: str = Field(description="sent, or friends (he had asked you first)")
    user: PeerOut


class InviteIn(BaseModel):
    room: str | None = Field(None, max_length=100, description="A bean room: its id")
    family: str = Field("guobiao-2p", max_length=100, description="A score-only table's family")
    options: dict[str, Any] = Field(default_factory=dict)


class DeclineIn(BaseModel):
    invite: str = Field(min_length=1, max_length=16)


def _peer(p: Peer, presence: Presence | None = None, friend: bool | None = None) -> PeerOut:
    shown = {} if presence is None else presence.to_json()
    return PeerOut(id=p.user_id, name=p.name, since=p.since, friend=friend, **shown)


@router.get("/friends", response_model=FriendsOut)
async def friends_page(user: Registered, store: StoreDep, friends: FriendsDep) -> FriendsOut:
    """Your code, friends (each with his presence), requests both ways, blocked players."""
    social = store.social
    mine = await social.friends(user.id)
    presence = await friends.presence_of(p.user_id for p in mine)
    received, sent = await social.requests(user.id)
    return FriendsOut(
        code=await social.code(user.id),
        friends=[_peer(p, presence[p.user_id]) for p in mine],
        received=[_peer(p) for p in received],
        sent=[_peer(p) for p in sent],
        blocked=[_peer(p) for p in await social.blocked(user.id)],
        limits={
            "friends": MAX_FRIENDS,
            "outgoing": MAX_OUTGOING,
            "incoming": MAX_INCOMING,
            "blocks": MAX_BLOCKS,
        },
    )


@router.get("/friends/recent", response_model=list[PeerOut])
async def recent(user: Registered, store: StoreDep) -> list[PeerOut]:
    """The registered players you played most recently (ten, newest first)."""
    mine = await store.social.friend_ids(user.id)
    return [
        _peer(p, friend=p.user_id in mine) for p in await store.social.recent_opponents(user.id)
    ]


@router.post("/friends/requests", response_model=AddOut, status_code=201)
async def add(
    body: AddIn, user: Registered, store: StoreDep, gate: Gate, friends: FriendsDep
) -> AddOut:
    """Ask a player (by name or friend code) to be your friend.  404 ``no-player``, 422
    ``friend-self``, 409 ``friend-already``, 403 ``friend-blocked``, 409 ``friend-limit``
    (``limit``), 403 ``account-needed`` (either side a guest), 429 ``friend-throttled``."""
    other = await store.social.find(body.who)
    if other is None:
        raise ApiError(404, "no-player", "no registered player has that name or code")
    _counted(gate, user)
    try:
        outcome = await store.social.request(user.id, other)
    except FriendError as err:
        raise _refused(err) from None
    target = await store.accounts.user(other)
    assert target is not None
    await friends.deliver([other], {"type": "friends"})
    if outcome is RequestOutcome.FRIENDS:
        friends.moved([user.id, other])
    peer = Peer(other, target.name, target.created_at)
    return AddOut(outcome=outcome.value, user=_peer(peer))


@router.post("/friends/requests/{user_id}/accept", status_code=204)
async def accept(user_id: int, user: Registered, store: StoreDep, friends: FriendsDep) -> None:
    """Accept the player's request: you are friends (404 ``no-request``; 409
    ``friend-limit``)."""
    try:
        await store.social.answer(user.id, _user_id(user_id), accept=True)
    except FriendError as err:
        raise _refused(err) from None
    await friends.deliver([user_id], {"type": "friends"})
    friends.moved([user.id, user_id])


@router.post("/friends/requests/{user_id}/refuse", status_code=204)
async def refuse(user_id: int, user: Registered, store: StoreDep, friends: FriendsDep) -> None:
    """Refuse the player's request (404 ``no-request``)."""
    try:
        await store.social.answer(user.id, _user_id(user_id), accept=False)
    except FriendError as err:
        raise _refused(err) from None
    await friends.deliver([user_id], {"type": "friends"})


@router.delete("/friends/requests/{user_id}", status_code=204)
async def cancel(user_id: int, user: Registered, store: StoreDep, friends: FriendsDep) -> None:
    """Withdraw your request to the player (none: nothing)."""
    await store.social.cancel(user.id, _user_id(user_id))
    await friends.deliver([user_id], {"type": "friends"})


@router.delete("/friends/{user_id}", status_code=204)
async def remove(user_id: int, user: Registered, store: StoreDep, friends: FriendsDep) -> None:
    """End the friendship (404 ``not-friends``)."""
    try:
        await store.social.remove(user.id, _user_id(user_id))
    except FriendError as err:
        raise _refused(err) from None
    await friends.deliver([user_id], {"type": "friends"})


@router.put("/friends/blocks/{user_id}", status_code=204)
async def block(user_id: int, user: Registered, store: StoreDep, friends: FriendsDep) -> None:
    """Block the player: the friendship and requests between you end; he cannot send you a
    request, invite you, join your table or be paired with you (404 ``no-player``, 409
    ``friend-limit``)."""
    try:
        await store.social.block(user.id, _user_id(user_id))
    except FriendError as err:
        raise _refused(err) from None
    await friends.block_changed(user.id, user_id, on=True)  # stops a chat at once, any node
    await friends.deliver([user_id], {"type": "friends"})


@router.delete("/friends/blocks/{user_id}", status_code=204)
async def unblock(user_id: int, user: Registered, store: StoreDep, friends: FriendsDep) -> None:
    """Lift your block of the player (none: nothing)."""
    await store.social.unblock(user.id, _user_id(user_id))
    await friends.block_changed(user.id, user_id, on=False)


@router.post("/friends/{user_id}/invite", response_model=SeatOut, status_code=201)
async def invite(
    user_id: int,
    body: InviteIn,
    *,
    user: Registered,
    store: StoreDep,
    lobby: LobbyDep,
    gate: Gate,
    friends: FriendsDep,
) -> SeatOut:
    """Open a private table (with ``room``: a bean table of that room, its limits and escape
    rules; else score-only of ``family``), seat you at it and invite the friend: he is sent
    ``{"type": "invite", "from", "name", "invite", "table", "room", "family"}`` on any node
    and page, and ``invite-over`` once the table no longer waits for him.  404
    ``not-friends``; the room's refusals as at quick match (``no-room``,
    ``below-entry``/``above-entry``); 409 ``seated`` if you sit elsewhere; 503
    ``invites-unavailable`` on a cluster node whose Redis does not answer (no table is left
    open: the invite could not reach the friend)."""
    if _user_id(user_id) not in await store.social.friend_ids(user.id):
        raise ApiError(404, "not-friends", "you can invite only your friends")
    if not await friends.reachable():
        raise _invites_unavailable()
    _counted(gate, user)
    table = await lobby.private_table(user, body.family, body.options, body.room)
    spec = table.spec
    message = {
        "type": "invite",
        "from": user.id,
        "name": user.name,
        "invite": spec.invite,
        "table": spec.id,
        "room": None if spec.room is None else spec.room.id,
        "family": spec.family,
    }
    try:
        await friends.deliver([user_id], message, needed=True)
    except UndeliveredError:
        table.close(CloseCode.LEFT, "the invite could not be sent", params={"seat": 0})
        raise _invites_unavailable() from None
    await friends.held.hold(user_id, user.id, message)  # for his sockets that were away
    table.watch_guest(friends.invite_watch(user_id, message))
    return seat_out(table, 0)


def _invites_unavailable() -> ApiError:
    """503 ``invites-unavailable``: the cluster's Redis, which carries invites between the
    nodes, does not answer."""
    return ApiError(
        503,
        "invites-unavailable",
        "invites cannot be sent right now (the cluster's Redis does not answer); try again later",
    )


@router.post("/friends/{user_id}/decline", status_code=204)
async def decline(
    user_id: int, body: DeclineIn, user: Registered, store: StoreDep, friends: FriendsDep
) -> None:
    """Decline the friend's invite: he is sent ``{"type": "invite-declined", "from", "name",
    "invite"}`` (404 ``not-friends``)."""
    if _user_id(user_id) not in await store.social.friend_ids(user.id):
        raise ApiError(404, "not-friends", "not friends")
    message = {"type": "invite-declined", "from": user.id, "name": user.name}
    await friends.held.drop(user.id, body.invite[:16])
    await friends.deliver([_user_id(user_id)], {**message, "invite": body.invite[:16]})
