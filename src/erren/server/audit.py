"""The ledger audit (``erren audit-ledger``): are every player's beans right?

Two parts, both read-only:

* **The ledger** (:meth:`erren.server.store.ledger.Ledger.audit_findings`): the beans all users
  hold equal the beans the house granted (welcome, relief), every account's entries sum to its
  balance, every journal sums to 0, no balance is negative.
* **The grants**: one welcome grant per account (to that account); every relief grant
  (``relief:{user}:{day}``) went to a registered player below 1,000 beans and topped him up to
  exactly 2,000 — once a day, which the unique key guarantees.
* **The games**: every finished hand of a bean room is replayed from its stored record (seed
  revealed: the commitment and the chance actions are checked too) to get its point deltas, and
  its settlement journal ``game:{id}`` must move exactly
  ``to_beans(deltas, stake, balances before).paid`` from the loser to the winner — the payer's
  balance before is his ``balance_after`` on that journal plus what he paid.  A hand that owes
  beans but has no settlement, a settlement that differs, rules that carry a stake (the engine
  must count points, never beans), a settlement of a score-only table (vs-computer, private,
  campaign) or of a game that does not exist: each is a problem.  An escape by an account that
  had not yet played 10 bean-room hands to the end owes nothing
  (:func:`erren.server.settlement.escape_pays`).

>>> # report = await audit_store(store); report.ok, report.problems
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Final

from erren.engine.result import HandResult, ResultKind
from erren.errors import ErrenError
from erren.server.fairness import FairnessError, verify_record
from erren.server.rooms import catalogue
from erren.server.settlement import escape_pays, to_beans
from erren.server.store import (
    RELIEF_BELOW,
    RELIEF_TOP_UP,
    Audit,
    LedgerJournal,
    Store,
    StoredGame,
)

if TYPE_CHECKING:
    from erren.engine.state import State

__all__ = ["STAKE_OPTIONS", "GameAudit", "LedgerReport", "audit_database", "audit_store"]

STAKE_OPTIONS: Final[dict[str, object]] = {"room": "score-only", "stake": 1}
"""Family options through which an engine once applied a stake, with their neutral values: a
record whose rules carry another value counted beans, not points (the stake was applied twice).
They are left out when the audit replays a record, so the replay gives points."""

_GAME_KEY: Final = re.compile(r"game:(\d+)")
_WELCOME_KEY: Final = re.compile(r"welcome:(\d+)")
_RELIEF_KEY: Final = re.compile(r"relief:(\d+):(\d{4}-\d{2}-\d{2})")
_PAGE: Final = 500


@dataclass(slots=True)
class GameAudit:
    """What the game check looked at."""

    finished: int = 0
    """Finished games (one hand each)."""
    bean_games: int = 0
    """Finished hands of bean rooms, each replayed from its record."""
    settled: int = 0
    """Bean-room hands with a settlement journal."""
    nothing_owed: int = 0
    """Bean-room hands that moved no beans (a drawn hand, 0 points, a computer seat)."""
    beans_moved: int = 0
    """Beans paid by all the settlements checked."""
    score_only: dict[str, int] = field(default_factory=dict)
    """Finished hands of score-only tables, by kind (``private``, ``computer``, ...)."""
    unfinished: int = 0
    """Games not finished (running, or cut off by a restart)."""
    pending: int = 0
    """Settlements of games not finished yet (the table settles, then finishes the game)."""
    other_settlements: int = 0
    """Settlements whose key is not ``game:{id}`` (not a game's; not checked against records)."""


@dataclass(slots=True)
class GrantAudit:
    """The grants, by kind: how many and how many beans."""

    welcome: int = 0
    welcome_beans: int = 0
    relief: int = 0
    relief_beans: int = 0
    other: int = 0
    """Grants with another key or none (corrections by an operator)."""
    other_beans: int = 0


@dataclass(slots=True)
class LedgerReport:
    """The audit's result: ``problems`` is empty when every bean is right."""

    database: str
    ledger: Audit
    grants: GrantAudit
    games: GameAudit
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "database": self.database,
            "ledger": asdict(self.ledger),
            "grants": asdict(self.grants),
            "games": asdict(self.games),
            "problems": list(self.problems),
        }

    def lines(self) -> list[str]:
        """The report for a person: what was checked, the counts, then the problems."""
        led, grants, games = self.ledger, self.grants, self.games
        score_only = sum(games.score_only.values())
        kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(games.score_only.items()))
        out = [
            f"ledger audit of {self.database}",
            f"ledger: {led.accounts} accounts, {led.journals} journals ({led.grants} grants, "
            f"{led.settlements} settlements), {led.entries} entries",
            f"  users hold {led.users_total:,} beans; the house granted {led.granted:,}",
            "  checked: users' beans = beans granted = −house; each account's entries sum to "
            "its balance (and to each row's balance_after); each journal sums to 0; grants "
            "come from the house, settlements move beans between players only; no balance "
            "is negative",
            f"grants: welcome {grants.welcome} ({grants.welcome_beans:,} beans), relief "
            f"{grants.relief} ({grants.relief_beans:,}), other {grants.other} "
            f"({grants.other_beans:,})",
            "  checked: one welcome per account; each relief went to a registered player "
            f"below {RELIEF_BELOW:,} and topped him up to exactly {RELIEF_TOP_UP:,}, once a day",
            f"games: {games.finished} finished, {games.unfinished} unfinished",
            f"  bean rooms: {games.bean_games} hands replayed from their records; "
            f"{games.settled} settled, {games.nothing_owed} moved nothing; "
            f"{games.beans_moved:,} beans moved",
            "  checked: each settlement game:{id} = to_beans(point deltas, stake, balance "
            "before).paid from the loser to the winner",
            f"  score-only: {score_only} hands{f' ({kinds})' if kinds else ''}, checked to have "
            "no settlement",
            f"  settlements of unfinished games: {games.pending}; other settlements (not a "
            f"game's key): {games.other_settlements}",
        ]
        if self.ok:
            out.append("OK: no problem found")
        else:
            out.append(f"FAILED: {len(self.problems)} problem(s)")
            out += [f"  - {problem}" for problem in self.problems]
        return out


