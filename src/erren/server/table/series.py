"""The series of hands at a table: the rules it plays, its match (dealer, 连庄, round wind) and
its current (or last) hand — the engine's state, the stored game, the seed's commitment and the
table's own ``start`` and ``settlement`` events around the engine's."""

from __future__ import annotations

from typing import Any

from erren.engine import Family, Match, State
from erren.server.fairness import Commitment
from erren.server.protocol import event_json
from erren.server.table.seats import Seat
from erren.server.table.spec import match_at
from erren.tiles import Tile

__all__ = ["Series"]


class Series:
    """The table's hands, one after the other."""

    def __init__(self, ruleset: Family, match: Match) -> None:
        self.ruleset = ruleset
        self.match = match
        """The series of hands at this table: dealer, 连庄 streak and round wind (§1.2, §1.3)."""
        self.state: State | None = None
        self.game_id: int | None = None
        self.number = 0
        """The current (or last) hand's number at this table (0: none dealt yet)."""
        self.fair: Commitment | None = None
        self.start_event: dict[str, Any] = {}
        self.end_event: dict[str, Any] | None = None
        self.persisted = 0
        """The current hand's actions already in the store."""

    @property
    def running(self) -> bool:
        """A hand is in progress (from the deal to its settlement)."""
        return self.state is not None and self.end_event is None

    @property
    def last_n(self) -> int:
        """The number of the last event of the current hand (-2: no hand yet)."""
        if self.state is None:
            return -2
        return self.end_event["n"] if self.end_event is not None else self.state.event_count

    def begin(self, state: State, game_id: int, fair: Commitment, names: list[str]) -> None:
        """The hand ``state`` (stored as ``game_id``) begins: its ``start`` event (n = 0)."""
        self.state, self.game_id, self.fair = state, game_id, fair
        self.end_event = None
        self.persisted = 0
        self.start_event = {
            "n": 0,
            "kind": "start",
            "game": game_id,
            "hand": self.number,
            "dealer": state.dealer,
            "round_wind": str(state.round_wind),
            "streak": state.streak,
            "commitment": fair.commitment,
            "seats": names,
        }

    def events_for(self, seat: int, since: int) -> list[dict[str, Any]]:
        """The numbered events after ``since`` as ``seat`` may see them."""
        assert self.state is not None
        out: list[dict[str, Any]] = []
        if since < 0:
            out.append(self.start_event)
        start = max(since, 0)
        out.extend(event_json(e, e.seq + 1) for e in self.state.events_since(seat, start))
        if self.end_event is not None and since < self.end_event["n"]:
            out.append(self.end_event)
        return out

    def record_json(self, table_id: str, seats: list[Seat]) -> dict[str, Any]:
        """The hand's record with the seed revealed (``erren verify`` reads it)."""
        assert self.state is not None and self.fair is not None
        data = self.state.record().to_dict()
        data["seed"] = self.fair.seed
        data["fairness"] = {"commitment": self.fair.commitment, "salt": self.fair.salt}
        data["game"] = self.game_id
        data["table"] = table_id
        data["seats"] = [s.name for s in seats]
        data["levels"] = [s.shown_level for s in seats]
        return data

    def meta(self, table: dict[str, Any], seats: list[Seat]) -> dict[str, Any]:
        """What the store keeps beside the ruleset options to restore the table (``table``:
        what it keeps of the table's spec)."""
        return {
            "rules": self.ruleset.options_dict(),
            "table": table,
            "names": [s.name for s in seats],
            "bots": [s.bot_name for s in seats],
            "levels": [None if s.level is None else s.level.value for s in seats],
            "hand": self.number,
            "dealer": self.match.dealer,
            "streak": self.match.streak,
            "round_wind": int(self.match.round_wind),
            "first_dealer": self.match.first_dealer,
        }

    def pick_up(self, meta: dict[str, Any]) -> Match:
        """The hand number and the match (dealer, streak, round wind) as ``meta`` keeps them
        (:meth:`meta`)."""
        self.number = int(meta.get("hand", 1))
        dealer = int(meta.get("dealer", 0))
        self.match = match_at(
            self.ruleset,
            dealer=dealer,
            streak=int(meta.get("streak", 0)),
            round_wind=Tile(int(meta.get("round_wind", Tile.EAST))),
            first_dealer=int(meta.get("first_dealer", dealer)),
        )
        return self.match
