"""What a table is and how the table runtime is set: :class:`TableSpec`, :class:`TableConfig`,
the rules it plays (:func:`with_claim_privacy`) and the match it deals (:func:`match_at`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from erren.engine import Family, Match, find_family
from erren.server.matchrule import LONGEST_WAIT_S
from erren.server.pairing import QUEUE_GRACE_S, REPEAT_HOLD_S, SHOW_UP_S
from erren.server.rooms import RoomTier
from erren.server.settlement import NEW_PLAYER_HANDS
from erren.tiles import Tile

__all__ = [
    "CloseCode",
    "TableConfig",
    "TableKind",
    "TableSpec",
    "TableView",
    "match_at",
    "quick_spec",
    "with_claim_privacy",
]


@dataclass(frozen=True, slots=True)
class TableConfig:
    """Server settings of the table runtime (times in game seconds, scaled by the clock)."""

    grace_s: float = 60.0
    """How long a disconnected player may stay away during a hand before it is an escape."""
    ready_timeout_s: float = 60.0
    """How long a finished hand waits for both players to be ready before the table closes."""
    bot_delay_s: float = 1.0
    """A computer player's thinking time."""
    turn_timeout_s: float | None = None
    """Override the family's turn timer (``None``: the ruleset's, 20 s)."""
    claim_timeout_s: float | None = None
    commit_window_s: float = 0.002
    """Group commit: how long the journal gathers actions before it writes them in one
    transaction (:class:`~erren.server.journal.Journal`)."""
    claim_min_pause_s: float = 0.8
    """鸣牌保护 (guobiao-2p §2.4): the next draw never comes sooner than this after a discard
    (or a 加杠) whose claim window a human decides; a window with only pass in it is passed by
    the system exactly then, so the discarder cannot tell whether the opponent had a choice."""
    idle_timeout_s: float = 600.0
    """A table at which no player did anything for this long, outside a running hand (an
    invite nobody used, a finished hand nobody readies), closes with code ``idle``."""
    trustee_toggles: int = 10
    """How many times a player may switch 托管 on or off himself during one hand."""
    new_player_hands: int = NEW_PLAYER_HANDS
    """An account is new until it has played this many bean-room hands to the end; a new
    account's escape moves no bean (:func:`erren.server.settlement.escape_pays`)."""
    store_retry_max_s: float = 5.0
    """The longest wait (real seconds) between two tries of a failed database write."""
    repeat_hold_s: float = REPEAT_HOLD_S
    """Quick match pairs the same two accounts again only this long after their last pairing
    (:mod:`erren.server.pairing`; 0: at once)."""
    match_any_after_s: float = LONGEST_WAIT_S
    """Wall-clock seconds after which a quick-match player accepts an opponent of any rating
    (before: the closest within a window that widens with the wait; :mod:`erren.server.matchrule`;
    0: anyone at once, the oldest first among equals)."""
    queue_grace_s: float = QUEUE_GRACE_S
    """Wall-clock seconds (not scaled by the clock) a quick-match search whose page went away
    (its request's connection closed: a closed, reloaded or hidden page) keeps its place in the
    queue, paired with nobody meanwhile; asked for again within them it resumes there
    (:mod:`erren.server.quickmatch`)."""
    watch_delay_events: int = 6
    """How many events a spectator of a bean-room table sees the hand behind it (0 at
    score-only tables: nothing is at stake), so that he cannot coach a player in real time
    (:mod:`erren.server.table.watchers`)."""
    max_watchers: int = 20
    """Spectators one table admits at a time (the next is refused with ``watch-full``)."""
    show_up_s: float = SHOW_UP_S
    """Wall-clock seconds both players of a new quick match have to join its table; then a
    pairing one of them did not join is dissolved (:mod:`erren.server.quickmatch`)."""
    review_hands: bool = False
    """Review every settled hand of a registered player in the background and keep it (his
    profile's error figures: :mod:`erren.server.reviewlater`); ``erren serve`` turns it on
    (``--no-review-hands`` turns it off), tables run by tests leave it off."""


class TableKind(StrEnum):
    """What a table is for (its wire and stored name is the value)."""

    QUICK = "quick"
    """A quick match's table in a bean room."""
    PRIVATE = "private"
    """A score-only table joined by its invite code."""
    COMPUTER = "computer"
    """A score-only table against the computer."""
    CAMPAIGN = "campaign"
    """A run of the arcade campaign against the computer (the table's rules are the run's)."""


class CloseCode(StrEnum):
    """Why a table closed: the ``code`` of its ``closed`` message (the wire value)."""

    ESCAPED = "escaped"
    LEFT = "left"
    IDLE = "idle"
    CALLED_OFF = "called-off"
    NOT_READY = "not-ready"
    BELOW_ENTRY = "below-entry"
    """A balance left the room's limits (the seat concerned hears ``below-entry`` or
    ``above-entry``, his opponent ``opponent-below-entry``)."""
    ABOVE_ENTRY = "above-entry"
    OPPONENT_BELOW_ENTRY = "opponent-below-entry"
    NO_SHOW = "no-show"
    """A quick match's player did not come to its table (:mod:`erren.server.quickmatch`)."""
    MOVED = "moved"
    """Another node of the cluster plays the table now."""


@dataclass(frozen=True, slots=True)
class TableSpec:
    """What a table is: its :class:`TableKind`, its family and options, its room or invite."""

    id: str
    kind: TableKind
    family: str
    options: dict[str, Any]
    room: RoomTier | None = None
    invite: str | None = None
    bot: str | None = None
    level: str | None = None
    """A table against the computer: the level it plays (``None``: a bot chosen by name)."""

    @property
    def room_name(self) -> str:
        """The room its games are stored under: the bean room's id, else the table's kind."""
        return self.room.id if self.room is not None else self.kind.value

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind.value,
            "family": self.family,
            "options": self.options,
            "room": None if self.room is None else self.room.id,
            "invite": self.invite,
            "bot": self.bot,
            "level": self.level,
        }


def quick_spec(table_id: str, room: RoomTier) -> TableSpec:
    """The table of a quick match in ``room``."""
    options = find_family(room.family, room.options).options_dict()
    return TableSpec(table_id, TableKind.QUICK, room.family, options, room=room)


class TableView(Protocol):
    """What a seat's answer shows of a table: a local :class:`~erren.server.table.Table`, or
    (in a cluster) a table another node owns."""

    @property
    def spec(self) -> TableSpec: ...

    def info(self) -> dict[str, Any]: ...


def match_at(
    ruleset: Family,
    *,
    dealer: int,
    streak: int = 0,
    round_wind: Tile = Tile.EAST,
    first_dealer: int | None = None,
) -> Match:
    """A match picked up at a hand: its dealer, streak and round wind, and the seat that dealt
    its hand 1 (the round wind advances when the deal comes back to him; default ``dealer``)."""
    match = Match(ruleset)
    match.dealer, match.streak, match.round_wind = dealer, streak, round_wind
    match.first_dealer = dealer if first_dealer is None else first_dealer
    return match


def with_claim_privacy(ruleset: Family) -> Family:
    """``ruleset`` with 鸣牌保护 on (every claim window opened, pass-only ones too), when the
    engine's options have ``claim_privacy``; otherwise ``ruleset`` itself."""
    options = ruleset.options_dict()
    if "claim_privacy" not in options or options["claim_privacy"]:
        return ruleset
    return find_family(ruleset.name, {**options, "claim_privacy": True})
