"""What one player may see: the only thing a player, a bot or a client ever receives.

``observe(state, player)`` copies the public facts (both players' exposed melds, discards,
flowers, tile counts, 报听/托管 flags, whose turn, the wall count, the timer) and the player's own
private facts (his concealed tiles, his last drawn tile, his concealed kongs).  It never holds the
opponent's concealed tiles, the kind of his concealed kongs (face-down, §2.1) or the wall order.
At the end the winner's hand is shown to both (§2.11) through ``result``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from erren.engine.actions import Action
from erren.engine.phases import FamilyPhase, Origin, Phase
from erren.engine.views import FamilyView
from erren.melds import Meld, MeldKind
from erren.tiles import Tile

_TILES = tuple(Tile(i) for i in range(42))
_tile_of = _TILES.__getitem__
_DEAL, _END, _TURN = Phase.DEAL, Phase.END, Phase.TURN
_O_CLAIM = Origin.CLAIM
_AN_GANG = MeldKind.AN_GANG

if TYPE_CHECKING:
    from erren.engine.state import HandResult, State

__all__ = ["Observation", "Timer", "observe"]


@dataclass(frozen=True, slots=True)
class Timer:
    """The running decision timer: ``player`` must act within ``seconds`` (turn or claim).
    The engine does not read clocks; the server runs the timer and applies ``timeout``."""

    player: int
    kind: str  # "turn" or "claim"
    seconds: int


@dataclass(frozen=True, slots=True)
class Observation:
    """One player's view: the common core, then ``view``, the family's own facts.  Per-seat
    tuples are indexed by seat (0, 1)."""

    player: int
    dealer: int
    round_wind: Tile
    phase: Phase | FamilyPhase
    """The shared phase or the family's own (string enums: their values are the wire's names)."""
    to_act: int | None
    """Seat whose decision it is (``None``: setup or end)."""
    origin: Origin | None
    """How the acting player's last tile arrived (turn phase only)."""
    pending: Tile | None
    """The discard that may be claimed, or the tile of a 加杠 that may be robbed."""
    hand: tuple[Tile, ...]
    """This player's concealed tiles, sorted."""
    last_drawn: Tile | None
    """This player's most recent draw (or the tile to discard by default), in his turn."""
    melds: tuple[tuple[Meld, ...], tuple[Meld, ...]]
    """Each seat's melds this player may see (the opponent's 暗杠 are left out)."""
    hidden_kongs: tuple[int, int]
    """Each seat's face-down 暗杠 whose kind this player cannot see."""
    discards: tuple[tuple[Tile, ...], tuple[Tile, ...]]
    """Each seat's discards in order, claimed ones included."""
    claimed: tuple[tuple[int, ...], tuple[int, ...]]
    """Indices into ``discards`` of the tiles the opponent claimed."""
    flowers: tuple[tuple[Tile, ...], tuple[Tile, ...]]
    concealed_count: tuple[int, int]
    wall_count: int
    ting: tuple[bool, bool]
    trustee: tuple[bool, bool]
    dice: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    timer: Timer | None
    event_seq: int
    """Number of events so far (ask for events since this number to stay in sync)."""
    result: HandResult | None
    view: FamilyView
    """The family's own facts (:mod:`erren.engine.views`), built by ``Family.view``."""
    streak: int = 0
    """The dealer streak ``w`` (连庄数 ``w + 1``)."""
    ting_at: tuple[int, int] = (-1, -1)
    """Each seat's 报听 discard, as its index in his ``discards`` (−1: no 报听): the tiles he
    threw after it are ones his locked hand cannot win on."""

    @property
    def opponent(self) -> int:
        return 1 - self.player


def observe(state: State, player: int) -> Observation:
    """``player``'s view of ``state``."""
    if player not in (0, 1):
        raise ValueError("player must be seat 0 or 1")
    phase = state.phase
    actor = state.actor if phase is not _DEAL and phase is not _END else None
    melds: list[tuple[Meld, ...]] = []
    hidden = [0, 0]
    for seat in (0, 1):
        shown = []
        for meld in state.melds[seat]:
            if meld.kind is _AN_GANG and seat != player:
                hidden[seat] += 1
            else:
                shown.append(meld)
        melds.append(tuple(shown))
    legal = tuple(state.legal_actions(player)) if actor == player else ()
    timer = None
    if actor is not None and not state.trustee[actor]:
        timer = Timer(actor, *state.ruleset.decision_timer(state, actor))
    last = state.last_added[player]
    drew = (
        phase is _TURN and state.origin is not None and state.origin is not _O_CLAIM
    ) or phase in state.ruleset.drawn_tile_phases
    last_drawn = _TILES[last] if actor == player and drew and last >= 0 else None
    pending = _TILES[state.pending] if state.pending >= 0 else None
    return Observation(
        player=player,
        dealer=state.dealer,
        round_wind=state.round_wind,
        phase=phase,
        to_act=actor,
        origin=state.origin if actor is not None else None,
        pending=pending,
        hand=state.concealed(player),
        last_drawn=last_drawn,
        melds=(melds[0], melds[1]),
        hidden_kongs=(hidden[0], hidden[1]),
        discards=(
            tuple(map(_tile_of, state.discards[0])),
            tuple(map(_tile_of, state.discards[1])),
        ),
        claimed=(tuple(state.claimed[0]), tuple(state.claimed[1])),
        flowers=(
            tuple(map(_tile_of, state.flowers[0])),
            tuple(map(_tile_of, state.flowers[1])),
        ),
        concealed_count=(sum(state.hands[0]), sum(state.hands[1])),
        wall_count=state.wall_count,
        ting=(state.ting[0], state.ting[1]),
        trustee=(state.trustee[0], state.trustee[1]),
        dice=state.dice,
        legal_actions=legal,
        timer=timer,
        event_seq=state.event_count,
        result=state.result,
        streak=state.streak,
        ting_at=(state.ting_at[0], state.ting_at[1]),
        view=state.ruleset.view(state, player),
    )
