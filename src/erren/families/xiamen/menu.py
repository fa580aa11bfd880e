"""xiamen's part of ``erren play``'s menu: its wins (the 游 chain's ``h``, 三金倒 ``s``,
抢金胡 ``j``), throwing the gold to swim on (``d``) and the questions of its phases."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from erren.cli.familymenu import Choice
from erren.cli.table import drawn_tile
from erren.cli.words import describe
from erren.display import Palette
from erren.engine import Action, Observation
from erren.engine.actions import AnyActionKind
from erren.engine.phases import FamilyPhase, Phase
from erren.families.xiamen.game.data import XiamenPhase
from erren.families.xiamen.game.vocabulary import XiamenVerb

__all__ = ["MENU", "XiamenMenu"]

_PROMPTS: dict[Phase | FamilyPhase, str] = {
    XiamenPhase.OPENING: "Opening window — declare a gold win now, or pass (Enter).",
    XiamenPhase.LAST_DRAW: "三游 test: your single draw completes your hand — win (h)?",
}


class XiamenMenu:
    """The keys and questions of xiamen's own moves and phases."""

    typed: tuple[str, ...] = ()

    def choices(
        self,
        obs: Observation,
        by_kind: Mapping[AnyActionKind, Sequence[Action]],
        pal: Palette,
        *,
        early: bool,
    ) -> list[Choice]:
        if not early:
            return []
        out = [Choice("h", describe(a, pal), a) for a in by_kind.get(XiamenVerb.WIN, ())]
        out += [Choice("s", describe(a, pal), a) for a in by_kind.get(XiamenVerb.SANJINDAO, ())]
        robs = by_kind.get(XiamenVerb.QIANGJIN, ())
        for i, action in enumerate(robs):
            key = "j" if len(robs) == 1 else f"j{i + 1}"
            out.append(Choice(key, describe(action, pal), action))
        out += [Choice("d", describe(a, pal), a) for a in by_kind.get(XiamenVerb.DISCARD_GOLD, ())]
        return out

    def free_choice(self, obs: Observation, answer: str) -> Action | None:
        return None

    def situation(self, obs: Observation, pal: Palette) -> str | None:
        drawn = drawn_tile(obs)
        if obs.phase is XiamenPhase.YOU_CHOICE and drawn is not None:
            return f"You drew a gold ({pal.name(drawn)}): win now, or discard it?"
        return _PROMPTS.get(obs.phase)


MENU = XiamenMenu()
