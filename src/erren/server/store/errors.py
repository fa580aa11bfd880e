"""What the store raises: :class:`StoreError` and the errors of accounts, logins and relief."""

from __future__ import annotations

from erren.errors import ErrenError

__all__ = [
    "AccountError",
    "AuthError",
    "Fenced",
    "InsufficientBeans",
    "NameTakenError",
    "ReliefError",
    "StoreError",
    "StoreUnavailable",
]


class StoreError(ErrenError):
    """A request the store refuses (unknown game, conflicting action, bad URL, ...)."""


class StoreUnavailable(StoreError):  # noqa: N818  (named for what the caller meets)
    """The database cannot take writes now: its SQLite file vanished or was replaced under the
    running server.  Nothing was written; the server retries or answers 503."""


class Fenced(StoreError):  # noqa: N818  (named for what the writer meets)
    """A write of a game by a cluster node whose lease token is below the game's fence: another
    node owns the table now (:mod:`erren.server.cluster`).  Nothing was written."""

    def __init__(self, game_id: int, token: int, fence: int) -> None:
        self.game_id = game_id
        self.token = token
        self.fence = fence
        super().__init__(
            f"game {game_id} is owned by another node now (its fence is {fence}, this "
            f"writer's lease token is {token}): nothing was written"
        )


class AuthError(StoreError):
    """Login failed.  The message never says whether the name exists."""


class AccountError(StoreError):
    """Registration refused (name taken, bad name, bad password) or no such user."""


class NameTakenError(AccountError):
    """The name, or one that looks like it, belongs to another account.  ``code``:
    ``name-taken`` (the same name up to case and width) or ``name-confusable`` (a homoglyph of
    ``existing``)."""

    def __init__(self, code: str, message: str, existing: str) -> None:
        self.code = code
        self.existing = existing
        super().__init__(message)


class InsufficientBeans(AccountError):  # noqa: N818  (the contract's name)
    """A strict transfer or a negative grant larger than the balance."""

    def __init__(self, user_id: int, needed: int, balance: int) -> None:
        self.user_id = user_id
        self.needed = needed
        self.balance = balance
        super().__init__(f"user {user_id} needs {needed:,} beans but holds {balance:,}")


class ReliefError(StoreError):
    """A relief claim refused; ``code`` says why: ``not-needed`` (the balance is 1,000 or more),
    ``already-claimed`` (once per UTC day) or ``guest`` (relief is for registered players)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)