def _seat_balances(
    journal: LedgerJournal, seats: tuple[int, int]
) -> tuple[tuple[int, int], dict[int, int]] | None:
    """Each seat's balance before the settlement and the amount it moved per user, or ``None``
    when the journal does not have exactly one row for each seat."""
    moved: dict[int, int] = {}
    before: dict[int, int] = {}
    for entry in journal.lines:
        if entry.user_id in moved:
            return None
        moved[entry.user_id] = entry.amount
        before[entry.user_id] = entry.balance_after - entry.amount
    if set(moved) != set(seats):
        return None
    return (before[seats[0]], before[seats[1]]), moved


async def _check_bean_game(
    store: Store,
    game: StoredGame,
    stake: int,
    journal: LedgerJournal | None,
    report: GameAudit,
) -> list[str]:
    """The problems of one finished bean-room hand (none: its beans are right)."""
    name = f"game {game.id} ({game.room})"
    report.bean_games += 1
    problems, state = _replayed(game, name)
    if state is None:
        return problems
    result = state.result
    deltas = (0, 0) if result is None else (int(result.deltas[0]), int(result.deltas[1]))
    first, second = game.seats
    if first is None or second is None:
        if journal is None:
            report.nothing_owed += 1
        else:
            problems.append(f"{name}: a computer seat, yet settlement {journal.key} moved beans")
        return problems
    if first == second:
        return [*problems, f"{name}: one account (user {first}) held both seats"]
    hand = _BeanHand(name, (first, second), deltas, stake, result)
    if journal is None:
        return [*problems, *await _check_unsettled(store, game, hand, report)]
    report.settled += 1
    return [*problems, *_check_settlement(hand, journal, report)]


