"""One generic codec: engine values to JSON-ready values and back, from their type hints.

:func:`encode` walks a value: a dataclass becomes an object of its fields, a named tuple an
object of its fields, a :class:`~erren.tiles.Tile` its notation (``"5m"``), any other enum its
value, an :class:`~erren.engine.Action` its string (``"0:discard:5m"``), a tuple or list a
list, a mapping an object.  A :class:`~erren.melds.Meld` also gets its ``text`` in the
notation (for display).  :func:`decode` is the inverse, driven by the target's type hints
(``Tile | None``, ``tuple[int, int]``, ``tuple[Tile, ...]``, enums, ``Literal``, nested
dataclasses, and unions of dataclasses told apart by a ``Literal`` field such as the views'
``family``).  The server protocol, the generated JSDoc typedefs of the web client and the tests
all go through this one walk, so a network bot receives exactly the fields a local bot reads.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Literal, TypeAlias, TypeVar, Union, get_args, get_origin

from erren.engine.actions import Action
from erren.engine.events import Event
from erren.engine.views import ViewFacts, view_class
from erren.melds import Meld
from erren.notation import parse_tile
from erren.tiles import Tile

__all__ = ["JSON", "decode", "encode", "field_hints"]

JSON: TypeAlias = bool | int | float | str | list["JSON"] | dict[str, "JSON"] | None

T = TypeVar("T")

_TEXT: tuple[str, ...] = tuple(str(Tile(i)) for i in range(len(Tile)))


def encode(value: object) -> JSON:
    """``value`` as plain JSON data (see the module docstring for the rules)."""
    kind = type(value)
    encoder = _ENCODERS.get(kind)
    if encoder is None:
        encoder = _ENCODERS[kind] = _encoder(kind)
    return encoder(value)


_Encoder: TypeAlias = Callable[[Any], JSON]


def _same(value: JSON) -> JSON:
    return value


def _tile(value: Tile) -> JSON:
    return _TEXT[value]


_PLAIN = frozenset({str, int, bool, float, type(None)})


def _sequence(value: Any) -> JSON:
    # the common items inline (a hand's tiles, a seat's flags): one call per list, not per item
    return [
        _TEXT[item] if type(item) is Tile else item if type(item) in _PLAIN else encode(item)
        for item in value
    ]


def _mapping(value: Any) -> JSON:
    return {str(key): item if type(item) in _PLAIN else encode(item) for key, item in value.items()}


def _event_json(value: Any) -> JSON:
    return {name: encode(item) for name, item in zip(Event._fields, value, strict=True)}


def _encoder(kind: type) -> _Encoder:
    """How to encode the values of type ``kind`` (found once per type, then cached)."""
    if issubclass(kind, Tile):
        return _tile
    if issubclass(kind, enum.Enum):
        return lambda value: encode(value.value)
    if kind is type(None) or issubclass(kind, bool | str | float | int):
        return _same
    if issubclass(kind, Action):
        return str
    if issubclass(kind, Meld):
        return _meld
    if issubclass(kind, Event):
        return _event_json
    if dataclasses.is_dataclass(kind):
        names = _field_names(kind)
        return lambda value: {name: encode(getattr(value, name)) for name in names}
    if issubclass(kind, tuple | list):
        return _sequence
    if issubclass(kind, Mapping):
        return _mapping
    raise TypeError(f"cannot encode {kind.__name__} as JSON")


_ENCODERS: dict[type, _Encoder] = {}


def _meld(meld: Meld) -> dict[str, JSON]:
    return {
        "kind": meld.kind.value,
        "tiles": [_TEXT[t] for t in meld.tiles],
        "claimed": None if meld.claimed is None else _TEXT[meld.claimed],
        "text": str(meld),
    }


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


@cache
def field_hints(cls: type) -> tuple[tuple[str, Any], ...]:
    """``(name, type)`` of each field of the dataclass ``cls``, the hints resolved."""
    import erren.engine  # noqa: PLC0415 - the names hints refer to only under TYPE_CHECKING

    hints = typing.get_type_hints(cls, localns=vars(erren.engine))
    return tuple((name, hints[name]) for name in _field_names(cls))


def decode(hint: type[T], data: JSON) -> T:
    """The value of type ``hint`` that :func:`encode` turned into ``data``; raises
    :class:`ValueError` if ``data`` does not fit."""
    return _decode(hint, data)  # type: ignore[no-any-return]


def _decode(hint: Any, data: JSON) -> Any:
    origin = get_origin(hint)
    if hint is Any:
        return data
    if hint is type(None):
        if data is not None:
            raise ValueError(f"expected null, got {data!r}")
        return None
    if origin is Union or origin is types.UnionType:
        return _union(get_args(hint), data)
    if origin is Literal:
        if data not in get_args(hint):
            raise ValueError(f"{data!r} is not one of {get_args(hint)}")
        return data
    if origin is tuple:
        args = get_args(hint)
        if not isinstance(data, list):
            raise ValueError(f"expected a list, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], item) for item in data)
        if len(args) != len(data):
            raise ValueError(f"expected {len(args)} items, got {data!r}")
        return tuple(_decode(a, item) for a, item in zip(args, data, strict=True))
    if origin is not None and origin in (Mapping, dict):
        _, item_hint = get_args(hint)
        if not isinstance(data, dict):
            raise ValueError(f"expected an object, got {data!r}")
        return {str(k): _decode(item_hint, v) for k, v in data.items()}
    if hint is Tile:
        if not isinstance(data, str):
            raise ValueError(f"expected a tile, got {data!r}")
        return parse_tile(data)
    if hint is Action:
        if not isinstance(data, str):
            raise ValueError(f"expected an action, got {data!r}")
        return Action.parse(data)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(data) if hint.__members__ else _open_member(hint, data)
    if hint is bool:
        if not isinstance(data, bool):
            raise ValueError(f"expected true or false, got {data!r}")
        return data
    if hint is int:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise ValueError(f"expected a number, got {data!r}")
        return int(data)
    if hint is str:
        if not isinstance(data, str):
            raise ValueError(f"expected a string, got {data!r}")
        return data
    if hint is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise ValueError(f"expected a number, got {data!r}")
        return float(data)
    if hint is ViewFacts:  # a family's view, named by its ``family`` on the wire
        family = data.get("family") if isinstance(data, dict) else None
        if not isinstance(family, str):
            raise ValueError(f"a family view names its family, got {data!r}")
        return _dataclass(view_class(family), data)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(hint, data)
    if hint is Event:
        return _event(data)
    raise TypeError(f"cannot decode {hint!r}")


def _dataclass(cls: type, data: JSON) -> object:
    if not isinstance(data, dict):
        raise ValueError(f"expected an object for {cls.__name__}, got {data!r}")
    values = {}
    for name, hint in field_hints(cls):
        if name in data:
            values[name] = _decode(hint, data[name])
    return cls(**values)


def _event(data: JSON) -> Event:
    if not isinstance(data, dict):
        raise ValueError(f"expected an event object, got {data!r}")
    hints = typing.get_type_hints(Event)
    return Event(
        **{name: _decode(hints[name], data[name]) for name in Event._fields if name in data}
    )


def _open_member(base: type[enum.Enum], data: JSON) -> enum.Enum:
    """The member named ``data`` of an enum that declares none (a vocabulary the families extend,
    such as ``FamilyPhase`` or ``AnyWinHow``): found among its subclasses, every family loaded."""
    from erren.engine.registry import load_families  # noqa: PLC0415 - the registry imports this

    load_families()
    pending = list(base.__subclasses__())
    while pending:
        kind = pending.pop()
        if kind.__members__:
            try:
                return kind(data)
            except ValueError:
                pass
        pending.extend(kind.__subclasses__())
    raise ValueError(f"{data!r} is not a {base.__name__}")


def _union(members: tuple[Any, ...], data: JSON) -> object:
    if data is None and type(None) in members:
        return None
    rest = [m for m in members if m is not type(None)]
    if len(rest) == 1:
        return _decode(rest[0], data)
    classes = [m for m in rest if isinstance(m, type) and dataclasses.is_dataclass(m)]
    if classes and isinstance(data, dict):
        for cls in classes:
            if _tag_matches(cls, data):
                return _dataclass(cls, data)
        raise ValueError(f"no member of {members} fits {data!r}")
    for member in rest:  # plain values: the first that fits (EventValue: str | int | ...)
        try:
            return _decode(member, data)
        except (ValueError, TypeError):
            continue
    raise ValueError(f"no member of {members} fits {data!r}")


def _tag_matches(cls: type, data: dict[str, JSON]) -> bool:
    """Whether ``data`` carries the value of ``cls``'s ``Literal`` tag fields."""
    tagged = False
    for name, hint in field_hints(cls):
        if get_origin(hint) is Literal:
            tagged = True
            if data.get(name) not in get_args(hint):
                return False
    return tagged
