"""The options of a family: a frozen dataclass each family extends with its own, validated on
construction; ``claim_privacy`` is the one every family has."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Self

__all__ = ["Options"]

_SHARED = ("claim_privacy",)
"""Options every family has (declared on :class:`Options`)."""


@dataclass(frozen=True)
class Options:
    """Base of a family's options: a frozen dataclass validated on construction.

    ``claim_privacy`` (鸣牌保护, guobiao-2p §2.4, the same in every family): every discard opens
    a claim window and every 加杠 a rob window for the opponent, ``pass`` alone when he has no
    other choice, so that the discarder cannot tell from the flow of the hand whether the
    opponent could claim.  Servers turn it on at tables with a human seat."""

    claim_privacy: bool = field(default=False, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        """Every option by name, the family's own first, the shared ones last."""
        names = [f.name for f in fields(self) if f.name not in _SHARED]
        return {name: getattr(self, name) for name in (*names, *_SHARED)}

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def parse(cls, family: str, options: Mapping[str, Any]) -> Self:
        """The options of ``family`` given by name; an unknown name is a :class:`ValueError`."""
        unknown = sorted(set(options) - set(cls.field_names()))
        if unknown:
            raise ValueError(f"unknown option(s) for {family}: {', '.join(unknown)}")
        return cls(**options)