def _replayed(game: StoredGame, name: str) -> tuple[list[str], State | None]:
    """The problems of a bean-room hand's record itself (a stake among its rules) and its
    replayed final state; ``None`` when it has no record, not the commitment published at the
    deal or does not replay (the problems say which)."""
    data = dict(game.record or {})
    if not data:
        return [f"{name}: finished without a record"], None
    if (data.get("fairness") or {}).get("commitment") != game.commitment:
        return [f"{name}: the record's commitment is not the one published at the deal"], None
    options = dict(data.get("options") or {})
    problems = [
        f"{name}: its rules carry a stake ({key}={options[key]!r}): the engine counted beans, "
        "not points, so the stake is applied twice"
        for key, neutral in STAKE_OPTIONS.items()
        if key in options and options[key] != neutral
    ]
    data["options"] = {k: v for k, v in options.items() if k not in STAKE_OPTIONS}
    try:
        return problems, verify_record(data)
    except (ErrenError, FairnessError, ValueError, KeyError, TypeError) as error:
        return [*problems, f"{name}: the record does not replay: {error}"], None


@dataclass(frozen=True, slots=True)
class _BeanHand:
    """What a replayed bean-room hand between two accounts owes: its name in the problems, the
    two users by seat, the points each won and the room's stake."""

    name: str
    ids: tuple[int, int]
    deltas: tuple[int, int]
    stake: int
    result: HandResult | None


async def _check_unsettled(
    store: Store, game: StoredGame, hand: _BeanHand, report: GameAudit
) -> list[str]:
    """The problems of a hand without a settlement: none when its points move no bean at the
    balances of the time, or when the payer is a new account that escaped."""
    name, ids, deltas, stake, result = hand.name, hand.ids, hand.deltas, hand.stake, hand.result
    when = game.finished_at or game.created_at
    balances = (
        await store.ledger.balance_at(ids[0], when),
        await store.ledger.balance_at(ids[1], when),
    )
    try:
        move = to_beans(deltas, stake, balances)
    except ValueError as error:
        return [f"{name}: its points cannot be settled: {error}"]
    if move.paid > 0 and move.payer is not None and result is not None:
        if result.kind is ResultKind.ABORT:
            escaper = await store.profiles.complete_hands(ids[move.payer], before_game=game.id)
            if not escape_pays(escaper):
                report.nothing_owed += 1  # a new account's escape moves no bean
                return []
        return [
            f"{name}: the record's points {deltas} at stake {stake} make user "
            f"{ids[move.payer]} pay {move.paid} beans, but there is no settlement"
        ]
    report.nothing_owed += 1
    return []


def _check_settlement(hand: _BeanHand, journal: LedgerJournal, report: GameAudit) -> list[str]:
    """The problems of a hand's settlement: one row for each seat, moving what the record's
    points make at the balances before it."""
    name, ids, deltas, stake = hand.name, hand.ids, hand.deltas, hand.stake
    first, second = ids
    found = _seat_balances(journal, ids)
    if found is None:
        users = sorted(e.user_id for e in journal.lines)
        return [
            f"{name}: settlement {journal.key} has rows for users {users}, not one for each "
            f"seat {list(ids)}"
        ]
    balances, moved = found
    try:
        move = to_beans(deltas, stake, balances)
    except ValueError as error:
        return [f"{name}: its points cannot be settled: {error}"]
    expected = {first: 0, second: 0}
    if move.payer is not None and move.payee is not None:
        expected[ids[move.payer]], expected[ids[move.payee]] = -move.paid, move.paid
    report.beans_moved += max(moved.values())
    if moved != expected:
        return [
            f"{name}: the record's points {deltas} at stake {stake} (balances before "
            f"{balances[0]}/{balances[1]}) move {expected[first]:+d}/{expected[second]:+d} "
            f"beans, but settlement {journal.key} moved {moved[first]:+d}/{moved[second]:+d}"
        ]
    return []


