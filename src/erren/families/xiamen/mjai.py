"""xiamen's part of the mjai profile (docs/mjai-2p.md): ``erren:gold``, ``erren:you``, and its
moves ``erren:sanjindao``, ``erren:qiangjin``, the 游 chain's win (``hora``) and its throw."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from erren.engine.actions import Action
from erren.engine.events import Event
from erren.engine.observation import Observation
from erren.families.xiamen.game.vocabulary import XiamenEvent, XiamenVerb
from erren.mjai.extension import PREFIX, Answer, Message, extension
from erren.mjai.tiles import mjai_tile

__all__ = ["MJAI", "XiamenMjai"]


class XiamenMjai:
    """The messages of xiamen's own events and moves."""

    answers: Mapping[str, Answer] = {
        PREFIX + "sanjindao": Answer(),
        PREFIX + "qiangjin": Answer(optional=("pai",)),  # the dealer names the tile he lays out
    }

    def event(self, event: Event, forget_draw: Callable[[int], None]) -> list[Message] | None:
        match event.kind:
            case XiamenEvent.GOLD:
                return [extension("gold", pai=mjai_tile(event.tile))]
            case XiamenEvent.YOU:
                return [extension("you", actor=event.player, level=event.number("level"))]
        return None

    def action(self, action: Action, observation: Observation) -> Message | None:
        p = observation.player
        match action.kind:
            case XiamenVerb.DISCARD_GOLD:
                gold = mjai_tile(observation.last_drawn)
                return {"type": "dahai", "actor": p, "pai": gold, "tsumogiri": True}
            case XiamenVerb.WIN:
                drawn = mjai_tile(observation.last_drawn)
                return {"type": "hora", "actor": p, "target": p, "pai": drawn}
            case XiamenVerb.SANJINDAO:
                return extension("sanjindao", actor=p)
            case XiamenVerb.QIANGJIN:
                if action.tile is None:
                    return extension("qiangjin", actor=p)
                return extension("qiangjin", actor=p, pai=mjai_tile(action.tile))
        return None


MJAI = XiamenMjai()
