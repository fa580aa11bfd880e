"""A registered player's settings panel, kept with his account (``GET`` / ``PUT /me/settings``).

The browser keeps every choice of its settings panel (``web/js/settings.js``) in localStorage;
for a registered player it also keeps them here, so that they follow him to another browser.
A guest's stay in his browser: both routes answer him 403 ``account-needed``.  The document is
checked key by key (:class:`Settings`): a key the panel does not have, or a value it does not
offer, is refused with 422 ``invalid`` naming the field, and nothing is stored.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from erren.server.routes.common import ApiError, CurrentUser, StoreDep, StrictJSONRoute
from erren.server.store import SavedSettings, User

__all__ = ["MAX_BODY", "Settings", "SettingsOut", "router"]

router = APIRouter(route_class=StrictJSONRoute, tags=["settings"])

MAX_BODY: Final = 1024
"""The largest ``PUT /me/settings`` body (bytes): the whole panel takes about 150."""

GUESTS_KEEP_THEIRS = (
    "settings are kept with registered accounts; a guest's stay in his browser: register to keep "
    "them with an account"
)


class Settings(BaseModel):
    """The settings panel's choices (``web/js/settings.js``, one key per control); a key absent
    or ``null`` was never chosen: the browser keeps its own (the default, or for ``lang`` the
    browser's language)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    lang: Literal["zh", "en"] | None = Field(default=None, description="语言: the page's language")
    sound: bool | None = Field(
        default=None, description="声音: the table's sounds on (true) or off"
    )
    motion: Literal["system", "reduce"] | None = Field(
        default=None, description="动画: follow the system's motion setting, or reduce motion"
    )
    hints: bool | None = Field(default=None, description="提示: hints at every family's tables")
    tiles: Literal["small", "normal", "large"] | None = Field(
        default=None, description="手牌大小: the hand's tile size"
    )
    contrast: bool | None = Field(default=None, description="高对比度牌面: high-contrast tiles")
    felt: Literal["green", "blue", "brown"] | None = Field(
        default=None, description="桌面颜色: the table's colour"
    )
    autowin: bool | None = Field(default=None, description="自动和: a legal win is claimed at once")
    noclaims: bool | None = Field(
        default=None, description="不吃碰: a claim window offering only chows and pungs is passed"
    )
    mutechat: bool | None = Field(
        default=None,
        description="屏蔽聊天: nobody's quick chat or stickers are shown at the table (true)",
    )
    watch: Literal["nobody", "friends", "everyone"] | None = Field(
        default=None,
        description="谁可以观战: who may watch your tables (erren.server.watching; null: friends)",
    )


class SettingsOut(BaseModel):
    settings: Settings = Field(description="Every key of the panel; null: never chosen")
    updated_at: str | None = Field(
        description="When the account's settings were last replaced (ISO 8601); null: the "
        "account has kept none yet"
    )


def _registered(user: CurrentUser) -> User:
    """The current user when he is registered; 403 ``account-needed`` for a guest."""
    if user.is_guest:
        raise ApiError(403, "account-needed", GUESTS_KEEP_THEIRS)
    return user


Registered = Annotated[User, Depends(_registered)]


async def _small_body(request: Request) -> None:
    """413 ``too-large`` for a body over :data:`MAX_BODY`, before it is validated."""
    size = len(await request.body())
    if size > MAX_BODY:
        raise ApiError(
            413,
            "too-large",
            f"the request body is larger than {MAX_BODY:,} bytes",
            params={"limit": MAX_BODY},
        )


def _settings_out(saved: SavedSettings | None) -> SettingsOut:
    if saved is None:
        return SettingsOut(settings=Settings(), updated_at=None)
    known = {k: v for k, v in saved.document.items() if k in Settings.model_fields}
    try:
        settings = Settings.model_validate(known)
    except ValidationError:  # a value an older panel offered: the browser keeps its own
        settings = Settings()
    return SettingsOut(settings=settings, updated_at=saved.updated_at.isoformat())


@router.get("/me/settings", response_model=SettingsOut)
async def get_settings(user: Registered, store: StoreDep) -> SettingsOut:
    """Your settings panel as your account keeps it (every key; null: never chosen).  403
    ``account-needed`` for a guest: his settings stay in his browser."""
    return _settings_out(await store.settings.get(user.id))


@router.put("/me/settings", response_model=SettingsOut, dependencies=[Depends(_small_body)])
async def put_settings(body: Settings, user: Registered, store: StoreDep) -> SettingsOut:
    """Replace your account's settings with the panel's choices (a key left out or null: never
    chosen).  422 ``invalid`` for a key the panel does not have or a value it does not offer
    (``params.field`` names it; nothing is stored), 413 ``too-large`` past 1,024 bytes, 403
    ``account-needed`` for a guest."""
    saved = await store.settings.put(user.id, body.model_dump(exclude_none=True))
    return _settings_out(saved)
