"""Families: a family's fixed facts (tiles, options) plus typed hooks, found by name.

A :class:`Family` is what OpenSpiel calls the *Game*: it never
changes during play.  The turn flow shared by the families lives in :mod:`erren.engine.state`; a
family subclasses :class:`Family`, sets its data and overrides a few hooks (python-chess's
variants, without the deep chains).  Each hook is a method with the shared behaviour as its
default:

* ``new_data``: the family's per-hand data (``state.data``, a :class:`FamilyData`);
* ``chance_plan`` / ``sample_chance`` / ``after_chance``: the chance actions of the setup and
  what follows each;
* ``can_win`` / ``win_value``: who may win on what (wild tiles), and the 起和 value;
* ``turn_actions`` / ``claim_options``: call the base generator and filter or extend it;
  ``discard_filter`` (跟打), ``chow_tiles`` (a White playing as the gold kind),
  ``accepts`` (legal though not listed), ``diagnose`` (a refusal names its rule) and
  ``steps_of`` (a composite form of old records as today's steps);
* ``phase_actions`` / ``perform``: the family's own phases (a :class:`FamilyPhase` enum) and
  actions;
* ``playing_flower``, ``after_discard``, ``before_draw``, ``after_draw``, ``on_exhausted``:
  act around draws and discards;
* ``default_move`` / ``auto_move`` / ``decision_timer``: timeouts, 报听/托管 auto-play and clocks;
* ``phase_named`` / ``resample_data`` / ``draw_hidden_hand`` / ``finish_resample`` /
  ``may_hide_kong``: a state rebuilt from one player's
  observation, the hidden facts drawn at random (:mod:`~erren.engine.resample`);
* ``score_win``, ``first_dealer``, ``next_dealer``, ``escape_penalty``: payments and the deal.
* ``rules_page``, ``terminal_scorer``, ``conformance``: the family's rules page, its ``erren
  score --rules NAME`` and its part of the conformance corpus, each imported from the family's
  package when asked (the shared :mod:`erren.rules`, :mod:`erren.cli.score` and
  :mod:`erren.conformance` lay them out in :attr:`Family.listing_order`).
* ``rl``: the family's planes, columns and moves in the RL encodings (:mod:`erren.rl.layout`).
* ``cli_commands``, ``server_extension``: the family's own ``erren`` subcommands and its part
  of the server (routes and a lobby desk), each imported from its package when asked.

A hook left at its default costs nothing: :attr:`Family.overrides` (worked out once per ruleset)
binds only the overridden hooks of the hot path and the state runs the shared code inline for
the rest.

Families register a factory with :func:`~erren.engine.registry.register_family`;
:func:`~erren.engine.registry.find_family` builds one with options
(``find_family("guobiao-2p", suit="p", flowers=True)``).
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from erren.engine.actions import Action, ActionKind
from erren.engine.options import Options
from erren.engine.overrides import Overrides
from erren.engine.state import NO_DATA, FamilyData, FamilyPhase, Phase, ResultKind
from erren.engine.views import FamilyView, PlainView
from erren.engine.winning import is_complete
from erren.errors import IllegalActionError
from erren.scoring.detail import ScoreUnit
from erren.tiles import Tile

if TYPE_CHECKING:
    from erren.bots.strategy import Strategy
    from erren.cli.command import Command
    from erren.cli.familymenu import FamilyMenu
    from erren.cli.scorer import TerminalScorer
    from erren.conformance.adapter import ConformanceAdapter
    from erren.engine.observation import Observation
    from erren.engine.resample import Unseen
    from erren.engine.state import AnyWinHow, HandResult, State, WinClaim
    from erren.mjai.extension import MjaiExtension
    from erren.rl.layout import FamilyLayout
    from erren.rules.page import FamilyRules
    from erren.server.extension import ServerExtension

__all__ = [
    "Family",
    "FamilyData",
    "FamilyPhase",
    "Options",
    "Overrides",
]


PART_HOOKS = (
    "rules_page",
    "terminal_scorer",
    "terminal_menu",
    "mjai",
    "conformance",
    "strategy",
    "cli_commands",
    "server_extension",
    "rl",
)
"""The hooks a family answers from :attr:`Family.parts` (its text and tools, loaded lazily)."""


class Family(ABC):
    """A family: its fixed data (tiles, options) and its hooks, one typed method each.

    Every hook has a default that gives the shared behaviour of the state machine; a family
    overrides the few it changes.  A hook that adds to or filters legal actions calls the base
    generator (``state.base_turn_actions``, ``state.base_claim_options``) and edits its result,
    like python-chess's variants.  Whether a family overrides a hook is decided once, by
    :attr:`overrides`; the state calls nothing for a hook left at its default, so the guobiao hot
    path pays nothing for the plug-in points.  Family modules use only the public names of
    :class:`~erren.engine.state.State` (its transition API is listed in its docstring)."""

    name: ClassVar[str] = ""
    options: Options
    tiles: tuple[int, ...]
    """The physical tiles shuffled into the wall (kind ids, flowers 34..41)."""
    kinds: tuple[int, ...]
    """The playing kinds in use (no flowers)."""
    chance_plan: tuple[ActionKind, ...] = (ActionKind.SHUFFLE, ActionKind.DICE)
    """The chance actions of the setup, in order."""
    ting_enabled: bool = False
    ting_auto_hu: bool = True
    min_fan: int = 0
    turn_timeout_s: int = 20
    claim_timeout_s: int = 10
    auto_trustee_after: int = 2
    claim_privacy: bool = False
    """鸣牌保护: windows open whether or not the opponent has a choice (see :class:`Options`)."""
    listing_order: ClassVar[int] = 100
    """Where the family comes in the lists people read (the rules pages, ``erren score
    --rules``, the conformance files): guobiao-2p 0, xiamen 1, arcade 2, a new family after."""
    web_module: ClassVar[Path | None] = None
    """The family's part of the browser client: an ES module (``web/family.js`` in its package)
    whose default export is the family's ``FamilyClient`` (``erren/web/js/families.js``); the
    server serves it at ``/web/<release>/js/families/<name>.js`` and lists it in ``GET
    /families``.  None: the client shows the family with the shared defaults."""
    parts: ClassVar[Mapping[str, str]] = {}
    """Where the family's text and tools live, as ``"module:NAME"`` by hook (one of
    :data:`PART_HOOKS`: ``{"rules_page": "erren.families.xiamen.rules:PAGE", ...}``), each
    imported when its hook is first asked; a hook not named returns ``None``."""
    point_unit: ClassVar[ScoreUnit] = ScoreUnit.POINT
    """What a hand's points (``HandResult.deltas``) count: a room's stake is beans per one of
    them (底注 50/分); guobiao's points are its fan (1 番 = 1 分, guobiao-2p §6.1)."""
    uses_streak: ClassVar[bool] = False
    """Whether a hand's result depends on the dealer streak (xiamen's 底); records then keep it."""
    flower_replacement_is_kong: bool = False
    """Whether the replacement of a flower counts as a kong's (杠上开花; arcade N25)."""
    window_phases: ClassVar[frozenset[FamilyPhase]] = frozenset()
    """The family's phases in which one seat answers a tile drawn for him (xiamen's
    ``LAST_DRAW``, arcade's ``HAIDI``): like ``CLAIM`` and ``ROB``, with ``claim_privacy`` they
    open whether or not he has a choice, and 报听 auto-play does not pass them."""
    drawn_tile_phases: ClassVar[frozenset[FamilyPhase]] = frozenset()
    """The family's phases in which the seat to act decides on the tile he just drew (his
    observation shows it as ``last_drawn``)."""
    score_unit: ClassVar[ScoreUnit] = ScoreUnit.FAN
    """What a win's score counts (番; xiamen's 水): the simulator's and arena's summaries."""
    win_names: ClassVar[Mapping[AnyWinHow, str]] = {}
    """The family's names of its own win types by ``HandResult.how`` (xiamen's 游金...), for
    a summary that lists how the hands were won."""
    win_words: ClassVar[Mapping[AnyWinHow, str]] = {}
    """The terminal's words for a win's ``how`` where the family's differ from the shared
    ones (xiamen's 平和 on a discard, 游金...)."""
    review_bad_loss: ClassVar[float] = 1.0
    """The review's bad-move threshold (:mod:`erren.review`, ``docs/review.md``): a decision
    whose expected loss is above it, in :attr:`point_unit` (``HandResult.deltas``), is a bad
    move.  Each family sets its own, scaled to what its hands pay."""
    draw_note: ClassVar[str] = ""
    """What the terminal adds after a drawn hand when the family deals otherwise (arcade:
    流局, the same dealer deals again)."""

    def _use_clocks(self, opts: Any) -> None:
        """Take the settings every family's options carry: the clocks and ``claim_privacy``."""
        self.turn_timeout_s = opts.turn_timeout_s
        self.claim_timeout_s = opts.claim_timeout_s
        self.auto_trustee_after = opts.auto_trustee_after
        if not isinstance(opts.claim_privacy, bool):
            raise ValueError("option claim_privacy must be true or false")
        self.claim_privacy = opts.claim_privacy

    @cached_property
    def overrides(self) -> Overrides:
        """The hooks of the hot path this family overrides, bound; ``None`` for a default
        (worked out once per ruleset)."""
        cls, base = type(self), Family
        return Overrides(
            can_win=None if cls.can_win is base.can_win else self.can_win,
            turn_actions=None if cls.turn_actions is base.turn_actions else self.turn_actions,
            claim_options=None if cls.claim_options is base.claim_options else self.claim_options,
            chow_tiles=None if cls.chow_tiles is base.chow_tiles else self.chow_tiles,
            playing_flower=(
                None if cls.playing_flower is base.playing_flower else self.playing_flower
            ),
            after_discard=None if cls.after_discard is base.after_discard else self.after_discard,
            after_draw=None if cls.after_draw is base.after_draw else self.after_draw,
            before_draw=None if cls.before_draw is base.before_draw else self.before_draw,
            on_exhausted=None if cls.on_exhausted is base.on_exhausted else self.on_exhausted,
            perform=None if cls.perform is base.perform else self.perform,
            default_move=None if cls.default_move is base.default_move else self.default_move,
            auto_move=None if cls.auto_move is base.auto_move else self.auto_move,
            accepts=None if cls.accepts is base.accepts else self.accepts,
        )

    # ------------------------------------------------------------------ setup
    def new_data(self) -> FamilyData:
        """The family's per-hand data (``state.data``), made with the state: none by default."""
        return NO_DATA

    def sample_chance(self, state: State, kind: ActionKind, rng: random.Random) -> Action:
        """Draw the outcome of the next chance action from ``rng``."""
        if kind is ActionKind.SHUFFLE:
            wall = list(self.tiles)
            rng.shuffle(wall)
            return Action.shuffle(tuple(wall))
        if kind is ActionKind.DICE:
            return Action.dice(rng.randint(1, 6), rng.randint(1, 6))
        raise ValueError(f"{kind} is not a chance action")

    def after_chance(self, state: State, action: Action, step: int) -> None:
        """Called after the ``step``-th chance action: deal once the plan is done (guobiao deals
        after its dice; xiamen deals after the shuffle and reveals the gold after its dice)."""
        if step == len(self.chance_plan):
            state.deal()

    # ------------------------------------------------------------------ wins
    complete: Callable[[list[int], int], bool] = staticmethod(is_complete)
    """Whether a concealed part (14-form, counts of the 34 kinds) is a winning shape, for the
    default :meth:`can_win`."""

    def can_win(self, state: State, p: int, tile: int, how: AnyWinHow) -> bool:
        """Whether ``p`` may win now on ``tile`` (-1: self-drawn) by ``how``: shape and 起和 by
        default; wild tiles (xiamen's 金, arcade's 财神) and who may win on what otherwise."""
        return state.base_can_win(p, tile, how)

    def win_value(self, state: State, claim: WinClaim) -> int | None:
        """The fan total toward ``min_fan`` (flowers excluded) of a possible win, or ``None``
        when the family has no minimum."""
        return None

    def is_ready(self, state: State, p: int) -> bool:
        """Whether ``p``'s concealed tiles, a 3n+1 part (between turns, or at a drawn hand's
        end), are ready (听): one more tile would complete a winning shape of the family with
        his melds; the 起和 minimum is not judged.  ``False`` for a part of any other size.
        By default :attr:`complete` on each playing kind, a kind he holds four times being no
        wait (§3.4); a family with wilds counts them (xiamen's 金, arcade's 财神)."""
        h = state.hands[p]
        if sum(h) % 3 != 1:
            return False
        melds, held = len(state.melds[p]), state.meld_counts[p]
        for k in self.kinds:
            if h[k] + held[k] >= 4:
                continue
            h[k] += 1
            try:
                if self.complete(h, melds):
                    return True
            finally:
                h[k] -= 1
        return False

    # ------------------------------------------------------------------ legal moves
    def turn_actions(self, state: State, p: int) -> list[Action]:
        """The moves of ``p``'s ``TURN``: ``state.base_turn_actions(p)``, filtered or extended
        (arcade: no kong of wilds, 报听 with wilds, the pung offer)."""
        return state.base_turn_actions(p)

    def discard_filter(self, state: State, player: int, kinds: list[int]) -> list[int]:
        """The kinds ``player`` may discard among those he holds (xiamen: 跟打, R-2.5)."""
        return kinds

    def claim_options(self, state: State, q: int, x: int) -> list[Action]:
        """What ``q`` may do with the discard ``x`` (empty: no window):
        ``state.base_claim_options(q, x)``, filtered or extended (xiamen: nothing on a gold,
        chows through Whites; arcade: nothing on a wild, no wild in a chow)."""
        return state.base_claim_options(q, x)

    def chow_tiles(self, state: State, start: int) -> tuple[int, int, int]:
        """The physical tiles of a chow of functional kinds ``start..start+2`` (xiamen: a White
        plays as the gold kind), sorted."""
        return (start, start + 1, start + 2)

    def phase_actions(self, state: State, player: int) -> list[Action]:
        """Legal actions of the family's own phases (``state.phase`` a :class:`FamilyPhase`)."""
        return []

    def accepts(self, state: State, action: Action) -> bool:
        """Whether ``action``, not listed by ``legal_actions``, is legal all the same."""
        return False

    def steps_of(self, state: State, action: Action) -> tuple[Action, ...]:
        """The moves ``action`` stands for: itself, or the steps of a composite form (arcade's
        ``exchange:tiles``, ``takepung:abc``) — how ``State.apply_recorded`` replays records
        made before the steps, and how a front end sends a multi-tile answer typed at once."""
        return (action,)

    def diagnose(self, state: State, action: Action) -> IllegalActionError | None:
        """The family's reason why ``action`` (known to be illegal) is refused, or ``None`` to
        let the state name the shared rule."""
        return None

    # ------------------------------------------------------------------ the flow
    def perform(self, state: State, action: Action, auto: bool) -> bool:
        """Apply ``action`` if it is the family's (a family phase's move, an extra move of the
        turn): ``True`` when done, ``False`` to let the state apply it."""
        return False

    def playing_flower(self, state: State) -> int:
        """A playing kind whose tiles are flowers in this hand (arcade's White or Red), or -1:
        set aside and replaced on arrival like the flowers 34..41."""
        return -1

    def after_discard(self, state: State, p: int, x: int) -> None:
        """After ``p`` discarded ``x``, before the opponent's window (xiamen: 游金 entry;
        arcade: the 报听 record)."""
        return None

    def before_draw(self, state: State, q: int) -> bool:
        """Before ``q``'s normal draw after a pass: ``True`` when the family takes over (arcade:
        pick-any), ``False`` for the normal draw."""
        return False

    def after_draw(self, state: State, p: int) -> None:
        """``TURN`` was just entered after a draw (xiamen: the 游 chain's forced win or gold
        choice; arcade: the pung offer)."""
        return None

    def on_exhausted(self, state: State) -> bool:
        """The live wall is empty: ``True`` when the family handles it (arcade: the 海底
        draws), ``False`` for 荒庄."""
        return False

    def decision_timer(self, state: State, actor: int) -> tuple[str, int]:
        """``(kind, seconds)`` of the timer of ``actor``'s decision now: a turn, or a claim (a
        window, a family prompt, a hu offer under 报听)."""
        if state.phase is Phase.TURN and not state.ting[actor]:
            return "turn", self.turn_timeout_s
        return "claim", self.claim_timeout_s

    # ------------------------------------------------------------------ auto-play
    def default_move(self, state: State, p: int) -> Action:
        """The move of a timeout (§2.9 by default: :meth:`State.base_default_move`)."""
        return state.base_default_move(p)

    def auto_move(self, state: State, p: int) -> Action | None:
        """The move 报听 or 托管 auto-play makes for ``p`` (who is in one of them), ``None`` when
        ``p`` decides himself (:meth:`State.base_auto_move` by default)."""
        return state.base_auto_move(p)

    # ------------------------------------------------------------------ determinization
    def phase_named(self, name: str) -> Phase | FamilyPhase:
        """The phase whose ``value`` (an observation's ``phase``) is ``name``: a shared
        :class:`Phase`, or one of the family's own (its override); :class:`ValueError` else."""
        try:
            return Phase(name)
        except ValueError:
            raise ValueError(
                f"{self.name}: no phase named {name!r} (a family names its own phases in "
                "phase_named before its hands can be resampled)"
            ) from None

    def resample_data(
        self, state: State, observation: Observation, rng: random.Random, unseen: Unseen
    ) -> None:
        """Fill ``state.data`` for :func:`~erren.engine.resample.resample` from the family's
        view (``observation.view``): the facts the player sees copied, the hidden ones drawn
        from ``rng``; remove from ``unseen`` the tiles the view shows (a face-up indicator)
        and take from it the hidden tiles the family keeps aside (a reserve).  Runs once the
        shared fields (hands of the player, melds, pools, flags) are laid, before the
        opponent's hand and the wall are drawn.  Nothing by default (guobiao)."""
        return None

    def draw_hidden_hand(
        self, state: State, p: int, pool: list[int], size: int, rng: random.Random
    ) -> list[int]:
        """One draw of the concealed counts of ``p`` (the opponent of the observing player,
        ``size`` tiles) from ``pool`` (the unseen playing tiles) for
        :func:`~erren.engine.resample.resample`: uniform by default; a family whose rules
        force a shape on a hidden hand (xiamen's 游金 levels) builds one that has it."""
        hand = [0] * len(state.hands[p])
        for t in rng.sample(pool, size):
            hand[t] += 1
        return hand

    def finish_resample(
        self, state: State, observation: Observation, rng: random.Random, unseen: Unseen
    ) -> None:
        """The last touch of :func:`~erren.engine.resample.resample`, once both hands and the
        live wall (``state.wall``) are laid: a tile the opponent's phase says he just drew,
        the family's own stock layout with the tiles it set aside (``unseen.aside``); nothing
        by default."""
        return None

    def may_hide_kong(self, state: State, kind: int) -> bool:
        """Whether the opponent's face-down 暗杠 may be of ``kind`` in a resampled state (the
        family's data already laid): any playing kind but the flower kind by default."""
        return kind != self.playing_flower(state)

    # ------------------------------------------------------------------ a match
    def first_dealer(self, rng: random.Random, first_ready: int) -> int:
        """The first hand's dealer of a match: the first seat ready by default."""
        return first_ready

    def next_dealer(self, dealer: int, streak: int, result: HandResult) -> tuple[int, int]:
        """``(dealer, streak)`` of the next hand (guobiao §1.3: the deal passes unless the
        dealer wins)."""
        if result.kind is ResultKind.WIN and result.winner == dealer:
            return dealer, streak + 1
        return 1 - dealer, 0

    def escape_penalty(self) -> int:
        """Points an escaping player pays (none by default)."""
        return 0

    def next_round_wind(self, round_wind: Tile, dealer: int, first_dealer: int) -> Tile:
        """The round wind of the next hand after the deal passed to ``dealer``: the same wind
        by default (a match stays in the East round)."""
        return round_wind

    @abstractmethod
    def score_win(self, state: State, claim: WinClaim) -> HandResult:
        """The finished hand's result: fan list, total, points and payments."""

    def options_dict(self) -> dict[str, Any]:
        return self.options.to_dict()

    def view(self, state: State, player: int) -> FamilyView:
        """The family's own facts ``player`` may see (``Observation.view``); by default none
        beyond the family's name (:class:`~erren.engine.views.PlainView`)."""
        return PlainView(self.name)

    # ------------------------------------------------------------------ text and tooling
    # Each is imported by the family when asked (the engine never loads a page or a scorer).
    def rules_page(self) -> FamilyRules | None:
        """The family's rules page (:mod:`erren.rules`): prose, rows, example words; ``None``:
        no page."""
        return cast("FamilyRules | None", self._part("rules_page"))

    def terminal_scorer(self) -> TerminalScorer | None:
        """The family's ``erren score --rules NAME`` (:mod:`erren.cli.score`); ``None``: none."""
        return cast("TerminalScorer | None", self._part("terminal_scorer"))

    def terminal_menu(self) -> FamilyMenu | None:
        """The family's part of ``erren play``'s menu (:mod:`erren.cli.familymenu`: keys for its
        own verbs, typed answers, its phases' questions); ``None``: its verbs are listed by
        their words (:attr:`~erren.engine.actions.VerbRule.words`)."""
        return cast("FamilyMenu | None", self._part("terminal_menu"))

    def mjai(self) -> MjaiExtension | None:
        """The family's own messages of the mjai profile (:mod:`erren.mjai.extension`);
        ``None``: its own events write nothing and its own moves have no message."""
        return cast("MjaiExtension | None", self._part("mjai"))

    def conformance(self) -> ConformanceAdapter | None:
        """How the conformance corpus (:mod:`erren.conformance`) builds, answers and
        cross-checks the family's rows; ``None``: the family has no corpus files."""
        return cast("ConformanceAdapter | None", self._part("conformance"))

    def strategy(self) -> Strategy | None:
        """The family's own computer play (:class:`erren.bots.strategy.Strategy`, from its
        ``bot`` package); ``None``: the shared play alone."""
        return cast("Strategy | None", self._part("strategy"))

    def rl(self) -> FamilyLayout | None:
        """The family's part of the RL encodings (:class:`erren.rl.layout.FamilyLayout`: its
        planes, columns and moves); ``None``: the shared planes and moves alone."""
        return cast("FamilyLayout | None", self._part("rl"))

    def cli_commands(self) -> tuple[Command, ...]:
        """The family's own ``erren`` subcommands (:class:`erren.cli.command.Command`; arcade's
        ``erren arcade``), listed after the shared ones; ``()``: none."""
        return cast("tuple[Command, ...]", self._part("cli_commands") or ())

    def server_extension(self) -> ServerExtension | None:
        """The family's part of the server (:class:`erren.server.extension.ServerExtension`:
        its HTTP routes and its desk in the lobby; arcade's campaign); ``None``: none."""
        return cast("ServerExtension | None", self._part("server_extension"))

    def _part(self, hook: str) -> object:
        """The object :attr:`parts` names for ``hook``, imported when first asked (the engine
        never loads a page, a scorer or a bot it is not asked for); ``None`` if none."""
        where = self.parts.get(hook)
        if where is None:
            return None
        module, _, name = where.partition(":")
        return getattr(importlib.import_module(module), name)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        unknown = set(cls.parts) - set(PART_HOOKS)
        if unknown:
            raise TypeError(f"{cls.__name__}.parts names no hook: {sorted(unknown)}")

    def __repr__(self) -> str:
        changed = {
            k: v
            for k, v in self.options_dict().items()
            if v != getattr(type(self.options)(), k, object())
        }
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"find_family({self.name!r}{args})"
