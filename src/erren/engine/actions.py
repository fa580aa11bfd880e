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
    1:sanjindao             xiamen: 三金倒, three golds in the opening window
    0:qiangjin:3z  1:qiangjin   xiamen: 抢金胡 (the dealer names the tile he lays out)
    0:win  0:discardgold    xiamen: a player in the 游 chain who drew a gold wins or discards it
    c:seed:123456           chance: the seed of a hand's in-play events (arcade: pung offers,
                            pick-any, the reserve positions of exchanged tiles, the big bleed)
    0:give:9m               arcade: give up one more tile, in canonical order (the opening
                            exchange's tiles, or one of the three for the pung offer: the
                            third completes the swap)
    0:exchange              arcade: end the opening exchange: the tiles given so far (or none)
                            go for tiles from the reserve
    0:pick:3s               arcade: pick-any (搓牌) names the kind to draw
    0:exchange:19m5z  0:takepung:14m9p   arcade records made before ``give``: the exchange of
                            these tiles, accepting the pung offer for these three; replays only
                            (``State.apply_recorded`` expands them into ``give`` steps)

Draws are not actions: the wall order is fixed by the shuffle, so every draw follows from it.
Actions are interned: building the same action twice returns the same object, so legal-action
generation allocates nothing in the hot path.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from erren.errors import NotationError
from erren.notation import format_tiles, parse_tiles
from erren.tiles import NUM_KINDS, Tile

__all__ = ["CHANCE", "Action", "ActionKind"]

CHANCE = -1
"""The ``player`` of a chance action."""


class ActionKind(Enum):
    """What an action does.  The value is its verb in the string form."""

    __hash__ = object.__hash__
    """By identity, as members compare (``Enum`` hashes the name in Python: these are set and
    dict keys on the engine's hot path)."""

    SHUFFLE = "shuffle"
    DICE = "dice"
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
    SANJINDAO = "sanjindao"
    QIANGJIN = "qiangjin"
    WIN = "win"
    DISCARD_GOLD = "discardgold"
    SEED = "seed"
    EXCHANGE = "exchange"
    PICK = "pick"
    TAKE_PUNG = "takepung"
    GIVE = "give"

    @property
    def is_chance(self) -> bool:
        return self in (ActionKind.SHUFFLE, ActionKind.DICE, ActionKind.SEED)

    @property
    def is_system(self) -> bool:
        """Actions a server applies for a player; never listed by ``legal_actions``."""
        return self in (ActionKind.TIMEOUT, ActionKind.TRUSTEE, ActionKind.ESCAPE)


_TILE_ARG = frozenset(
    {
        ActionKind.DISCARD,
        ActionKind.TING,
        ActionKind.CHI,
        ActionKind.AN_GANG,
        ActionKind.JIA_GANG,
        ActionKind.QIANGJIN,
        ActionKind.PICK,
        ActionKind.GIVE,
    }
)
_TILES_ARG = frozenset({ActionKind.EXCHANGE, ActionKind.TAKE_PUNG})
"""Actions naming several tiles, kept sorted in ``data``: arcade's composite exchange and
pung-offer answer of old records (replayed as ``give`` steps)."""
_BY_VERB = {k.value: k for k in ActionKind}


@dataclass(frozen=True, slots=True)
class Action:
    """One move.  ``tile`` is the tile a move names (for chi: the first tile of the chow);
    ``data`` holds a chance outcome (the wall's tile ids, the dice, an event seed), the 托管
    switch (1/0) or the sorted tiles an arcade exchange or pung offer gives up."""

    kind: ActionKind
    player: int
    tile: Tile | None = None
    data: tuple[int, ...] = ()

    # ----------------------------------------------------------------- constructors
    @classmethod
    def make(cls, kind: ActionKind, player: int, tile: int | None = None) -> Action:
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
    def tiles_action(cls, kind: ActionKind, player: int, tiles: Iterable[int]) -> Action:
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
        kind = _BY_VERB.get(verb)
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
        if kind is ActionKind.QIANGJIN and arg is None:
            return cls.make(kind, player)
        if kind in _TILES_ARG:
            tiles = parse_tiles(arg) if arg else []
            if any(t >= NUM_KINDS for t in tiles):
                raise NotationError(f"{verb} names playing tiles", text)
            if kind is ActionKind.TAKE_PUNG and len(tiles) != 3:
                raise NotationError("takepung gives up three tiles, e.g. takepung:14m9p", text)
            return cls.tiles_action(kind, player, tiles)
        if kind in _TILE_ARG:
            if arg is None:
                raise NotationError(f"{verb} needs a tile", text)
            tiles = parse_tiles(arg)
            if kind is ActionKind.CHI:
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
        if self.kind is ActionKind.CHI:
            return f"{self.player}:{verb}:{format_tiles((self.tile, self.tile + 1, self.tile + 2))}"
        return f"{self.player}:{verb}:{self.tile}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


_INTERNED: dict[tuple[ActionKind, int, int], Action] = {}
