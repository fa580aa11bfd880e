"""Points to beans: the one place where a stake is applied.

Every family's engine settles a hand in **points** — ``HandResult.deltas`` is the change of
seat 0 and seat 1 in points, before any stake, for a win, a drawn hand and an escape alike
(guobiao-2p §6.1–6.2 and §6.5, xiamen R-4 and R-2.12, arcade R2.25).  A bean room converts those
points to beans here, once, for every family::

    beans owed = the loser's points × the room's stake (底分 / 房间基数)
    beans paid = min(beans owed, the payer's balance before the hand)

and the winner receives exactly what was paid; balances never go below 0 (guobiao-2p §6.3,
xiamen R-4.10, arcade R2.25).  Nothing else in erren multiplies by a stake: the table calls
:func:`to_beans` to settle a finished hand, the ledger audit calls it to check the settlement, and
``erren score`` calls it to show what a hand would cost in a room.

>>> to_beans((-12, 12), 50, (10_000, 10_000))
BeanMove(payer=0, payee=1, owed=600, paid=600)
>>> to_beans((26, -26), 200, (5_000, 1_800))
BeanMove(payer=1, payee=0, owed=5200, paid=1800)
>>> to_beans((0, 0), 6_000, (1, 1)).paid
0
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NEW_PLAYER_HANDS", "BeanMove", "escape_pays", "to_beans"]

NEW_PLAYER_HANDS = 10
"""An account is new until it has played this many bean-room hands to the end (won, lost or
drawn; escapes and called-off hands do not count)."""


def escape_pays(escaper_complete_hands: int, new_player_hands: int = NEW_PLAYER_HANDS) -> bool:
    """Whether an escape moves beans: not while the escaper is new.  A new account's beans are
    (nearly) all grants, and an escape is the one way to hand them over in seconds — six fresh
    puppets leaving at once fed one account 39,000 beans — so a new account's escape costs it
    its rating and the match, and moves no bean to anyone."""
    return escaper_complete_hands >= new_player_hands


@dataclass(frozen=True, slots=True)
class BeanMove:
    """What a finished hand moves in a bean room: ``payer`` gives ``paid`` beans to ``payee``.

    ``owed`` is what the points are worth at the stake; ``paid`` is what the payer's balance
    allowed (``paid < owed`` only when he could not cover it).  A hand that moves nothing (a
    drawn hand, a win worth 0 points) has ``payer = payee = None`` and both amounts 0.
    """

    payer: int | None
    payee: int | None
    owed: int
    paid: int

    @property
    def capped(self) -> bool:
        """The payer's balance limited the payment."""
        return self.paid < self.owed

    def deltas(self) -> tuple[int, int]:
        """Each seat's change in beans."""
        out = [0, 0]
        if self.payer is not None and self.payee is not None:
            out[self.payer], out[self.payee] = -self.paid, self.paid
        return out[0], out[1]


def _whole(value: object, what: str, least: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{what} must be a whole number, not {value!r}")
    if least is not None and value < least:
        raise ValueError(f"{what} must be a whole number ≥ {least}, not {value!r}")
    return value


def to_beans(
    deltas: tuple[int, int], stake: int, balances: tuple[int, int] | None = None
) -> BeanMove:
    """Convert a hand's point ``deltas`` (zero-sum, seat 0 then seat 1) to the beans it moves at
    ``stake`` beans per point, limited by the payer's entry in ``balances`` (before the hand;
    ``None``: what is owed, with no balance limit — ``erren score`` shows that)."""
    if len(deltas) != 2 or sum(_whole(d, "a point delta") for d in deltas) != 0:
        raise ValueError(f"point deltas are two whole numbers that sum to 0, not {deltas!r}")
    stake = _whole(stake, "the stake", 1)
    if balances is not None:
        if len(balances) != 2:
            raise ValueError(f"balances are two whole numbers ≥ 0, not {balances!r}")
        for balance in balances:
            _whole(balance, "a balance", 0)
    if deltas[0] == 0:
        return BeanMove(None, None, 0, 0)
    payer = 0 if deltas[0] < 0 else 1
    owed = -deltas[payer] * stake
    paid = owed if balances is None else min(owed, balances[payer])
    return BeanMove(payer, 1 - payer, owed, paid)
