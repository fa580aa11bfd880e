"""Provable fairness: the shuffle's seed is committed before the hand and revealed after it.

At the start of a hand the server draws a 63-bit ``seed`` and a random ``salt`` and sends both
players ``commitment = SHA-256("<seed>:<salt>")`` (hex).  The engine's chance actions (the
shuffle, the dice) are drawn from ``random.Random(seed)`` through the ruleset, so the whole deal
follows from the seed.  At the end the record carries ``seed`` and ``fairness.salt``; anyone can
recompute the commitment, redraw the chance actions from the seed and replay the hand
(``erren verify RECORD``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
from dataclasses import dataclass
from typing import Any

from erren.engine import Action, Record, State, find_family, replay
from erren.errors import ErrenError

__all__ = ["Commitment", "FairnessError", "commit", "draw_seed", "verify_record"]


class FairnessError(ErrenError, ValueError):
    """A record whose commitment or chance actions do not match its seed."""


def commit(seed: int, salt: str) -> str:
    """The hex SHA-256 of ``"<seed>:<salt>"``."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Commitment:
    seed: int
    salt: str
    commitment: str

    @classmethod
    def draw(cls, rng: random.Random | None = None) -> Commitment:
        """A fresh seed and salt (from ``secrets`` unless a generator is given, for tests)."""
        seed, salt = draw_seed(rng)
        return cls(seed, salt, commit(seed, salt))


def draw_seed(rng: random.Random | None = None) -> tuple[int, str]:
    if rng is None:
        return secrets.randbits(63), secrets.token_hex(16)
    return rng.getrandbits(63), f"{rng.getrandbits(128):032x}"


def chance_actions(record: Record, seed: int) -> list[str]:
    """The chance actions ``State.new`` draws from ``seed`` for the record's ruleset and deal."""
    ruleset = find_family(record.ruleset, record.options)
    state = State.new(
        ruleset, seed=seed, dealer=record.dealer, round_wind=record.round_wind, streak=record.streak
    )
    return [str(a) for a in state.history if a.kind.is_chance]


def verify_record(data: dict[str, Any] | str) -> State:
    """Check a finished record's commitment and chance actions, then replay it.

    Returns the replayed final state; raises :class:`FairnessError` when the commitment, the
    seed or the chance actions do not match (and the engine's errors for an illegal action)."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as err:
            raise FairnessError(f"the record is not JSON: {err}") from None
    if not isinstance(data, dict):
        raise FairnessError("a record is a JSON object")
    fair = data.get("fairness")
    if not isinstance(fair, dict):
        raise FairnessError("the record has no fairness block (commitment and salt)")
    seed = data.get("seed")
    salt = fair.get("salt")
    expected = fair.get("commitment")
    if not isinstance(seed, int) or not isinstance(salt, str) or not isinstance(expected, str):
        raise FairnessError("the record does not reveal its seed and salt")
    if not hmac.compare_digest(commit(seed, salt), expected):
        raise FairnessError(
            f"commitment mismatch: SHA-256 of seed and salt is {commit(seed, salt)}, "
            f"the record committed to {expected}"
        )
    record = Record.from_dict(data)
    drawn = chance_actions(record, seed)
    played = [a for a in record.actions if Action.parse(a).kind.is_chance]
    if played != drawn:
        raise FairnessError("the chance actions of the record were not drawn from its seed")
    return replay(record)
