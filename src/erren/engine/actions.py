"""Actions: the immutable moves applied to a hand's state, each with a compact string form.

Every action names who makes it: a seat (``0`` or ``1``) or chance (``c``).  The string form is
``who:verb[:argument]`` and round-trips (``Action.parse(str(a)) == a``)::

    c:shuffle:1m5z7m...     chance: the whole wall, W[0] first (the outcome is recorded)
    c:dice:3,5              chance: a roll of dice (cosmetic in guobiao-2p, the gold in xiamen)
    0:discard:5m            discard a tile of the concealed hand
    0:ting:5m               discard + 报听 (declare ready)
    1:chi:345m              chi the pending discard into the chow 3-4-5m
    1:peng   1:minggang     claim the pending discard
    1:hu                    win on the pending discard, or rob the pending 加杠 (抢杠和)
    0:zimo                  self-drawn win
    0:angang:7z  0:jiagang:3m
    1:pass                  decline a claim or a robbing chance
    0:timeout               the player's timer ran out: the engine plays the spec's default move
    0:trustee:on            托管 on/off (allowed at any time before the end)
    0:escape                the player left the table (逃跑)
    c:seed:123456           chance: the seed of a hand's in-play events (arcade: pung offers,
                            pick-any, the reserve positions of exchanged tiles, the big bleed)

A family's own verbs (xiamen's ``sanjindao``, ``qiangjin``, ``win``, ``discardgold``; arcade's
``give``, ``exchange``, ``pick``, ``takepung``) are an enum of its package subclassing
:class:`AnyActionKind`, registered with :func:`register_verbs` and its :class:`VerbRule` for
each (what the verb names, whether it wins or throws a tile, its words).

Draws are not actions: the wall order is fixed by the shuffle, so every draw follows from it.
Actions are interned: building the same action twice returns the same object, so legal-action
generation allocates nothing in the hot path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Protocol, TypeVar

from erren.errors import NotationError
from erren.notation import format_tiles, parse_tiles
from erren.tiles import NUM_KINDS, Tile

__all__ = [
    "CHANCE",
    "Action",
    "ActionKind",
    "AnyActionKind",
    "Argument",
    "TileWords",
    "VerbRule",
    "register_verbs",
    "unregister_verbs",
    "verb_rule",
    "verbs",
]

CHANCE = -1
"""The ``player`` of a chance action."""


class AnyActionKind(Enum):
    """What an action does: the shared :class:`ActionKind` or one of a family's own verbs (an
    enum of its own, subclassing this one, registered with :func:`register_verbs`).  The value
    is the verb of the string form.  What a kind takes and means is its :class:`VerbRule`."""

    __hash__ = object.__hash__
    """By identity, as members compare (``Enum`` hashes the name in Python: these are set and
    dict keys on the engine's hot path)."""

    _value_: str

    @property
    def is_chance(self) -> bool:
        return self in _CHANCE

    @property
    def is_system(self) -> bool:
        """Actions a server applies for a player; never listed by ``legal_actions``."""
        return self in _SYSTEM

    @property
    def is_win(self) -> bool:
        """Moves that end the hand with the mover's own win, in every family: 和 on a discard
        or a robbed kong, 自摸, and the wins a family declares (:attr:`VerbRule.wins`).  Never a
        pass, nor a risk taken for a bigger win (xiamen's 游金)."""
        return self in _WINS

    @property
    def throws(self) -> bool:
        """Moves that put a tile of the hand into the river (a discard, 报听, and the family's
        own throws such as xiamen's gold thrown to swim on)."""
        return self in _THROWS


class ActionKind(AnyActionKind):
    """The verbs every family shares (a family's own are in its package)."""

    SHUFFLE = "shuffle"
    DICE = "dice"
    SEED = "seed"
    """The seed of a hand's in-play random events (arcade's pung offers, pick-any...)."""
    DISCARD = "discard"
    TING = "ting"
    CHI = "chi"
    PENG = "peng"
    MING_GANG = "minggang"
    AN_GANG = "angang"
    JIA_GANG = "jiagang"
    HU = "hu"
    ZIMO = "zimo"
    PASS = "pass"
    TIMEOUT = "timeout"
    TRUSTEE = "trustee"
    ESCAPE = "escape"


class Argument(Enum):
    """What a verb's string form names after it."""

    NONE = "none"
    TILE = "tile"
    """One playing tile (``discard:5m``)."""
    TILE_OR_NONE = "tile-or-none"
    """One playing tile or nothing (xiamen's ``qiangjin:3z`` and ``qiangjin``)."""
    CHOW = "chow"
    """A chow, kept as its first tile (``chi:345m``)."""
    TILES = "tiles"
    """Several playing tiles, kept sorted in ``data`` (arcade's ``exchange:19m5z``)."""


class TileWords(Protocol):
    """Tiles in words, as a client draws them (the terminal's palette)."""

    def name(self, tile: int) -> str: ...

    def tiles(self, tiles: Iterable[int]) -> str: ...


@dataclass(frozen=True, slots=True)
class VerbRule:
    """What one verb takes and means."""

    argument: Argument = Argument.NONE
    wins: bool = False
    """The move wins the hand for its maker (:attr:`AnyActionKind.is_win`)."""
    throws: bool = False
    """The move puts a tile of the hand into the river (:attr:`AnyActionKind.throws`)."""
    count: int | None = None
    """``Argument.TILES``: exactly this many tiles (``None``: any number)."""
    usage: str = ""
    """The refusal's words when the argument is wrong (``takepung gives up three tiles...``)."""
    words: Callable[[Action, TileWords], str] | None = None
    """The move in words for a terminal menu (``None``: the shared words or the string form)."""


_RULES: dict[AnyActionKind, VerbRule] = {}
_Verb = TypeVar("_Verb", bound=AnyActionKind)
_BY_VERB: dict[str, AnyActionKind] = {}
_CHANCE: frozenset[AnyActionKind] = frozenset()
_SYSTEM: frozenset[AnyActionKind] = frozenset()
_WINS: set[AnyActionKind] = set()
_THROWS: set[AnyActionKind] = set()
_TILE_ARG: set[AnyActionKind] = set()
_TILES_ARG: set[AnyActionKind] = set()
"""Actions naming several tiles, kept sorted in ``data`` (:attr:`Argument.TILES`)."""


def register_verbs(kinds: type[_Verb], rules: Mapping[_Verb, VerbRule]) -> None:
    """Make a family's verbs known to the engine (once, when its package is imported): every
    member of ``kinds`` with its rule (a member without one takes no argument).  A verb already
    taken by another kind is refused."""
    for kind in kinds:
        taken = _BY_VERB.get(kind.value)
        if taken is not None and taken is not kind:
            raise ValueError(f"the verb {kind.value!r} is already {taken!r}")
        rule = rules.get(kind, VerbRule())
        _RULES[kind] = rule
        _BY_VERB[kind.value] = kind
        for wanted, into in ((rule.wins, _WINS), (rule.throws, _THROWS)):
            if wanted:
                into.add(kind)
        if rule.argument in (Argument.TILE, Argument.TILE_OR_NONE, Argument.CHOW):
            _TILE_ARG.add(kind)
        elif rule.argument is Argument.TILES:
            _TILES_ARG.add(kind)


def unregister_verbs(kinds: type[AnyActionKind]) -> None:
    """Forget a family's verbs (a plug-in registered for a while, as the tests do)."""
    for kind in kinds:
        _RULES.pop(kind, None)
        if _BY_VERB.get(kind.value) is kind:
            del _BY_VERB[kind.value]
        for into in (_WINS, _THROWS, _TILE_ARG, _TILES_ARG):
            into.discard(kind)


def verb_rule(kind: AnyActionKind) -> VerbRule:
    """The rule of ``kind`` (registered with its enum)."""
    return _RULES[kind]


def verbs() -> tuple[AnyActionKind, ...]:
    """Every verb known: the shared ones, then each family's, as the families were loaded."""
    _load_families()
    return tuple(_RULES)


def _load_families() -> None:
    from erren.engine.registry import load_families  # noqa: PLC0415 - the registry imports this

    load_families()


def _verb(word: str) -> AnyActionKind | None:
    found = _BY_VERB.get(word)
    if found is None:  # a family's verb before its package was imported
        _load_families()
        found = _BY_VERB.get(word)
    return found


_NEEDS_TILE = frozenset({Argument.TILE, Argument.CHOW})
"""The arguments that make a tile part of a move (:meth:`Action.make`)."""
_TILE = VerbRule(Argument.TILE)
register_verbs(
    ActionKind,
    {
        ActionKind.DISCARD: VerbRule(Argument.TILE, throws=True),
        ActionKind.TING: VerbRule(Argument.TILE, throws=True),
        ActionKind.CHI: VerbRule(Argument.CHOW),
        ActionKind.AN_GANG: _TILE,
        ActionKind.JIA_GANG: _TILE,
        ActionKind.HU: VerbRule(wins=True),
        ActionKind.ZIMO: VerbRule(wins=True),
    },
)
_CHANCE = frozenset({ActionKind.SHUFFLE, ActionKind.DICE, ActionKind.SEED})
_SYSTEM = frozenset({ActionKind.TIMEOUT, ActionKind.TRUSTEE, ActionKind.ESCAPE})


@dataclass(frozen=True, slots=True)
class Action:
    """One move.  ``tile`` is the tile a move names (for chi: the first tile of the chow);
    ``data`` holds a chance outcome (the wall's tile ids, the dice, an event seed), the 托管
    switch (1/0) or the sorted tiles an arcade exchange or pung offer gives up."""

    kind: AnyActionKind
    player: int
    tile: Tile | None = None
    data: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        # built once per distinct move (``make`` interns them), so this costs the hot path nothing
        if self.tile is None and verb_rule(self.kind).argument in _NEEDS_TILE:
            raise ValueError(f"{self.player}:{self.kind.value} needs a tile")

    def tile_kind(self) -> int:
        """The kind (0-41) of the tile this move names, as a plain int: every move whose verb
        names a tile has one (an action is refused without); raises :class:`ValueError` for a
        move that names none.  A method, not a property: as cheap as ``int(action.tile)``."""
        tile = self.tile
        if tile is None:
            raise ValueError(f"{self} names no tile")
        return tile._value_  # not ``value``, a Python-level property

    # ----------------------------------------------------------------- constructors
    @classmethod
    def make(cls, kind: AnyActionKind, player: int, tile: int | None = None) -> Action:
        """The interned action (no chance data)."""
        key = (kind, player, -1 if tile is None else tile)
        found = _INTERNED.get(key)
        if found is None:
            found = cls(kind, player, None if tile is None else Tile(tile))
            _INTERNED[key] = found
        return found

    @classmethod
    def shuffle(cls, wall: tuple[int, ...]) -> Action:
        return cls(ActionKind.SHUFFLE, CHANCE, None, tuple(wall))

    @classmethod
    def dice(cls, *values: int) -> Action:
        return cls(ActionKind.DICE, CHANCE, None, tuple(values))

    @classmethod
    def seed(cls, value: int) -> Action:
        return cls(ActionKind.SEED, CHANCE, None, (value,))

    @classmethod
    def tiles_action(cls, kind: AnyActionKind, player: int, tiles: Iterable[int]) -> Action:
        """An action naming several tiles (``exchange``, ``takepung``); ``tiles`` are kinds."""
        return cls(kind, player, None, tuple(sorted(int(t) for t in tiles)))

    @classmethod
    def trustee(cls, player: int, on: bool) -> Action:
        return cls(ActionKind.TRUSTEE, player, None, (int(on),))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the string form; raises :class:`~erren.errors.NotationError`."""
        parts = text.strip().split(":")
        if len(parts) not in (2, 3):
            raise NotationError("an action is who:verb[:argument]", text)
        who, verb = parts[0], parts[1]
        arg = parts[2] if len(parts) == 3 else None
        kind = _verb(verb)
        if kind is None:
            raise NotationError(f"unknown action verb {verb!r}", text)
        if kind.is_chance:
            if who != "c":
                raise NotationError(f"{verb} is a chance action (written c:{verb}:...)", text)
            if arg is None or not arg:
                raise NotationError(f"{verb} needs its outcome", text)
            if kind is ActionKind.SHUFFLE:
                return cls.shuffle(tuple(int(t) for t in parse_tiles(arg)))
            if kind is ActionKind.SEED:
                if not arg.isdigit():
                    raise NotationError("an event seed is a whole number ≥ 0", text)
                return cls.seed(int(arg))
            try:
                return cls.dice(*(int(v) for v in arg.split(",")))
            except ValueError:
                raise NotationError(
                    "dice are written as numbers separated by commas", text
                ) from None
        if who not in ("0", "1"):
            raise NotationError(f"a player action needs seat 0 or 1, not {who!r}", text)
        player = int(who)
        if kind is ActionKind.TRUSTEE:
            if arg not in ("on", "off"):
                raise NotationError("trustee is switched on or off", text)
            return cls.trustee(player, arg == "on")
        rule = _RULES[kind]
        if rule.argument is Argument.TILE_OR_NONE and arg is None:
            return cls.make(kind, player)
        if kind in _TILES_ARG:
            tiles = parse_tiles(arg) if arg else []
            if any(t >= NUM_KINDS for t in tiles):
                raise NotationError(f"{verb} names playing tiles", text)
            if rule.count is not None and len(tiles) != rule.count:
                raise NotationError(rule.usage or f"{verb} names {rule.count} tiles", text)
            return cls.tiles_action(kind, player, tiles)
        if kind in _TILE_ARG:
            if arg is None:
                raise NotationError(f"{verb} needs a tile", text)
            tiles = parse_tiles(arg)
            if rule.argument is Argument.CHOW:
                kinds = sorted(tiles)
                ok = len(kinds) == 3 and kinds[0] < 27 and kinds[0] % 9 <= 6
                if not ok or kinds != list(range(kinds[0], kinds[0] + 3)):
                    raise NotationError("chi is written with its chow, e.g. chi:345m", text)
                return cls.make(kind, player, kinds[0])
            if len(tiles) != 1 or tiles[0] >= NUM_KINDS:
                raise NotationError(f"{verb} needs one playing tile", text)
            return cls.make(kind, player, tiles[0])
        if arg is not None:
            raise NotationError(f"{verb} takes no argument", text)
        return cls.make(kind, player)

    # ----------------------------------------------------------------- printing
    def __str__(self) -> str:
        verb = self.kind._value_  # not ``value``, a Python-level property
        if self.kind is ActionKind.SHUFFLE:
            return f"c:{verb}:" + "".join(str(Tile(t)) for t in self.data)
        if self.kind is ActionKind.DICE or self.kind is ActionKind.SEED:
            return f"c:{verb}:" + ",".join(str(v) for v in self.data)
        if self.kind in _TILES_ARG:
            return f"{self.player}:{verb}" + (f":{format_tiles(self.data)}" if self.data else "")
        if self.kind is ActionKind.TRUSTEE:
            return f"{self.player}:{verb}:{'on' if self.data and self.data[0] else 'off'}"
        if self.tile is None:
            return f"{self.player}:{verb}"
        if self.kind is ActionKind.CHI:  # the one verb naming a chow
            return f"{self.player}:{verb}:{format_tiles((self.tile, self.tile + 1, self.tile + 2))}"
        return f"{self.player}:{verb}:{self.tile}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


_INTERNED: dict[tuple[AnyActionKind, int, int], Action] = {}
