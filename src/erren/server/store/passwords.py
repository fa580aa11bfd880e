"""Password hashing with argon2id (argon2-cffi), run off the event loop.

Hashing is deliberately slow (tens of milliseconds and 64 MiB with the library's defaults), so
the store calls these functions in the password pool (:mod:`erren.server.work`: a process of its
own, at a lower priority than the server).  A login for an unknown name
still verifies against a dummy hash, so that the time taken does not reveal which names exist.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from argon2 import PasswordHasher

from erren.server.hashing import Params, hash_password, params_of, verify_password

__all__ = ["MAX_PASSWORD", "MIN_PASSWORD", "Passwords"]

MIN_PASSWORD = 8
MAX_PASSWORD = 1024
"""Longer passwords are refused: hashing a megabyte is a denial of service, not security."""


@dataclass(frozen=True)
class Passwords:
    """Hashes and checks passwords.  ``hasher`` defaults to argon2-cffi's recommended
    parameters (RFC 9106 low-memory profile); tests pass a cheaper one."""

    hasher: PasswordHasher = field(default_factory=PasswordHasher)

    @classmethod
    def fast(cls) -> Passwords:
        """Minimal argon2id parameters: for tests only, never for real accounts."""
        return cls(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))

    @property
    def params(self) -> Params:
        """The hasher's parameters, for :mod:`erren.server.hashing` in the password process."""
        return params_of(self.hasher)

    def hash(self, password: str) -> str:
        return hash_password(self.params, password)

    def verify(self, hashed: str | None, password: str) -> bool:
        """Whether ``password`` matches ``hashed``; ``None`` (no such user, or a guest) takes
        as long as a real check and is ``False``."""
        return verify_password(self.params, hashed, password)

    def needs_rehash(self, hashed: str) -> bool:
        """Whether ``hashed`` was made with other parameters than the current ones."""
        return self.hasher.check_needs_rehash(hashed)
