"""arcade's part of the RL encodings (:mod:`erren.rl.layout`), in layout version 1: its phases,
报听 kinds and the 海底 player, the wild, the flower kind, the pung offer, the tiles given up, the
reserve and the 海底 draws, and its own moves.  The stage-mode big-bleed template
(``ArcadeView.bleed``, off by default) is not encoded."""

from __future__ import annotations

from erren.engine.views import FamilyView
from erren.families.arcade.game.options import ArcadePhase
from erren.families.arcade.game.view import ArcadeView
from erren.families.arcade.game.vocabulary import ArcadeVerb
from erren.rl.layout import EVERY_KIND, NO_TILE, FamilyLayout, PlaneWriter

__all__ = ["RL"]

BAOTING = ("menqing", "open", "tianting")
"""The 报听 kinds (``ArcadeView.baoting``), a seat column each."""
_BAOTING_COLUMN = {kind: f"arcade 报听 kind {kind}" for kind in BAOTING}
_HAIDI_PLAYER = "arcade 海底 player"
_RESERVE = "arcade reserve tiles / 40"
_HAIDI_LEFT = "arcade 海底 draws left / 8"


def _encode(out: PlaneWriter, view: FamilyView) -> None:
    """arcade's cells: each seat's 报听 kind and 海底 mark, the kinds of the hand, the offer,
    the tiles given up, the reserve and the 海底 draws left."""
    if not isinstance(view, ArcadeView):
        return
    for seat, kind in enumerate(view.baoting):
        column = _BAOTING_COLUMN.get(kind)
        if column is not None:
            out.seat(seat, column, 1.0)
        out.seat(seat, _HAIDI_PLAYER, view.haidi_player == seat)
    out.tile("arcade.wild", view.wild)
    out.tile("arcade.flower_kind", view.flower_kind)
    out.tile("arcade.offer", view.offer)
    out.counts("arcade.giving≥1", view.giving)
    out.game(_RESERVE, view.reserve_count, 40)
    out.game(_HAIDI_LEFT, view.haidi_left, 8)


RL = FamilyLayout(
    version=1,
    phases=tuple(phase.value for phase in ArcadePhase),
    seat_columns=(*_BAOTING_COLUMN.values(), _HAIDI_PLAYER),
    game_columns=(_RESERVE, _HAIDI_LEFT),
    planes=(
        ("arcade.wild", "arcade: the wild (财神) kind, once turned"),
        ("arcade.flower_kind", "arcade: the kind set aside as flowers"),
        ("arcade.offer", "arcade: the kind of the pung offered to this player"),
        *(
            (f"arcade.giving≥{n}", f"arcade: tiles given up so far in this choice, count ≥ {n}")
            for n in range(1, 5)
        ),
    ),
    moves=(
        (ArcadeVerb.EXCHANGE, NO_TILE),
        (ArcadeVerb.PICK, EVERY_KIND),
        (ArcadeVerb.GIVE, EVERY_KIND),
    ),
    encode=_encode,
)
"""arcade's ``rl`` part."""