async def _audit_grants(store: Store) -> tuple[GrantAudit, list[str]]:
    """Check the welcome and relief grants against their rules."""
    report = GrantAudit()
    problems: list[str] = []
    guests: dict[int, bool] = {}
    for journal in await store.ledger.journals("grant"):
        key = journal.key or ""
        amount = sum(line.amount for line in journal.lines)
        users = [line.user_id for line in journal.lines]
        welcome, relief = _WELCOME_KEY.fullmatch(key), _RELIEF_KEY.fullmatch(key)
        if welcome is not None:
            report.welcome += 1
            report.welcome_beans += amount
            if users != [int(welcome.group(1))] or amount <= 0:
                problems.append(f"grant {key} went to users {users} ({amount:+d} beans)")
            continue
        if relief is None:
            report.other += 1
            report.other_beans += amount
            continue
        report.relief += 1
        report.relief_beans += amount
        user = int(relief.group(1))
        if users != [user]:
            problems.append(f"relief {key} went to users {users}")
            continue
        line = journal.lines[0]
        before = line.balance_after - line.amount
        if user not in guests:
            found = await store.accounts.user(user)
            guests[user] = found is None or found.is_guest
        if guests[user]:
            problems.append(f"relief {key} went to a guest")
        if not 0 <= before < RELIEF_BELOW or line.balance_after != RELIEF_TOP_UP:
            problems.append(
                f"relief {key} granted {line.amount:+d} beans to a balance of {before}; relief "
                f"tops a balance below {RELIEF_BELOW:,} up to exactly {RELIEF_TOP_UP:,}"
            )
    return report, problems


async def _audit_games(store: Store) -> tuple[GameAudit, list[str]]:
    """Check every finished game.  The games are read before the settlements: the table
    settles a hand before it finishes the game, so every game read finished has its settlement
    in the later read, even on a live server (a settlement of a game that finished meanwhile
    counts as pending)."""
    report = GameAudit()
    problems: list[str] = []
    rooms = catalogue()
    games: list[StoredGame] = []
    after = 0
    while page := await store.games.finished(after=after, limit=_PAGE):
        after = page[-1].id
        games += page
    journals: dict[int, LedgerJournal] = {}
    for journal in await store.ledger.journals("settle"):
        match = _GAME_KEY.fullmatch(journal.key or "")
        if match is None:
            report.other_settlements += 1
        else:
            journals[int(match.group(1))] = journal
    for game in games:
        report.finished += 1
        settlement = journals.pop(game.id, None)
        room = rooms.get(game.room or "")
        if room is None:
            kind = game.room or "unknown"
            report.score_only[kind] = report.score_only.get(kind, 0) + 1
            if settlement is not None:
                problems.append(
                    f"game {game.id}: a score-only table ({kind}), yet settlement "
                    f"{settlement.key} moved beans"
                )
            continue
        problems += await _check_bean_game(store, game, room.stake, settlement, report)
    report.unfinished = len(await store.games.unfinished_ids())
    existing = await store.games.which_finished(journals)
    for game_id, journal in journals.items():
        if game_id in existing:
            report.pending += 1
        else:
            problems.append(f"settlement {journal.key} belongs to no game")
    return report, problems


async def audit_store(store: Store) -> LedgerReport:
    """Audit the ledger and every finished game of ``store``."""
    ledger, problems = await store.ledger.audit_findings()
    grants, grant_problems = await _audit_grants(store)
    games, game_problems = await _audit_games(store)
    url = store.database.engine.url.render_as_string(hide_password=True)
    return LedgerReport(url, ledger, grants, games, problems + grant_problems + game_problems)


async def audit_database(url: str | None) -> LedgerReport:
    """Open the database at ``url`` (as ``erren serve --database``), audit it, close it."""
    store = await Store.open(url)
    try:
        return await audit_store(store)
    finally:
        await store.close()
