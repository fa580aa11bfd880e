"""argon2id as the password process runs it (:data:`erren.server.work.Work.PASSWORD`).

Module-level functions of the hasher's parameters (:data:`Params`), so that the process
imports nothing but this module and argon2 — not the store, SQLAlchemy or the server — and
costs a new server a few milliseconds rather than a second.  A check for an account that has
no password (no such name, a guest) verifies against a dummy hash made once per process, so its
time does not reveal which names exist.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

__all__ = ["Params", "hash_password", "params_of", "verify_password"]

Params = tuple[int, int, int, int, int]
"""``(time_cost, memory_cost, parallelism, hash_len, salt_len)`` of an argon2id hasher."""

_HASHERS: dict[Params, PasswordHasher] = {}
_DUMMIES: dict[Params, str] = {}


def params_of(hasher: PasswordHasher) -> Params:
    return (
        hasher.time_cost,
        hasher.memory_cost,
        hasher.parallelism,
        hasher.hash_len,
        hasher.salt_len,
    )


def _hasher(params: Params) -> PasswordHasher:
    if params not in _HASHERS:
        time_cost, memory_cost, parallelism, hash_len, salt_len = params
        _HASHERS[params] = PasswordHasher(time_cost, memory_cost, parallelism, hash_len, salt_len)
    return _HASHERS[params]


def hash_password(params: Params, password: str) -> str:
    return _hasher(params).hash(password)


def verify_password(params: Params, hashed: str | None, password: str) -> bool:
    """Whether ``password`` matches ``hashed``; ``None`` (no such user, or a guest) takes as
    long as a real check and is ``False``."""
    hasher = _hasher(params)
    if params not in _DUMMIES:
        _DUMMIES[params] = hasher.hash("not a password: equalises the time of failed logins")
    try:
        ok = hasher.verify(_DUMMIES[params] if hashed is None else hashed, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
    return ok and hashed is not None
