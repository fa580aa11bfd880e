"""mjai streams of erren hands, and a seat's answers in mjai (the profile: ``docs/mjai-2p.md``).

A :class:`MjaiStream` turns one hand's events, fed one by one, into mjai messages: the full log
(``seat=None``: every tile shown, plus the chance outcomes a replay needs) or one seat's view
(what that seat may see; the opponent's concealed tiles and draws are ``?``).  Standard mjai
messages keep mjai's shapes; what mjai lacks is an extension, a message whose ``type`` starts
with ``erren:`` or a key starting with ``erren:`` on a standard message.

:func:`action_to_mjai` writes the message a seat sends to make an erren action,
:func:`mjai_to_action` reads a bot's answer back into the legal action it asks for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from erren.engine.actions import Action, ActionKind
from erren.engine.events import AnyEventKind, Event, EventKind
from erren.engine.registry import family_names, find_family
from erren.engine.result import ResultKind
from erren.errors import NotationError
from erren.mjai.extension import PREFIX, Answer, Message, MjaiExtension, extension
from erren.mjai.tiles import HIDDEN, mjai_tile, mjai_tiles, parse_mjai_tile
from erren.tiles import Tile

if TYPE_CHECKING:
    from erren.engine.family import Family
    from erren.engine.observation import Observation
    from erren.engine.result import HandResult

__all__ = [
    "PREFIX",
    "Message",
    "MjaiError",
    "MjaiStream",
    "action_to_mjai",
    "join_reach",
    "legal_messages",
    "mjai_to_action",
]

TEHAI = 13
"""Tiles of each seat's ``tehais`` in ``start_kyoku``; the dealer's 14th comes as a ``tsumo``."""

_CALLS: dict[AnyEventKind, str] = {EventKind.CHI: "chi", EventKind.PENG: "pon"}
"""The mjai call of a claim event (any other: ``daiminkan``)."""


class MjaiError(NotationError):
    """An mjai message that does not parse, or asks for a move that is not legal now."""


class MjaiStream:
    """One seat's mjai stream of a hand (seat None: the full log, nothing hidden), built event by
    event.

    ``start_kyoku`` is written when both seats' deals are known (the second ``deal`` event): each
    seat's first 13 dealt tiles as ``tehais`` (``?`` for the tiles the reader may not see), the
    dealer's 14th as a ``tsumo`` right after; the hand's events before the deal (the dice, the
    arcade wild, the full log's ``erren:shuffle``) follow ``start_kyoku`` in their order.
    """

    def __init__(
        self,
        ruleset: Family,
        seat: int | None,
        *,
        dealer: int,
        round_wind: Tile,
        streak: int = 0,
        scores: tuple[int, int] = (0, 0),
        seed: int | None = None,
    ) -> None:
        if seat not in (None, 0, 1):
            raise ValueError(f"an mjai stream is seat 0's, seat 1's or the full log's, not {seat}")
        self.ruleset = ruleset
        self.seat = seat
        self.dealer = dealer
        self.round_wind = round_wind
        self.streak = streak
        self.scores = [scores[0], scores[1]]
        self.seed = seed
        self._deals: dict[int, tuple[Tile, ...]] = {}
        self._early: list[Message] = []
        self._started = False
        self._settled = False
        self._drawn: list[Tile | None] = [None, None]
        """Each seat's tile drawn since its last move, as the reader saw it (tsumogiri)."""
        self._discard: Tile | None = None
        """The last discarded tile (what a chi, pon or daiminkan claims)."""
        self._kakan: Tile | None = None

    def copy(self) -> MjaiStream:
        """An independent copy (to try a move without writing it)."""
        new = object.__new__(MjaiStream)
        new.__dict__.update(self.__dict__)
        new.scores = list(self.scores)
        new._deals = dict(self._deals)
        new._early = list(self._early)
        new._drawn = list(self._drawn)
        return new

    # ------------------------------------------------------------------ the game
    def start_game(self, names: Sequence[str] = ("seat 0", "seat 1")) -> Message:
        """``start_game``: the seat's ``id`` (none in the full log), the names, the ruleset."""
        out: Message = {"type": "start_game"}
        if self.seat is not None:
            out["id"] = self.seat
        out["names"] = list(names)
        out[PREFIX + "ruleset"] = self.ruleset.name
        out[PREFIX + "options"] = self.ruleset.options_dict()
        return out

    def end_game(self, scores: tuple[int, int]) -> Message:
        return {"type": "end_game", "scores": [scores[0], scores[1]]}

    # ------------------------------------------------------------------ chance
    def chance(self, action: Action) -> list[Message]:
        """The full log's record of a chance outcome: ``erren:shuffle`` (the whole wall) and
        ``erren:seed`` (arcade's event seed); dice come with their ``dice`` event.  A seat's
        stream shows none of them."""
        if self.seat is not None:
            return []
        if action.kind is ActionKind.SHUFFLE:
            return self._out([extension("shuffle", wall=mjai_tiles(action.data))])
        if action.kind is ActionKind.SEED:
            return self._out([extension("seed", seed=action.data[0])])
        return []

    # ------------------------------------------------------------------ events
    def feed(self, event: Event, *, result: HandResult | None = None) -> list[Message]:
        """The mjai messages that ``event`` maps to (possibly none); ``event`` as the stream's
        seat sees it (Event.seen_by(seat); the full log gets events unblanked).  ``result``: the
        hand's result, for a ``hu``/``zimo``/``end`` event (hora's fans and the deltas)."""
        if event.kind is EventKind.DEAL:
            return self._deal(event)
        return self._out(self._messages(event, result))

    def _out(self, messages: list[Message]) -> list[Message]:
        if self._started:
            return messages
        self._early.extend(messages)
        return []

    def _tile(self, tile: Tile | None) -> str:
        return mjai_tile(tile)

    def _deal(self, event: Event) -> list[Message]:
        self._deals[event.player] = event.tiles
        if len(self._deals) < 2 or self._started:
            return []
        tehais: list[list[str]] = []
        extra: list[str] = []
        for p in (0, 1):
            tiles = self._deals[p]
            names = mjai_tiles(tiles) if tiles else [HIDDEN] * (TEHAI + (p == self.dealer))
            tehais.append(names[:TEHAI])
            if p == self.dealer:
                extra = names[TEHAI:]
                if tiles and len(tiles) > TEHAI:
                    self._drawn[p] = tiles[-1]
        start: Message = {
            "type": "start_kyoku",
            "bakaze": mjai_tile(self.round_wind),
            "kyoku": self.dealer + 1,
            "honba": self.streak,
            "kyotaku": 0,
            "oya": self.dealer,
            "dora_marker": HIDDEN,
            "scores": list(self.scores),
            "tehais": tehais,
        }
        if self.seat is None and self.seed is not None:
            start[PREFIX + "seed"] = self.seed
        self._started = True
        out = [start, *self._early]
        self._early = []
        out += [{"type": "tsumo", "actor": self.dealer, "pai": name} for name in extra]
        return out

    def _messages(self, e: Event, result: HandResult | None) -> list[Message]:
        p = e.player
        match e.kind:
            case EventKind.SHUFFLE:
                return []
            case EventKind.DICE:
                dice = e.data["dice"]
                return [extension("dice", dice=list(dice) if isinstance(dice, tuple) else [dice])]
            case EventKind.FLOWER:
                if self._drawn[p] == e.tile:
                    self._drawn[p] = None
                return [
                    extension("flower", actor=p, pai=self._tile(e.tile), during=e.word("during"))
                ]
            case EventKind.DRAW:
                self._drawn[p] = e.tile
                return [{"type": "tsumo", "actor": p, "pai": self._tile(e.tile)}]
            case EventKind.DISCARD:
                return [self._dahai(e)]
            case EventKind.TING:
                return [{"type": "reach", "actor": p}, self._dahai(e)]
            case EventKind.CHI | EventKind.PENG | EventKind.MING_GANG:
                return [self._call(e)]
            case EventKind.AN_GANG:
                self._drawn[p] = None
                return [{"type": "ankan", "actor": p, "consumed": [self._tile(e.tile)] * 4}]
            case EventKind.JIA_GANG:
                self._drawn[p] = None
                self._kakan = e.tile
                pai = self._tile(e.tile)
                return [{"type": "kakan", "actor": p, "pai": pai, "consumed": [pai] * 3}]
            case EventKind.PASS:
                return [extension("pass", actor=p)] if self.seat is None else []
            case EventKind.HU | EventKind.ZIMO:
                return [self._hora(e, result)]
            case EventKind.HUANGZHUANG:
                return [self._ryukyoku("fanpai", result)]
            case EventKind.ESCAPE:
                return [extension("escape", actor=p)]
            case EventKind.TRUSTEE:
                return [extension("trustee", actor=p, on=e.flag("on"))]
            case EventKind.TIMEOUT:
                return [extension("timeout", actor=p, move=e.word("move"))]
            case EventKind.END:
                out: list[Message] = []
                if result is not None and result.kind is ResultKind.ABORT and not self._settled:
                    out.append(self._ryukyoku(PREFIX + "escape", result))
                return [*out, {"type": "end_kyoku"}]
        own = self.ruleset.mjai()  # the family's own kinds
        found = None if own is None else own.event(e, self._forget_draw)
        return [] if found is None else found

    def _forget_draw(self, seat: int) -> None:
        self._drawn[seat] = None

    def _dahai(self, e: Event) -> Message:
        p = e.player
        drawn = self._drawn[p]
        self._drawn[p] = None
        self._discard = e.tile
        self._kakan = None
        out: Message = {
            "type": "dahai",
            "actor": p,
            "pai": self._tile(e.tile),
            "tsumogiri": drawn is not None and drawn == e.tile,
        }
        why = e.data.get("why", "turn")
        if why != "turn":
            out[PREFIX + "why"] = why
        return out

    def _call(self, e: Event) -> Message:
        p = e.player
        self._drawn[p] = None
        claimed = self._discard
        consumed = list(e.tiles)
        if claimed in consumed:
            consumed.remove(claimed)
        kind = _CALLS.get(e.kind, "daiminkan")
        return {
            "type": kind,
            "actor": p,
            "target": 1 - p,
            "pai": self._tile(claimed),
            "consumed": mjai_tiles(consumed),
        }

    def _hora(self, e: Event, result: HandResult | None) -> Message:
        p = e.player
        how = e.word("how")
        selfdrawn = e.kind is EventKind.ZIMO or how not in ("discard", "robbing")
        tile = e.tile
        if tile is None and e.kind is EventKind.ZIMO:
            tile = self._drawn[p]
        if tile is None and result is not None and result.hand is not None:
            tile = result.hand.winning
        out: Message = {
            "type": "hora",
            "actor": p,
            "target": p if selfdrawn else 1 - p,
            "pai": self._tile(tile),
            PREFIX + "how": how,
        }
        if result is not None:
            if result.hand is not None:
                out["hora_tehais"] = mjai_tiles(result.hand.concealed)
            out[PREFIX + "fans"] = [[name, value, count] for name, value, count in result.fans]
            out[PREFIX + "fan_total"] = result.fan_total
            out[PREFIX + "points"] = result.points
            out.update(self._settle(result))
        return out

    def _ryukyoku(self, reason: str, result: HandResult | None) -> Message:
        out: Message = {"type": "ryukyoku", "reason": reason}
        if result is not None:
            out.update(self._settle(result))
        return out

    def _settle(self, result: HandResult) -> Message:
        """``deltas`` and the ``scores`` after them (applied once per hand)."""
        if not self._settled:
            self._settled = True
            self.scores = [self.scores[0] + result.deltas[0], self.scores[1] + result.deltas[1]]
        return {"deltas": list(result.deltas), "scores": list(self.scores)}


# ====================================================================== a seat's answers
def _chow(action: Action, observation: Observation) -> list[Tile]:
    """The physical tiles of the chow ``action`` makes (xiamen: a White plays as the gold)."""
    start = action.tile_kind()
    view = observation.view
    return sorted(view.played_as(Tile(start + i)) for i in range(3))


def action_to_mjai(action: Action, observation: Observation) -> Message:
    """The mjai message a seat sends to make ``action`` (dahai with tsumogiri, pon/chi with
    consumed, reach+dahai for ting as the profile says, hora, none for pass, extensions for the
    family's own moves).

    报听 (``ting X``) is one message, ``{"type": "reach", "actor": p, "pai": X, "tsumogiri": b}``:
    the declaration with the tile it discards (a plain mjai bot's ``reach`` then ``dahai`` are
    joined by :func:`join_reach`)."""
    p = observation.player
    tile = mjai_tile(action.tile)
    pending = mjai_tile(observation.pending)
    match action.kind:
        case ActionKind.DISCARD | ActionKind.TING:
            out: Message = {
                "type": "dahai" if action.kind is ActionKind.DISCARD else "reach",
                "actor": p,
                "pai": tile,
                "tsumogiri": observation.last_drawn is not None
                and observation.last_drawn == action.tile,
            }
            return out
        case ActionKind.CHI:
            consumed = _chow(action, observation)
            if observation.pending in consumed:
                consumed.remove(observation.pending)
            return {
                "type": "chi",
                "actor": p,
                "target": 1 - p,
                "pai": pending,
                "consumed": mjai_tiles(consumed),
            }
        case ActionKind.PENG | ActionKind.MING_GANG:
            kind, n = ("pon", 2) if action.kind is ActionKind.PENG else ("daiminkan", 3)
            return {
                "type": kind,
                "actor": p,
                "target": 1 - p,
                "pai": pending,
                "consumed": [pending] * n,
            }
        case ActionKind.AN_GANG:
            return {"type": "ankan", "actor": p, "consumed": [tile] * 4}
        case ActionKind.JIA_GANG:
            return {"type": "kakan", "actor": p, "pai": tile, "consumed": [tile] * 3}
        case ActionKind.HU:
            return {"type": "hora", "actor": p, "target": 1 - p, "pai": pending}
        case ActionKind.ZIMO:
            return {
                "type": "hora",
                "actor": p,
                "target": p,
                "pai": mjai_tile(observation.last_drawn),
            }
        case ActionKind.PASS:
            return {"type": "none"}
        case _:
            own = _extension(observation)
            found = None if own is None else own.action(action, observation)
            if found is None:
                raise ValueError(f"{action} is not a seat's move: no mjai message makes it")
            return found


_EXTENSIONS: dict[type, MjaiExtension | None] = {}


def _extension(observation: Observation) -> MjaiExtension | None:
    """The mjai part of the family whose view ``observation`` carries (once per view type)."""
    kind = type(observation.view)
    if kind not in _EXTENSIONS:
        _EXTENSIONS[kind] = find_family(observation.view.family).mjai()
    return _EXTENSIONS[kind]


def legal_messages(observation: Observation) -> list[Message]:
    """The mjai message of every move the seat may make now (``erren:legal`` for a bot that
    wants them: 跟打 and 报听's frozen hand show here as the discards left)."""
    return [action_to_mjai(a, observation) for a in observation.legal_actions]


def join_reach(reach: Mapping[str, object], dahai: Mapping[str, object]) -> Message:
    """A plain mjai bot's ``reach`` and the ``dahai`` it sent after, as the profile's one
    message of 报听."""
    return {**dict(dahai), "type": "reach", "actor": reach.get("actor", dahai.get("actor"))}


_ANSWERS: Mapping[str, Answer] = {
    "dahai": Answer(("pai",)),
    "reach": Answer(("pai",)),
    "chi": Answer(("pai", "consumed")),
    "pon": Answer(("pai",)),
    "daiminkan": Answer(("pai",)),
    "ankan": Answer(("consumed",)),
    "kakan": Answer(("pai",)),
    "hora": Answer(("target",)),
    "none": Answer(),
}
"""The shared answers' types and the fields that choose among the legal moves (besides the
type); a family's own are its mjai part's (:attr:`MjaiExtension.answers`)."""

_ALL_ANSWERS: dict[tuple[str, ...], Mapping[str, Answer]] = {}


def _answers() -> Mapping[str, Answer]:
    """The shared answers and every known family's own (once per set of families)."""
    names = family_names()
    if names not in _ALL_ANSWERS:
        merged = dict(_ANSWERS)
        for name in names:
            own = find_family(name).mjai()
            if own is not None:
                merged.update(own.answers)
        _ALL_ANSWERS[names] = merged
    return _ALL_ANSWERS[names]


def _key(message: Mapping[str, object], type_: str, where: str) -> tuple[object, ...]:
    """What identifies the move ``message`` asks for; raises :class:`MjaiError` on a bad shape."""
    key: list[object] = [type_]
    answer = _answers()[type_]
    for field in answer.fields:
        if field not in message:
            raise MjaiError(f"{type_} needs {field!r}", where)
        value = message[field]
        if field == "target":
            if not isinstance(value, int) or isinstance(value, bool) or value not in (0, 1):
                raise MjaiError(f"{type_} target must be seat 0 or 1, not {value!r}", where)
            key.append(value)
        elif field == "consumed":
            if not isinstance(value, list) or not value:
                raise MjaiError(f"{type_} consumed must be a list of tiles", where)
            key.append(tuple(sorted(_tile_of(v, where) for v in value)))
        else:
            key.append(_tile_of(value, where))
    for field in answer.optional:
        if field in message:
            key.append(_tile_of(message[field], where))
    return tuple(key)


def _tile_of(value: object, where: str) -> Tile:
    try:
        return parse_mjai_tile(value)
    except NotationError as err:
        raise MjaiError(err.reason, where) from None


def mjai_to_action(
    message: Mapping[str, object], legal: Sequence[Action], observation: Observation
) -> Action:
    """The legal action ``message`` asks for; raises :class:`MjaiError` (a NotationError
    subclass) whose text names the problem: malformed JSON shape, unknown type, unknown tile, or
    not legal now (saying which legal moves there are)."""
    import json  # noqa: PLC0415

    if not isinstance(message, Mapping):
        raise MjaiError(f"an mjai message is a JSON object, not {type(message).__name__}")
    where = json.dumps(dict(message), ensure_ascii=False)[:200]
    type_ = message.get("type")
    if not isinstance(type_, str):
        raise MjaiError("an mjai message needs a string 'type'", where)
    if type_ not in _answers():
        known = ", ".join(sorted(_answers()))
        raise MjaiError(f"unknown message type {type_!r} for a move (one of: {known})", where)
    actor = message.get("actor", observation.player)
    if isinstance(actor, bool) or actor != observation.player:
        raise MjaiError(f"actor {actor!r} is not this seat ({observation.player})", where)
    wanted = _key(message, type_, where)
    for action in legal:
        try:
            theirs = action_to_mjai(action, observation)
        except ValueError:
            continue
        if theirs["type"] == type_ and _key(theirs, type_, where) == wanted:
            return action
    names = ", ".join(json.dumps(action_to_mjai(a, observation)) for a in legal) or "none"
    raise MjaiError(f"{type_} is not legal now; the legal moves are: {names}", where)
