"""One object per store, made when first asked for and gone with its store (a weak key): the
review desk, the background reviews and a player's own puzzles each belong to the store they
write to, whichever table, route or test reaches them."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from erren.server.store import Store

__all__ = ["PerStore"]

T = TypeVar("T")


class PerStore(Generic[T]):
    """``for_store(store)``: the one ``make(store)`` of ``store``."""

    def __init__(self, make: Callable[[Store], T]) -> None:
        self._make = make
        self._made: weakref.WeakKeyDictionary[Store, T] = weakref.WeakKeyDictionary()

    def __call__(self, store: Store) -> T:
        found = self._made.get(store)
        if found is None:
            found = self._made[store] = self._make(store)
        return found
