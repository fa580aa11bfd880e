"""arcade's part of ``erren play``'s menu: the opening exchange (``e 1 5 9``, ``x`` none), the
pung offer (``u 1 2 3``), pick-any (``k 5m``) and the questions of its phases."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from erren.cli.familymenu import Choice
from erren.cli.table import drawn_tile, hand_order
from erren.display import Palette
from erren.engine import Action, Observation
from erren.engine.actions import AnyActionKind
from erren.engine.phases import FamilyPhase, Phase
from erren.errors import NotationError
from erren.families.arcade.game.options import ArcadePhase
from erren.families.arcade.game.vocabulary import ArcadeVerb
from erren.notation import parse_tiles

__all__ = ["MENU", "ArcadeMenu"]

_PROMPTS: dict[Phase | FamilyPhase, str] = {
    ArcadePhase.EXCHANGE: "Opening exchange — give up any tiles for tiles from the reserve?",
    ArcadePhase.PICK: "搓牌 — you may name the kind of this draw!",
}


class ArcadeMenu:
    """The keys, typed answers and questions of arcade's own moves and phases."""

    typed: tuple[str, ...] = ("e", "u", "k")

    def choices(
        self,
        obs: Observation,
        by_kind: Mapping[AnyActionKind, Sequence[Action]],
        pal: Palette,
        *,
        early: bool,
    ) -> list[Choice]:
        if early:
            return []
        out: list[Choice] = []
        gives = by_kind.get(ArcadeVerb.GIVE, ()) if obs.phase is Phase.TURN else ()
        for action in gives[:1]:  # the pung offer: its three tiles are typed at once
            offer = pal.name(obs.view.offer or 0)
            label = f"换牌 take the offered pung of {offer}: u + three tile numbers, e.g. u 1 2 3"
            out.append(Choice("u", label, action))
        exchanges = by_kind.get(ArcadeVerb.EXCHANGE, ())
        if exchanges:
            label = "exchange: e + tile numbers, e.g. e 1 5 9 (Enter: none)"
            out.append(Choice("e", label, exchanges[0]))
            out.append(Choice("x", "no exchange", exchanges[0]))
        picks = by_kind.get(ArcadeVerb.PICK, ())
        if picks:
            label = "搓牌 pick any kind: k + tile, e.g. k 5m (Enter: draw blind)"
            out.append(Choice("k", label, picks[0]))
        return out

    def free_choice(self, obs: Observation, answer: str) -> Action | None:
        """``e 1 5 9`` (exchange), ``u 1 2 3`` (take the pung), ``k 5m`` (pick); the exchange
        and the pung are the composite forms, applied as their ``give`` steps."""
        parts = answer.replace(",", " ").split()
        if not parts or parts[0] not in self.typed or len(parts) < 2:
            return None
        if parts[0] == "k":
            try:
                tiles = parse_tiles(parts[1])
            except NotationError:
                return None
            return (
                Action.make(ArcadeVerb.PICK, obs.player, int(tiles[0])) if len(tiles) == 1 else None
            )
        order = hand_order(obs)
        picked: list[int] = []
        for word in parts[1:]:
            if not word.isdigit() or not 1 <= int(word) <= len(order):
                return None
            picked.append(int(order[int(word) - 1]))
        if len(set(parts[1:])) != len(parts) - 1:
            return None
        if parts[0] == "u":
            if len(picked) != 3:
                return None
            return Action.tiles_action(ArcadeVerb.TAKE_PUNG, obs.player, picked)
        return Action.tiles_action(ArcadeVerb.EXCHANGE, obs.player, picked)

    def situation(self, obs: Observation, pal: Palette) -> str | None:
        drawn = drawn_tile(obs)
        if obs.phase is ArcadePhase.HAIDI and drawn is not None:
            return f"海底捞月 — you drew {pal.name(drawn)}: it completes your hand!"
        return _PROMPTS.get(obs.phase)


MENU = ArcadeMenu()
