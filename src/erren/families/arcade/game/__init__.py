"""The ``arcade`` family (二人麻将 arcade style, ``arcade.md``): 财神 wilds, the White/Red flower
kind, 报听 with auto-play, the 71-tile live wall with its reserve, the random events and the
post-draw 海底捞月 phase.

The shared state machine runs the turn flow; this package supplies the family's data and hooks
(:mod:`.options`: options, stage parameters, phases and per-hand data; :mod:`.bleed`: the
big-bleed deal; :mod:`.family`: the hooks; :mod:`.flow`: the reserve and the events;
:mod:`.refusals`; :mod:`.scoring`):

* the 136-tile stock (R1.3): ``c:shuffle`` records all of it; positions 0–70 are the live wall
  (``head``/``tail``), 71 the wild indicator, 72–135 the reserve; ``c:dice`` records the four
  dice of R1.8 (display only); ``c:seed`` records the seed of the hand's event generator, which
  then decides, in this order (R1.7), the big-bleed deal and every in-play event (pick-any and
  pung-offer rolls, the offered kind, where exchanged tiles go in the reserve) — so a record
  (ruleset + options + actions) replays exactly;
* ``W`` = the indicator's kind, ``F`` = White, or Red when White is wild (R1.9a, R1.10); flowers
  are the tiles of kind ``F``, set aside on arrival and replaced from the tail (from the front
  of the reserve in the exchange and the 海底 phase); a flower replacement counts as a kong's
  (``flower_replacement_is_kong``, N25);
* wins and 报听 with wild tiles (R1.9b, R2.26, R5.1): standard, seven pairs and 国士无双 through
  :func:`erren.analysis.shanten.is_complete` (four-copy limit with the melds), free-form 绿一色;
  no meld uses a wild, a discarded wild is dead (R1.9c, R2.6);
* 报听 (R2.12–R2.13, engine ``ting``): any time, even on an empty wall; the hand is frozen, the
  engine draws and discards, every win chance is asked (``hu``/``zimo`` or ``pass``/``discard``);
* the phases ``EXCHANGE`` (``give:X`` for each tile given up, then ``exchange``, R2.21),
  ``PICK`` (``pick:X`` or ``pass``, R2.23) and ``HAIDI`` (``zimo`` or ``pass``, R2.19); the pung
  offer (R2.22), shown to the player in ``offer``, is answered by three ``give:X`` moves of the
  turn (the third makes the swap) or declined by any other move;
* timeouts (R2.16) and 托管 (R2.17); the settlement of R2.25 with the real
  :func:`erren.families.arcade.scoring.score_arcade` result in ``HandResult.detail``; the versus
  escape
  (R2.25): ``escape_penalty_points × base_points`` points (``HandResult.deltas`` are points:
  a bean table's stake is applied once, by the server).

Multi-tile choices are made one tile at a time, so ``legal_actions`` lists exactly what
``State.apply`` accepts: ``give:X`` in canonical order (never below the last tile given; for the
pung offer only a tile that leaves enough after it for the three), each set of tiles reached in
one way; the tiles given so far are the chooser's ``Observation.giving``.  A timeout or 托管 in
the middle keeps the spec's default (no exchange; the pung offer declined, the drawn tile
discarded).  Records made before the steps hold ``exchange:tiles`` and ``takepung:abc``:
``State.apply`` refuses them, ``State.apply_recorded`` replays them as their steps
(``steps_of``).

Options (``find_family("arcade", **options)``; the defaults are versus mode, §2.11):

===========================  ========  =======================================================
``base_points``              1         ``versus_base_points``: the loser pays ``P ×`` this (R2.25)
``escape_penalty_points``    13        ``versus_escape_penalty_points``: an escaping player pays
                                       this ``× base_points`` points (R2.25); none in stage
                                       mode, where leaving is the campaign's (R3.11)
``opening_exchange``         True      the opening exchange (R2.21) is offered
``pung_offer_prob``          0.03      the pung offer after a normal draw (R2.22)
``pick_any_prob``            0.05      pick-any at a normal draw (R2.23)
``haidi_draws``              3         post-draw 海底捞月 draws (R2.19)
``human_seat``               None      stage mode (R3.2): the seat of the human; the events, the
                                       exchange and the big bleed are then for that seat only,
                                       the computer gets none of them and ``haidi_draws``
``haidi_draws_human``        None      the human's 海底 draws in stage mode (5 from stage 2,
                                       R3.8); ``None``: ``haidi_draws``
``bleed_normal_prob``        0.0       big-bleed deal, normal templates (R3.10, stage 3+: 0.20)
``bleed_yakuman_prob``       0.0       big-bleed deal, yakuman templates (R3.10, stage 4: 0.05)
``bleed_normal_gap``         1         ``g`` of a normal bleed
``bleed_yakuman_gap``        2         ``g`` of a yakuman bleed
``flower_replacement_is_kong`` True    杠上开花 after setting a flower aside (N25)
``turn_timeout_s``           20        ``discard_timeout_s`` (R2.16)
``claim_timeout_s``          10        response and prompt timer
``exchange_timeout_s``       20        opening exchange timer
``auto_trustee_after``       2         ``timeouts_to_autoplay``
===========================  ========  =======================================================

The bleed options need ``human_seat``.  :func:`stage_options` gives the options of stage 1–4
(R3.1): a stage hand is ``State.new(find_family("arcade", **stage_options(stage)), seed=...,
dealer=...)``.

>>> from erren.engine import State, find_family
>>> state = State.new(find_family("arcade"), seed=3)
>>> len(state.wall), state.wall_count <= 71 - 27
(136, True)
"""

from __future__ import annotations

from erren.families.arcade.game.bleed import BLEED_NORMAL, BLEED_YAKUMAN, bleed_target
from erren.families.arcade.game.family import ArcadeFamily
from erren.families.arcade.game.options import (
    ArcadeData,
    ArcadeOptions,
    ArcadePhase,
    arcade_data,
    stage_options,
)

__all__ = [
    "BLEED_NORMAL",
    "BLEED_YAKUMAN",
    "ArcadeData",
    "ArcadeFamily",
    "ArcadeOptions",
    "ArcadePhase",
    "arcade_data",
    "bleed_target",
    "stage_options",
]
