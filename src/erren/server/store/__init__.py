"""The server's storage: accounts, sessions, beans (a double-entry ledger) and game records.

Async (SQLAlchemy 2 + Alembic) on an SQLite file (aiosqlite) by default or PostgreSQL (psycopg 3).
The schema is created and migrated to head by :meth:`Store.open` on every start.  A
:class:`Store` is composed of parts that each hold the one :class:`Database`; the server calls
the part a thing is about (``store.ledger.balance(...)``, ``store.games.create(...)``).  The
contract the server codes against (names and semantics are stable)::

    from erren.server.store import (Store, User, Session, Transfer, LedgerEntry, StoredGame,
                                    GameSummary, StoreError, AuthError, AccountError,
                                    InsufficientBeans)

    store = await Store.open(url)   # None → sqlite file "erren.sqlite3" in
        # platformdirs.user_data_dir("erren") (env ERREN_DATA_DIR overrides);
        # "sqlite:///path" or "postgresql://..." (→ aiosqlite / psycopg); creates the schema and
        # runs the Alembic migrations to head.  Keywords: welcome_grant=10_000,
        # passwords=Passwords() (argon2id), session_ttl=30 days, pool_size=10.
    await store.close()             # or await store.aclose(), or:
        # async with await Store.open(url) as store: ...
    await store.ping()              # raises unless the database answers and takes writes
    store.database                  # Database: the engine, dialect, transactions, on_error

    # store.accounts: argon2id password hashes; names: see erren.server.store.names (NFKC,
    # 2–16 letters/digits/_-.·, no invisible characters, no look-alike of a taken name);
    # passwords ≥ 8 chars
    await store.accounts.register(name, password) -> User   # AccountError: bad name / password
        # too short; NameTakenError (code "name-taken" or "name-confusable"): name taken;
        # address=: keeps its keyed digest (origins)
    await store.accounts.login(name, password) -> Session   # AuthError "wrong name or
        # password" for an unknown name or a wrong password
    await store.accounts.guest() -> Session         # a guest ("guest-1a2b3c4d", no password)
    await store.accounts.user_for_token(token) -> User | None   # token: 32 random bytes,
        # urlsafe; kept as its sha256; expires after 30 days
    await store.accounts.logout(token) -> None
    await store.accounts.user(user_id) -> User | None
    await store.accounts.origins(user_ids) -> {user_id: digest}

    # store.ledger, beans: every change is a ledger row pair written in the transaction that
    # causes it; the total held by users changes only by grants (from the "house" account)
    await store.ledger.balance(user_id) -> int      # AccountError for an unknown user
    await store.ledger.grant(user_id, amount, reason, *, key=None) -> int   # new balance;
        # every new account (registered or guest) gets the welcome grant (key
        # "welcome:{user_id}").  amount < 0 takes beans back (InsufficientBeans if > balance);
        # with a key: once only.
    await store.ledger.settle(key, transfers, *, strict=False) -> bool
        # Transfer(payer_id, payee_id, amount, reason).  All transfers and their ledger rows
        # in ONE transaction, or none; once per key (e.g. "game:{id}:hand:{n}"): a second call
        # with the same key returns False and changes nothing, even concurrently (a unique
        # index).  An amount above the payer's balance is clamped to it (§6.3: the loser pays
        # min(A, balance), the payee gets what was paid); strict=True raises InsufficientBeans
        # instead.  Balances never go negative (also a CHECK constraint).
    await store.ledger.entries(user_id, limit=50) -> list[LedgerEntry]   # newest first
    await store.ledger.audit() -> Audit             # checks the invariants; StoreError if not
    await store.ledger.audit_findings() -> (Audit, [problem, ...])   # the same, listing what
        # fails
    await store.ledger.journals(kind, prefix="") -> list[LedgerJournal]   # "grant"/"settle",
        # with the users' rows, oldest first (prefix "game:": the games' settlements)
    await store.ledger.balance_at(user_id, when) -> int   # the balance as it stood at ``when``
    await store.ledger.claim_relief(user_id, *, now=None) -> (granted, balance)
        # 救济豆: a registered player below RELIEF_BELOW (1,000) beans is topped up to exactly
        # RELIEF_TOP_UP (2,000), once per UTC day, as a grant keyed "relief:{user_id}:{day}";
        # ReliefError(code, message), code "guest" / "already-claimed" / "not-needed"

    # store.games: the record is written as the game runs — append_action returns once
    # committed, so send an action's events only after it returns
    await store.games.create(ruleset, options, seats, seed, salt, room) -> int
        # seats: (user id | None, user id | None), None = computer.  Stores the commitment
        # sha256(f"{seed}:{salt}") (erren.server.fairness.commit) publicly, seed + salt
        # privately.  fence=: a cluster node's lease token (claim(game_id, token), fence_of)
    await store.games.append_action(game_id, seq, action) -> None  # unique (game_id, seq);
        # the same seq with the same action is a no-op; with another action, or on a finished
        # or unknown game, StoreError
    await store.games.append_actions([(game_id, seq, action), ...]) -> list[StoreError | None]
        # group commit: many rows (of many games) in ONE transaction, durable when it returns;
        # per row None (stored, or already there) or the StoreError append_action would raise
    await store.games.finish(game_id, record, summary) -> None  # again with the same: no-op
    await store.games.unfinished() -> list[StoredGame]   # header (seed and salt included) and
        # actions in seq order: to restore the tables after a restart
    await store.games.get(game_id, *, reveal=False) -> StoredGame | None   # seed and salt
        # only when finished (or reveal=True).  The actions of a running game contain the
        # wall: never show them to a player before the game is finished.
    await store.games.finished(after=0, limit=500) -> list[StoredGame]    # oldest first,
        # revealed, without actions (the record has them): for the ledger audit
    await store.games.unfinished_ids() -> list[int]
    await store.games.unfinished_tables() -> [(game_id, table_id), ...]
    await store.games.which_finished(game_ids) -> {game_id: finished}
    await store.games.campaign(user_id) / put_campaign(user_id, state) / delete_campaign(user_id)

    # store.profiles: a finished hand is settled once, in ONE transaction: its beans (as
    # ledger.settle, key "game:{id}"), its "hands" row and both players' ratings (openskill,
    # erren.server.rating) when rated — a retry changes nothing
    await store.profiles.settle_hand(SettledHand(...), transfers) -> bool
    await store.profiles.family_stats(user_id) -> list[FamilyStats]   # per family, from "hands"
    await store.profiles.rating_leaders(family, limit=50) -> list[RatingLeader]   # best
        # mu − 3σ first
    await store.profiles.bean_leaders(family, limit=50) -> list[BeanLeader]   # most net beans
    await store.profiles.complete_hands(user_id, *, before_game=None) -> int
    await store.profiles.history(user_id, *, family=, room=, opponent=, result=, limit=50)
        -> list[GameSummary]   # newest first, with the player's result and beans

    # store.ranks: 段位 (erren.server.ranks), per family and season; settle_hand moves both
    # players' ranks in its transaction when SettledHand.tier is set (a bean room) and both are
    # registered — once per hand.  store.ranks.seasons (the calendar) and store.ranks.now (the
    # clock) are injectable (Store(..., seasons=Seasons(epoch, weeks)))
    store.ranks.season() -> Season                  # the current one: number, start, end
    await store.ranks.standings(user_id, season=None) -> list[RankStanding]   # by family; a
        # family not played this season yet: his carried standing, hands 0
    await store.ranks.history(user_id, *, family=None, season=None, limit=50) -> list[RankMove]
    await store.ranks.moves_of(game_id) -> list[RankMove]      # what a settled hand moved
    await store.ranks.leaders(family, season, limit=50) -> list[RankLeader]   # step, then PT

    # store.settings: a registered player's settings panel, one JSON document
    await store.settings.get(user_id) -> SavedSettings | None   # (document, updated_at)
    await store.settings.put(user_id, document) -> SavedSettings   # replaces it whole;
        # AccountError for a guest or an unknown user, ValueError past 1,024 bytes

    # store.social: friends and blocks of registered accounts (social.py; FriendError with a
    # code: account-needed, no-player, friend-self, friend-already, friend-blocked,
    # friend-limit (limit), no-request, not-friends); bounds: 100 friends, 20 requests sent,
    # 50 received, 200 blocks
    await store.social.code(user_id) -> str          # his friend code, made when first asked
    await store.social.find(name_or_code) -> int | None   # a registered account
    await store.social.request(from_id, to_id) -> RequestOutcome   # SENT, or FRIENDS when
        # the other had asked first
    await store.social.answer(user_id, from_id, *, accept) -> None
    await store.social.cancel(user_id, to_id) / remove(user_id, friend_id) -> None
    await store.social.block(user_id, other_id) / unblock(user_id, other_id) -> None
        # a block ends the friendship and the requests between the two
    await store.social.friends(user_id) / blocked(user_id) -> list[Peer]   # by name
    await store.social.requests(user_id) -> (received, sent)     # newest first
    await store.social.friend_ids(user_id) / barred(user_id) -> set[int]
    await store.social.is_blocked(a, b) -> bool; blocks_among(ids) -> {frozenset((a, b))}
    await store.social.recent_opponents(user_id, limit=10) -> list[Peer]   # newest first

    # store.reviews: the kept reviews of finished hands (reviews.py; erren.server.reviewing)
    await store.reviews.get(game_id, seat) -> StoredReview | None
    await store.reviews.put(game_id, seat, review, *, user_id, family) -> StoredReview
        # review: erren.review's HandReview dict; the first kept wins
    await store.reviews.recent(user_id, family, limit=50) -> list[StoredReview]   # newest
        # hand first: decisions, matches, bad, loss (and the review) per hand — a profile's
        # trend over his last hands

    # store.drills: a player's own 何切る puzzles (drills.py; erren.server.owndrills)
    await store.drills.put(user_id, family, game_id, step, puzzle, *, seat) -> StoredDrill | None
    await store.drills.get(user_id, drill_id) -> StoredDrill | None   # his own only
    await store.drills.recent(user_id, family, limit=50) / next(user_id, family)   # newest
    await store.drills.answered(user_id, drill_id); counts(user_id) -> {family: (kept, left)}

All methods are safe to call from many tasks at once; each is one short transaction.  Errors:
:class:`StoreError` (base, an :class:`erren.errors.ErrenError`) ⊃ :class:`AuthError`,
:class:`AccountError` ⊃ :class:`InsufficientBeans`; malformed arguments raise ``ValueError``.

The code: :class:`Store` (``store.py``) builds its parts around one :class:`Database`
(``database.py``: the URL, the migrations, transactions) — :class:`~.ledger.Ledger`
(``ledger.py``: beans, relief; ``invariants.py``: its audit), :class:`~.accounts.Accounts`
(``accounts.py``: users, sessions; holds the ledger for the welcome grant),
:class:`~.games.Games` (``games.py``: game records, campaign runs), :class:`~.profiles.Profiles`
(``profiles.py``; holds the ledger for a hand's beans) and :class:`~.settings.AccountSettings`
(``settings.py``); ``errors.py`` and ``values.py`` hold what it raises and returns,
``models.py`` the tables, ``names.py`` the name rules.
"""

