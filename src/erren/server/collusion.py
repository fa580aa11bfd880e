"""The collusion audit (``erren audit-collusion``): who is being fed beans or wins by puppets?

Read-only, over every finished bean-room game in id order (so "new" means new *at that game*:
fewer than :data:`~erren.server.settlement.NEW_PLAYER_HANDS` bean-room hands played to the end
before it).  It lists three kinds of flow:

* ``repeated-escapes`` — the same account escaped early (within :data:`EARLY_MOVES` of its own
  moves) from the same opponent :data:`REPEATS` times or more;
* ``fed-by-escapes`` — an account whose opponents escaped early :data:`PUPPETS` times or more,
  from that many different **new** accounts (the puppet farm: fresh accounts quick-matching
  one account and leaving at once — since new accounts' escapes move no bean, this flags the
  attempt);
* ``fed-by-new-accounts`` — an account that received :data:`FED_BEANS` beans or more in
  settlements from :data:`PUPPETS` or more different new accounts (hands lost on purpose);
* ``fed-from-one-address`` — an account fed (early escapes, escapes or hands lost with beans) by
  :data:`PUPPETS` or more accounts, new or not, registered from one address (``users.origin``,
  a keyed digest: :mod:`erren.server.store.origins`; accounts registered before it was kept
  have none and are not counted).  A shared address is not proof (a family, a campus, a
  carrier's NAT): the audit lists, a person judges.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from erren.engine import Action
from erren.errors import ErrenError
from erren.server.privacy import is_bean_room
from erren.server.settlement import NEW_PLAYER_HANDS
from erren.server.store import Store, StoredGame

__all__ = ["EARLY_MOVES", "Flag", "FlagKind", "Report", "audit_collusion", "audit_store"]

EARLY_MOVES: Final = 6
"""An escape is early when the escaper had made at most this many moves of his own."""
REPEATS: Final = 2
PUPPETS: Final = 3
FED_BEANS: Final = 5_000


class FlagKind(StrEnum):
    REPEATED_ESCAPES = "repeated-escapes"
    FED_BY_ESCAPES = "fed-by-escapes"
    FED_BY_NEW_ACCOUNTS = "fed-by-new-accounts"
    FED_FROM_ONE_ADDRESS = "fed-from-one-address"


@dataclass(frozen=True, slots=True)
class Flag:
    """One suspicious flow: ``user`` (who benefits), the accounts it came from, the games."""

    kind: FlagKind
    user: int
    sources: tuple[int, ...]
    games: tuple[int, ...]
    beans: int
    names: dict[int, str] = field(default_factory=dict)

    def line(self) -> str:
        def who(user: int) -> str:
            return f"{self.names.get(user, '?')} (user {user})"

        sources = ", ".join(who(s) for s in self.sources)
        games = ", ".join(str(g) for g in self.games)
        match self.kind:
            case FlagKind.REPEATED_ESCAPES:
                what = f"escaped early from {who(self.user)} {len(self.games)} times"
                return f"{self.kind}: {sources} {what} (games {games})"
            case FlagKind.FED_BY_ESCAPES:
                what = f"{len(self.games)} early escapes by {len(self.sources)} new accounts"
            case FlagKind.FED_BY_NEW_ACCOUNTS:
                what = f"{self.beans:,} beans from {len(self.sources)} new accounts"
            case FlagKind.FED_FROM_ONE_ADDRESS:
                what = (
                    f"{len(self.games)} early escapes or lost hands ({self.beans:,} beans) from "
                    f"{len(self.sources)} accounts registered from one address"
                )
        return f"{self.kind}: {who(self.user)} received {what}: {sources} (games {games})"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "user": self.user,
            "name": self.names.get(self.user),
            "sources": [{"user": s, "name": self.names.get(s)} for s in self.sources],
            "games": list(self.games),
            "beans": self.beans,
        }


@dataclass
class Report:
    url: str
    games: int = 0
    escapes: int = 0
    flags: list[Flag] = field(default_factory=list)

    def lines(self) -> list[str]:
        head = (
            f"collusion audit of {self.url}: {self.games} bean-room hands, "
            f"{self.escapes} escapes, {len(self.flags)} suspicious flows"
        )
        return [head, *("  " + flag.line() for flag in self.flags)]

    def to_json(self) -> dict[str, Any]:
        return {
            "database": self.url,
            "games": self.games,
            "escapes": self.escapes,
            "flags": [flag.to_json() for flag in self.flags],
        }


def _own_moves(record: dict[str, Any], seat: int) -> int:
    """How many moves ``seat`` made in the record (its own actions, not chance's)."""
    count = 0
    for text in record.get("actions") or ():
        try:
            action = Action.parse(str(text))
        except (ErrenError, ValueError):
            continue
        count += action.player == seat
    return count


@dataclass
class _Flows:
    """What the games say, gathered in one pass."""

    complete: Counter[int] = field(default_factory=Counter)
    pair_escapes: defaultdict[tuple[int, int], list[int]] = field(
        default_factory=lambda: defaultdict(list)
    )
    new_escapes: defaultdict[int, dict[int, list[int]]] = field(
        default_factory=lambda: defaultdict(dict)
    )
    new_beans: defaultdict[int, dict[int, tuple[int, list[int]]]] = field(
        default_factory=lambda: defaultdict(dict)
    )
    """Beneficiary → new account → the beans it lost to him and the games."""
    fed: defaultdict[int, dict[int, tuple[int, list[int]]]] = field(
        default_factory=lambda: defaultdict(dict)
    )
    """Beneficiary → any account that escaped from him early or with beans, or lost a hand to
    him with beans → those beans and the games."""

    def add(self, game: StoredGame, report: Report) -> None:
        first, second = game.seats
        outcome = (game.record or {}).get("outcome")
        if first is None or second is None or not isinstance(outcome, dict):
            return
        report.games += 1
        ids = (first, second)
        loser = outcome.get("loser")
        if loser not in (0, 1):
            loser = None
        lost = 0 if loser is None else max(0, -int((outcome.get("beans") or [0, 0])[loser]))
        if outcome.get("kind") == "abort" and loser is not None:
            self._escape(game, ids, loser, lost, report)
        elif outcome.get("kind") in ("win", "draw"):
            if loser is not None and lost:
                _feed(self.fed, ids[1 - loser], ids[loser], lost, game.id)
                if self.complete[ids[loser]] < NEW_PLAYER_HANDS:
                    _feed(self.new_beans, ids[1 - loser], ids[loser], lost, game.id)
            self.complete.update(ids)

    def _escape(
        self, game: StoredGame, ids: tuple[int, int], seat: int, lost: int, report: Report
    ) -> None:
        """``seat`` escaped from ``game``, losing ``lost`` beans."""
        report.escapes += 1
        escaper, stayer = ids[seat], ids[1 - seat]
        early = _own_moves(game.record or {}, seat) <= EARLY_MOVES
        if early or lost:
            _feed(self.fed, stayer, escaper, lost, game.id)
        if not early:
            return
        self.pair_escapes[escaper, stayer].append(game.id)
        if self.complete[escaper] < NEW_PLAYER_HANDS:
            self.new_escapes[stayer].setdefault(escaper, []).append(game.id)

    def address_flags(self, origins: dict[int, str]) -> list[Flag]:
        """``fed-from-one-address``: ``origins`` maps accounts to their origin digests."""
        flags = []
        for user, fed in self.fed.items():
            by_origin: defaultdict[str, list[int]] = defaultdict(list)
            for source in fed:
                if source in origins:
                    by_origin[origins[source]].append(source)
            for sources in by_origin.values():
                if len(sources) >= PUPPETS:
                    beans = sum(fed[s][0] for s in sources)
                    games = tuple(sorted(g for s in sources for g in fed[s][1]))
                    flags.append(
                        Flag(
                            FlagKind.FED_FROM_ONE_ADDRESS,
                            user,
                            tuple(sorted(sources)),
                            games,
                            beans,
                        )
                    )
        return flags

    def flags(self) -> list[Flag]:
        flags = [
            Flag(FlagKind.REPEATED_ESCAPES, stayer, (escaper,), tuple(games), 0)
            for (escaper, stayer), games in self.pair_escapes.items()
            if len(games) >= REPEATS
        ]
        for user, by in self.new_escapes.items():
            if len(by) >= PUPPETS:
                games = tuple(sorted(g for gs in by.values() for g in gs))
                flags.append(Flag(FlagKind.FED_BY_ESCAPES, user, tuple(sorted(by)), games, 0))
        for user, fed in self.new_beans.items():
            beans = sum(total for total, _ in fed.values())
            if len(fed) >= PUPPETS and beans >= FED_BEANS:
                games = tuple(sorted(g for _, gs in fed.values() for g in gs))
                flags.append(
                    Flag(FlagKind.FED_BY_NEW_ACCOUNTS, user, tuple(sorted(fed)), games, beans)
                )
        return flags


def _feed(
    flows: defaultdict[int, dict[int, tuple[int, list[int]]]],
    user: int,
    source: int,
    beans: int,
    game: int,
) -> None:
    total, games = flows[user].get(source, (0, []))
    flows[user][source] = (total + beans, [*games, game])


async def audit_store(store: Store) -> Report:
    """Read every finished bean-room game of ``store`` and list the suspicious flows."""
    report = Report(store.database.engine.url.render_as_string(hide_password=True))
    flows = _Flows()
    after = 0
    while page := await store.games.finished(after=after):
        for game in page:
            if is_bean_room(game.room):
                flows.add(game, report)
        after = page[-1].id
    flags = flows.flags()
    fed = {source for sources in flows.fed.values() for source in sources}
    flags += flows.address_flags(await store.accounts.origins(fed))
    users = {u for flag in flags for u in (flag.user, *flag.sources)}
    names = {
        u: found.name for u in sorted(users) if (found := await store.accounts.user(u)) is not None
    }
    report.flags = [Flag(f.kind, f.user, f.sources, f.games, f.beans, names) for f in flags]
    return report


async def audit_collusion(url: str | None) -> Report:
    """Open the database at ``url`` (as ``erren serve --database``), audit it, close it."""
    store = await Store.open(url)
    try:
        return await audit_store(store)
    finally:
        await store.close()
