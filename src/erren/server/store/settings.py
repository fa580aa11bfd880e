"""A registered player's settings panel, kept with his account (table ``user_settings``).

The browser's settings panel (language, sound, motion, hints, tile size, high contrast, the
table's colour, 自动和, 不吃碰, 屏蔽聊天) is kept per browser for a guest and per account for a
registered player: one JSON document per account, replaced whole by each change.  What the
document may hold is the HTTP route's business (:mod:`erren.server.routes.settings` validates
it key by key); the store keeps a small JSON object for a registered account and refuses a
guest's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from erren.server.store.database import Database, as_stored_json, utc_now
from erren.server.store.errors import AccountError
from erren.server.store.models import SettingsRow, UserRow

__all__ = ["MAX_SETTINGS_BYTES", "AccountSettings", "SavedSettings"]

MAX_SETTINGS_BYTES: Final = 1024
"""The largest document kept (its compact JSON, in UTF-8 bytes)."""


@dataclass(frozen=True, slots=True)
class SavedSettings:
    """An account's settings document and when it was last replaced."""

    document: dict[str, Any]
    updated_at: datetime


class AccountSettings:
    """The settings documents of registered accounts."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def get(self, user_id: int) -> SavedSettings | None:
        """The account's settings, or ``None`` when it has never kept any."""
        async with self.database.read() as session:
            row = await session.get(SettingsRow, user_id)
            return None if row is None else SavedSettings(dict(row.document), row.updated_at)

    async def put(self, user_id: int, document: dict[str, Any]) -> SavedSettings:
        """Replace the account's settings with ``document`` (a JSON object of at most
        :data:`MAX_SETTINGS_BYTES`, else ``ValueError``).  :class:`AccountError` for an unknown
        user or a guest: a guest's settings stay in his browser."""
        stored = as_stored_json(document, "settings")
        size = len(json.dumps(stored, ensure_ascii=False, separators=(",", ":")).encode())
        if size > MAX_SETTINGS_BYTES:
            raise ValueError(f"settings of {size} bytes: at most {MAX_SETTINGS_BYTES}")
        now = utc_now()
        async with self.database.write() as session:
            user = await session.get(UserRow, user_id)
            if user is None:
                raise AccountError(f"no user {user_id}")
            if user.is_guest:
                raise AccountError("settings are kept with registered accounts, not guests")
            row = await session.get(SettingsRow, user_id, with_for_update=True)
            if row is None:
                session.add(SettingsRow(user_id=user_id, document=stored, updated_at=now))
            else:
                row.document = stored
                row.updated_at = now
        return SavedSettings(stored, now)
