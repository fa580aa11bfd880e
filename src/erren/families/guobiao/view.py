"""What a guobiao-2p seat sees of the family's own facts: none beyond the common core."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from erren.engine.views import ViewFacts, register_view

__all__ = ["GuobiaoView"]


@register_view
@dataclass(frozen=True, slots=True)
class GuobiaoView(ViewFacts):
    """Guobiao-2p has no facts beyond the common core."""

    family: Literal["guobiao-2p"] = "guobiao-2p"
