"""Password hashing with argon2id (argon2-cffi), run off the event loop.

Hashing is deliberately slow (about 0.2 s of one core and 64 MiB: :data:`PROFILE`), so the
store calls these functions in the password pool (:mod:`erren.server.work`: a process of its
own, at a lower priority than the server).  A login for an unknown name
still verifies against a dummy hash, so that the time taken does not reveal which names exist.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, NamedTuple

from argon2 import PasswordHasher

from erren.server.hashing import Params, hash_password, params_of, verify_password

__all__ = ["MAX_PASSWORD", "MIN_PASSWORD", "PROFILE", "Passwords", "Profile"]

MIN_PASSWORD = 8
MAX_PASSWORD = 1024
"""Longer passwords are refused: hashing a megabyte is a denial of service, not security."""


class Profile(NamedTuple):
    """argon2id's costs, in :class:`argon2.PasswordHasher`'s order."""

    time_cost: int
    memory_cost: int
    """KiB."""
    parallelism: int


PROFILE: Final = Profile(time_cost=3, memory_cost=64 * 1024, parallelism=1)
"""argon2id with RFC 9106's low-memory passes and memory (3 passes over 64 MiB, argon2-cffi's
defaults) in one lane instead of four.  Four lanes run as four threads: a login flood then
took both cores of a two-core node however low the password process's priority, and moved the
computer's answer time 1.5× (``python -m benchmarks.bench_starve``).  One lane is one thread,
so password work never takes more than one core; an attacker's cost (memory × passes) is the
same.  Hashes made with other parameters (four lanes before) still verify and are replaced at
the account's next login (:meth:`Passwords.needs_rehash`)."""


@dataclass(frozen=True)
class Passwords:
    """Hashes and checks passwords.  ``hasher`` defaults to :data:`PROFILE`; tests pass a
    cheaper one."""

    hasher: PasswordHasher = field(default_factory=lambda: PasswordHasher(*PROFILE))

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
