"""PettingZoo's wrappers of the classic games, with their checks on the hot path made cheap.

:func:`erren.rl.env` wraps the raw environment as PettingZoo's classic games are
(``AssertOutOfBoundsWrapper``, then ``OrderEnforcingWrapper``).  Each wrapper reads the
environment's attributes through ``__getattr__`` chains and checks an index with
``Discrete.contains``: more time than the game's own step.  These subclasses make the same
checks and raise the same errors, reading the raw environment's attributes directly:

* :class:`BoundsChecked` accepts a plain ``int`` inside ``0 .. n − 1`` at once (anything else
  goes through PettingZoo's check);
* :class:`OrderEnforced` answers ``last()``, ``step()`` and ``agent_iter()`` after ``reset()``
  from the raw environment (before it, PettingZoo's own errors); over :class:`BoundsChecked`
  alone it calls the raw ``observe`` directly, and the raw ``step`` for an index in bounds or
  a terminated agent's ``None``.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import AssertOutOfBoundsWrapper, OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

__all__ = ["BoundsChecked", "OrderEnforced"]

Last = tuple[Any, float, bool, bool, dict[str, Any]]


class BoundsChecked(AssertOutOfBoundsWrapper):
    """``AssertOutOfBoundsWrapper`` for a ``Discrete(n)`` action space."""

    def __init__(self, env: AECEnv, actions: int) -> None:
        super().__init__(env)
        self._actions = actions

    def step(self, action: Any) -> None:
        if type(action) is int and 0 <= action < self._actions:
            self.env.step(action)
        else:
            super().step(action)


class OrderEnforced(OrderEnforcingWrapper):
    """``OrderEnforcingWrapper`` reading the raw environment directly once reset."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped
        raw = self._raw
        direct = type(env) is BoundsChecked and env.env is raw
        self._observe = raw.observe if direct else env.observe
        """The raw environment's ``observe`` when only :class:`BoundsChecked` is between (it
        passes ``observe`` through), else the wrapped environment's."""
        self._bounds = env._actions if direct else -1
        """The number of actions whose index :meth:`step` hands the raw environment at once
        (the check :class:`BoundsChecked` makes, which also lets ``None`` through for a
        terminated agent), or -1: every action goes through ``env``."""

    def last(self, observe: bool = True) -> Last:
        if not self._has_reset:
            checked: Last = super().last(observe)  # PettingZoo's error before reset()
            return checked
        raw = self._raw
        agent = raw.agent_selection
        found: Last = (
            self._observe(agent) if observe else None,
            raw._cumulative_rewards[agent],
            raw.terminations[agent],
            raw.truncations[agent],
            raw.infos[agent],
        )
        return found

    def step(self, action: Any) -> None:
        raw = self._raw
        if self._has_reset and raw.agents:
            self._has_updated = True
            if type(action) is int and 0 <= action < self._bounds:
                raw.step(action)
            elif action is None and self._bounds >= 0 and raw.terminations[raw.agent_selection]:
                raw.step(None)  # a dead agent's step: BoundsChecked lets None through
            else:
                self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _Iterable(self, max_iter)


class _Iterable(AECOrderEnforcingIterable):
    def __iter__(self) -> AECOrderEnforcingIterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):
    """PettingZoo's iterator (the same order check), reading the raw environment."""

    def __init__(self, env: OrderEnforced, max_iter: int) -> None:
        super().__init__(env, max_iter)
        self._wrapper = env
        self._raw = env._raw

    def __next__(self) -> Any:
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        wrapper = self._wrapper
        if not wrapper._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        wrapper._has_updated = False
        return raw.agent_selection