from __future__ import annotations

from erren.server.store.passwords import Passwords
from erren.server.store.store import (
    DATABASE_FILE,
    RELIEF_BELOW,
    RELIEF_TOP_UP,
    SESSION_TTL,
    WELCOME_GRANT,
    AccountError,
    Audit,
    AuthError,
    BeanLeader,
    Database,
    FamilyStats,
    Fenced,
    GameSummary,
    InsufficientBeans,
    JournalLine,
    LedgerEntry,
    LedgerJournal,
    NameTakenError,
    RatingLeader,
    ReliefError,
    SavedSettings,
    Session,
    SettledHand,
    Store,
    StoredDrill,
    StoredGame,
    StoredReview,
    StoreError,
    StoreUnavailable,
    Transfer,
    User,
    database_url,
)

__all__ = [
    "DATABASE_FILE",
    "RELIEF_BELOW",
    "RELIEF_TOP_UP",
    "SESSION_TTL",
    "WELCOME_GRANT",
    "AccountError",
    "Audit",
    "AuthError",
    "BeanLeader",
    "Database",
    "FamilyStats",
    "Fenced",
    "GameSummary",
    "InsufficientBeans",
    "JournalLine",
    "LedgerEntry",
    "LedgerJournal",
    "NameTakenError",
    "Passwords",
    "RatingLeader",
    "ReliefError",
    "SavedSettings",
    "Session",
    "SettledHand",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "StoredDrill",
    "StoredGame",
    "StoredReview",
    "Transfer",
    "User",
    "database_url",
]
