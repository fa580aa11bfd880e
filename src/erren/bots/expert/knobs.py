"""The tunable choices of the expert's policy, each measured in duplicate play against
``efficiency`` (guobiao-2p, 2p table; the figures are mean points per hand over the deals
named)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

__all__ = ["CLAIM_MODES", "Knobs"]

CLAIM_MODES = ("keep_value", "efficiency", "never")
"""The values :data:`Knobs.claim_mode` takes."""
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


@dataclass(frozen=True, slots=True)
class Knobs:
    """The tunable choices of the policy, each measured in duplicate play (the report of the
    expert bot's branch gives the figures)."""

    always_ting: bool = False
    """Declare 报听 with every ready discard (measured worse than ``efficiency``'s rule)."""
    ting_min_waits: int = 5
    """Otherwise declare 报听 with this many unseen waits or more (3, as ``efficiency``:
    +0.41; 4: +0.60; 5: +0.70; 6: +0.67; 7: +0.61; never: +0.36 points/hand on the same
    3,000 deals): an undeclared ready hand keeps changing its waits for value."""
    ting_late_wall: int = 0
    """With this many wall tiles left or fewer, declare 报听 with any wait (0: never; 8, as
    ``efficiency``, measured +0.695 against +0.699 without)."""
    break_factor: float = 0.5
    """Leave a ready hand for a one-from-ready one whose draws value per unseen tile exceeds
    this many times the ready value (0: never; 0.25, 0.5, 0.75, 1, 2 measured +0.23, +0.76,
    +0.70, +0.69, +0.70 against +0.70 on the same 3,000 deals; 0.5 +1.04 against +1.01 on
    4,000 other deals)."""
    min_win_points: int = 0
    """Pass a win paying fewer points (0: take every win; 4 and 6 measured +0.687 and +0.671
    against +0.699 on the same deals) ..."""
    small_win_wall: int = 20
    """... while the wall holds more than this many tiles."""
    lookahead: bool = True
    """One from ready, discard for the most valuable ready hands one draw away."""
    one_away_flex: float = 1.0
    """One from ready, add this share of what the draws that do not make the hand ready add by
    a better one-from-ready discard (Σ unseen/pool × gain) to the draws value of the
    :data:`one_away_width` best discards (0: off; 1 measured +0.35 [+0.05, +0.65] and +0.39
    [+0.10, +0.69] points/hand over 0 on 3,000 deals each, seeds 41 and 42, at about six times
    the decision time)."""
    one_away_width: int = 3
    """How many of the best one-from-ready discards get the :data:`one_away_flex` look."""
    two_away_width: int = 3
    """Two from ready, weigh this many of ``efficiency``'s best discards by the value one draw
    further (0: ``efficiency``'s discard; 5 measured −0.01 points/hand against 3 on the same
    2,000 deals)."""
    claim_mode: str = "keep_value"
    """``keep_value`` (see the module), ``efficiency`` or ``never`` (measured −0.58/hand)."""
    claim_value_factor: float = 0.75
    """One from ready, pass a claim unless the hand after it is worth at least this share of
    the hand now: ready after it, its ready value against the mean ready value a draw leads to
    now; one from ready after it, its draws value against the draws value now (negative:
    ``efficiency``'s claim; 0.5, 0.75, 1 measured +0.13, +0.20, +0.13 points/hand over it on
    the same 2,000 deals, seed 11; 0.75 +0.20 [−0.07, +0.46] on 2,000 others, seed 12; the
    ``gb`` table +0.05 [−0.08, +0.17] on 1,500 deals; master on the 8,000 deals of seed 1:
    +0.77 [+0.54, +1.00] against efficiency, +0.71 [+0.49, +0.92] before)."""
    claim_two_away_factor: float = 0.5
    """Two from ready, pass a claim unless the hand after it (one from ready) has draws worth
    this share of the mean draws value a draw now leads to (negative: ``efficiency``'s claim;
    0.5, 0.75, 1 measured +0.12, +0.11, +0.01 points/hand over it on the same 3,000 deals,
    seed 41; 0.5 +0.30 [+0.07, +0.53] on 3,000 others, seed 42; with :data:`one_away_flex`
    +0.59 [+0.26, +0.93] over neither on 3,000 more, seed 43, and master +1.24 [+0.98, +1.51]
    against efficiency on the 8,000 deals of seed 1)."""
    defence: bool = False
    """Against a 报听 opponent, trade a risky discard for a safer one of the same shanten
    (measured no gain: +0.333 against +0.327 on the same 4,000 deals, at twice the time)."""
    pays: bool = True
    """Against a 报听 opponent, defence that pays (guobiao-2p,
    :mod:`erren.families.guobiao.bot.defence`): a certainly-safe discard as close to ready
    before any risky one, else the discard of highest (1 − risk) × expected gain − risk × the
    expected payment of a deal-in, the gain net of the opponent's self-drawn win, folding when
    that pays.  On since stop 44: level in points and it never throws a risky tile while a
    certainly-safe one keeps its hand as close — against ``pays=0``, −0.04 [−0.10, +0.03]
    points/hand on 8,000 deals (seed 501, ``2p``; deal-in 25.0 % against 25.9 %), −0.02
    [−0.07, +0.03] on 4,000 (``gb``; 24.7 % against 25.4 %); earlier +0.04 [−0.15, +0.23] and
    +0.02 [−0.15, +0.18] on 1,000 deals each (seeds 401 and 1); before the opponent's
    self-draw was counted, −0.13 [−0.32, +0.05] (1,000 deals, seed 1) and ``gb`` −0.21 [−0.43,
    +0.01] (400); ``pays_ratio=1`` +0.07 [−0.13, +0.26] and ``pays_ratio=0.5;pays_fold=0``
    +0.02 [−0.12, +0.17] (2,000 deals, seed 501; 300 deals of an earlier form: −0.76, −0.39);
    ``pays_safe_first=0`` −0.17 [±0.3, 300 deals] (docs/notes/expert-experiments.md)."""
    pays_ratio: float = 0.0
    """The defence that pays weighs, besides the fast choice, only discards whose risk is at
    most this share of its risk (0: only the certainly-safe ones; 1: every less risky one)."""
    pays_safe_first: bool = True
    """The defence that pays plays a certainly-safe discard as close to ready whatever the
    scores (off: only by the scores)."""
    pays_fold: bool = True
    """The defence that pays may give up shanten (fold); off: only discards as close to ready."""
    pays_before_shanten: int = 8
    """Before the opponent's 报听 the defence that pays plays only while the fast choice leaves
    the hand at most this far from ready (with ``pays_before``; 1 with ``pays_ratio=0.5`` and
    ``pays_fold=0``: −0.71 [−1.27, −0.16] against ``master``, 1,000 deals, seed 11)."""
    pays_min_risk: float = 0.0
    """The defence that pays leaves the fast choice alone while its risk is below this (0.1
    before his 报听, ``pays_ratio=0.5``, ``pays_fold=0``: −0.22 [−0.51, +0.07], the same
    deals)."""
    pays_before: bool = False
    """The defence that pays also plays before the opponent's 报听 (against a silent ready
    hand).  Off: with the wait reader's figures it loses heavily, −5.62 [−6.54, −4.70]
    points/hand against ``master`` (``pays_ratio=1``, 1,000 deals, seed 11): far from ready its
    expected gain does not tell the discards apart, so it throws its useful tiles to dodge small
    risks.  Told the opponent's real winning tiles (``benchmarks/bench_defence_ceiling.py``) it
    is the issue's headroom: +2.08, +1.60 without folding."""
    defence_threshold: float = 0.2
    """The share of resampled opponent hands waiting on a tile that makes it risky."""
    defence_keep: float = 0.5
    """A safer discard must keep this share of the risky one's worth."""
    search_claims: bool = False
    """Monte-Carlo on claim windows (measured no gain at the affordable sample counts)."""
    search_turns: bool = False
    """Monte-Carlo on ready discards and 报听 (measured no gain likewise)."""
    value_model: bool = True
    """Play the family's value model where its strategy has one (xiamen: ready discards, 自摸
    or 游金, claims into ready and the 游 chain by the expected 水 payment,
    :mod:`erren.families.xiamen.bot.value`; no other family reads it yet).  ``false``: the
    大师 before it, ``expert[value_model=false]`` in the arena (xiamen, seed 1, 8,000 deals:
    +0.34 [+0.10, +0.57] points per hand for the model)."""
    exchange_value: bool = False
    """Arcade: rank the opening exchange's candidates by the expected points of the hands they
    lead to (:mod:`erren.families.arcade.bot.exchange_value`) instead of their mean shanten.
    Off: duplicate play measured no sure gain, ``expert[exchange_value=true]`` against
    ``master`` +0.05 [−0.01, +0.10] and +0.01 [−0.04, +0.05] points per hand (2,000 deals
    each, seeds 2 and 3), +0.07 [−0.04, +0.17] without the 10 % margin over the shanten plan
    (2,000 deals, seed 1); +0.01 [−0.00, +0.03] over 16,000 deals never used for tuning
    (seed 7)."""

    @classmethod
    def parse(cls, text: str) -> Knobs:
        """The knobs ``NAME=VALUE;NAME=VALUE`` set, the defaults for the rest (``""``: all
        defaults); :class:`ValueError` naming the knob for an unknown name or a bad value.

        >>> Knobs.parse("one_away_flex=0; defence=true").one_away_flex
        0.0
        """
        defaults = cls()
        known = {f.name for f in fields(cls)}
        changes: dict[str, bool | int | float | str] = {}
        for part in (p.strip() for p in text.split(";")):
            if not part:
                continue
            name, sep, raw = (x.strip() for x in part.partition("="))
            if not sep or not raw:
                raise ValueError(f"expert knob {part!r} is not NAME=VALUE")
            if name not in known:
                raise ValueError(
                    f"unknown expert knob {name!r} (known: {', '.join(sorted(known))})"
                )
            changes[name] = _value(name, raw, getattr(defaults, name))
        return replace(defaults, **changes)  # type: ignore[arg-type]  # each of its field's type


def _value(name: str, raw: str, default: object) -> bool | int | float | str:
    """``raw`` read as the type of ``default``."""
    if isinstance(default, bool):
        if raw.casefold() in _TRUE:
            return True
        if raw.casefold() in _FALSE:
            return False
        raise ValueError(f"expert knob {name} takes true or false, not {raw!r}")
    if isinstance(default, str):
        if name == "claim_mode" and raw not in CLAIM_MODES:
            raise ValueError(f"expert knob claim_mode takes {', '.join(CLAIM_MODES)}, not {raw!r}")
        return raw
    kind = "int" if isinstance(default, int) else "float"
    try:
        return int(raw) if isinstance(default, int) else float(raw)
    except ValueError:
        raise ValueError(f"expert knob {name} takes {kind}, not {raw!r}") from None
