"""arcade's part of the mjai profile (docs/mjai-2p.md): ``erren:wild``, the exchange, pick-any,
the pung offer, 海底捞月, and its moves ``erren:give``, ``erren:pick``, ``erren:exchange``."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from erren.engine.actions import Action
from erren.engine.events import Event
from erren.engine.observation import Observation
from erren.families.arcade.game.vocabulary import ArcadeEvent, ArcadeVerb
from erren.mjai.extension import PREFIX, Answer, Message, extension
from erren.mjai.tiles import HIDDEN, mjai_tile, mjai_tiles
from erren.notation import parse_tile

__all__ = ["MJAI", "ArcadeMjai"]


class ArcadeMjai:
    """The messages of arcade's own events and moves."""

    answers: Mapping[str, Answer] = {
        PREFIX + "give": Answer(("pai",)),
        PREFIX + "pick": Answer(("pai",)),
        PREFIX + "exchange": Answer(),
    }

    def event(self, event: Event, forget_draw: Callable[[int], None]) -> list[Message] | None:
        p, tile = event.player, mjai_tile(event.tile)
        match event.kind:
            case ArcadeEvent.WILD:
                flower = mjai_tile(parse_tile(event.word("flower")))
                return [extension("wild", pai=tile, flower=flower)]
            case ArcadeEvent.EXCHANGE:
                count = event.number("count")
                got = mjai_tiles(event.tiles) if event.tiles else [HIDDEN] * count
                return [extension("exchange", actor=p, count=count, received=got)]
            case ArcadeEvent.PICK_OFFER:
                return [extension("pick_offer", actor=p)]
            case ArcadeEvent.PICK:
                if event.tile is None:  # the opponent's pick: neither the kind nor whether it came
                    return [extension("pick", actor=p, pai=HIDDEN)]
                return [extension("pick", actor=p, pai=tile, found=bool(event.tiles))]
            case ArcadeEvent.PUNG_OFFER:
                return [extension("pung_offer", actor=p, pai=tile)]
            case ArcadeEvent.GIVE:
                return [extension("give", actor=p, pai=tile)]
            case ArcadeEvent.TAKE_PUNG:
                forget_draw(p)
                given = mjai_tiles(event.tiles) if event.tiles else [HIDDEN] * 3
                return [extension("take_pung", actor=p, pai=tile, consumed=given)]
            case ArcadeEvent.HAIDI:
                return [extension("haidi", actor=p, draws=event.number("draws"))]
        return None

    def action(self, action: Action, observation: Observation) -> Message | None:
        p = observation.player
        match action.kind:
            case ArcadeVerb.GIVE | ArcadeVerb.PICK:
                return extension(action.kind.value, actor=p, pai=mjai_tile(action.tile))
            case ArcadeVerb.EXCHANGE:
                return extension("exchange", actor=p)
        return None


MJAI = ArcadeMjai()
