"""Account names: NFKC, 2–16 visible characters, and no look-alike of a taken name — also when two
players register at once, and for the names that existed before these rules."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from alembic import command

from erren.server.store import AccountError, NameTakenError, Passwords, Store
from erren.server.store.names import BadNameError, check_name, name_key, skeleton
from erren.server.store.store import alembic_config

pytestmark = pytest.mark.anyio

CYRILLIC_A = "\u0430"
GREEK_ALPHA = "\u03b1"


# ------------------------------------------------------------------ the rules, without a database
@pytest.mark.parametrize(
    ("name", "stored"),
    [
        ("ab", "ab"),
        ("a" * 16, "a" * 16),
        ("ａｌｉｃｅ", "alice"),  # full width → NFKC
        ("ﬁsh", "fish"),  # the ligature → two letters
        ("ﾘｭｳ", "リュウ"),  # half-width katakana
        ("Zoë", "Zoë"),
        ("麻将高手", "麻将高手"),
        ("li_wei-2.0", "li_wei-2.0"),
        ("Jean·Luc", "Jean·Luc"),
    ],
)
def test_a_good_name_is_stored_in_its_nfkc_form(name: str, stored: str) -> None:
    assert check_name(name) == stored


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("a", "2–16 characters, this one has 1"),
        ("a" * 17, "2–16 characters, this one has 17"),
        ("ａ" * 17, "this one has 17"),
        ("al ice", "U+0020 SPACE"),
        ("al\u00a0ice", "U+0020 SPACE"),  # no-break space: NFKC makes it a space
        ("ali\u200bce", "U+200B ZERO WIDTH SPACE"),
        ("ali\u200dce", "U+200D ZERO WIDTH JOINER"),
        ("ali\u202ece", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("ali\x07ce", "U+0007"),
        ("\u3164\u3164", "HANGUL"),  # the Hangul filler, a "letter" that shows nothing
        ("alic\ufe0fe", "VARIATION SELECTOR-16"),
        ("al\u2800ice", "BRAILLE PATTERN BLANK"),
        ("ali\U000e0041", "TAG LATIN CAPITAL LETTER A"),
        ("a/b", "'/' (U+002F SOLIDUS) is not allowed"),
        ("a<b>", "'<' (U+003C LESS-THAN SIGN) is not allowed"),
        ("_alice", "starts with a letter or a digit"),
        ("alice.", "does not end with"),
        ("\u0301ab", "starts with a letter or a digit"),
        ("guest-1234", "for guests"),
        ("Guest-1234", "for guests"),
        (f"gu{CYRILLIC_A}st-12".replace(CYRILLIC_A, "\u0435"), "for guests"),  # Cyrillic е
        ("ﷺﷺ", "U+0020 SPACE"),  # one character whose NFKC is 18, with spaces
    ],
)
def test_a_bad_name_is_refused_with_the_rule_it_breaks(name: str, says: str) -> None:
    with pytest.raises(BadNameError, match="bad name") as refused:
        check_name(name)
    assert says in str(refused.value)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("alice", "ALICE"),
        ("alice", "ａｌｉｃｅ"),
        ("alice", f"{CYRILLIC_A}lice"),
        ("alpha", f"{GREEK_ALPHA}lpha"),
        ("paypal", f"p{CYRILLIC_A}yp{CYRILLIC_A}l"),
        ("bob1", "bobl"),
        ("alice", f"{CYRILLIC_A.upper()}LICE"),
        ("modern", "rnodern"),
        ("Zoë", "Zoe\u0308"),  # composed and decomposed
    ],
)
def test_look_alikes_have_one_skeleton(one: str, other: str) -> None:
    assert skeleton(one) == skeleton(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [("alice", "alicia"), ("Zoë", "Zoe"), ("麻将", "麻將"), ("li_wei", "li-wei"), ("ab", "ba")],
)
def test_different_names_have_different_skeletons(one: str, other: str) -> None:
    assert skeleton(one) != skeleton(other)


def test_the_key_is_nfkc_and_case_folded() -> None:
    assert name_key("ＡＬＩＣＥ") == name_key("Alice") == "alice"
    assert name_key("Straße") == "strasse"


# ------------------------------------------------------------------ in the store
async def test_names_are_stored_in_nfkc(store: Store) -> None:
    user = await store.accounts.register("ａｌｉｃｅ", "password1")
    assert user.name == "alice"
    assert (await store.accounts.login("ALICE", "password1")).user.id == user.id
    assert (await store.accounts.login("ａｌｉｃｅ", "password1")).user.id == user.id


@pytest.mark.parametrize("other", ["ALICE", "ａｌｉｃｅ", "Alice"])
async def test_the_same_name_in_another_case_or_width_is_taken(store: Store, other: str) -> None:
    await store.accounts.register("alice", "password1")
    with pytest.raises(NameTakenError, match="is taken") as refused:
        await store.accounts.register(other, "password2")
    assert refused.value.code == "name-taken"


@pytest.mark.parametrize(
    "other", [f"{CYRILLIC_A}lice", "a1ice", f"{CYRILLIC_A}LICE", f"{CYRILLIC_A}1ice"]
)
async def test_a_look_alike_of_a_taken_name_is_refused(store: Store, other: str) -> None:
    await store.accounts.register("alice", "password1")
    with pytest.raises(NameTakenError, match="looks like the existing name 'alice'") as refused:
        await store.accounts.register(other, "password2")
    assert (refused.value.code, refused.value.existing) == ("name-confusable", "alice")


async def test_a_bad_name_is_an_account_error(store: Store) -> None:
    with pytest.raises(AccountError, match="bad name"):
        await store.accounts.register("al ice", "password1")


async def test_a_login_with_a_key_too_long_for_the_column_is_an_account_error(
    store: Store,
) -> None:
    with pytest.raises(AccountError, match="normalised form has 360 characters"):
        await store.accounts.login("ﷺ" * 20, "password1")


async def test_two_look_alikes_registered_at_once_give_one_account(database_url: str) -> None:
    """Two servers on one database; the unique skeleton decides, not the check before it."""
    stores = await asyncio.gather(
        *(Store.open(database_url, passwords=Passwords.fast()) for _ in range(2))
    )
    try:
        names = ["alice", f"{CYRILLIC_A}lice", "ALICE", f"{CYRILLIC_A}LICE"] * 2
        outcomes = await asyncio.gather(
            *(stores[i % 2].accounts.register(n, "password1") for i, n in enumerate(names)),
            return_exceptions=True,
        )
        made = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(made) == 1
        assert all(isinstance(o, NameTakenError) for o in refused), refused
        assert len(refused) == len(names) - 1
        audit = await stores[0].ledger.audit()
        assert audit.users_total == 10_000  # the losers' welcome grants were rolled back
    finally:
        for s in stores:
            await s.close()


def _sync_url(database_url: str) -> str:
    return database_url.replace("postgresql://", "postgresql+psycopg://", 1)


async def test_names_from_before_the_rules_keep_working(database_url: str) -> None:
    """A database at revision 0002 with a 20-character name and two look-alikes: after the
    migration all three log in, the older look-alike keeps the look, and new look-alikes of
    both are refused."""
    engine = sa.create_engine(_sync_url(database_url))
    try:
        with engine.begin() as conn:
            config = alembic_config()
            config.attributes["connection"] = conn
            command.upgrade(config, "0002")
        hashed = Passwords.fast().hash("password1")
        old = ["twenty_characters_20", "alice", f"{CYRILLIC_A}lice"]
        with engine.begin() as conn:
            for name in old:
                conn.execute(
                    sa.text(
                        "INSERT INTO users (name, name_key, password_hash, is_guest, created_at)"
                        " VALUES (:n, :k, :h, false, :t)"
                    ),
                    {"n": name, "k": name_key(name), "h": hashed, "t": datetime.now(UTC)},
                )
    finally:
        engine.dispose()
    store = await Store.open(database_url, passwords=Passwords.fast())
    try:
        for name in old:
            assert (await store.accounts.login(name, "password1")).user.name == name
        async with store.database.engine.connect() as conn:
            rows = (await conn.execute(sa.text("SELECT name, name_skeleton FROM users"))).all()
        looks: dict[str, str | None] = {name: look for name, look in rows}
        assert looks["alice"] == skeleton("alice")
        assert looks[f"{CYRILLIC_A}lice"] is None
        assert looks["twenty_characters_20"] == skeleton("twenty_characters_20")
        with pytest.raises(NameTakenError) as refused:
            await store.accounts.register(f"{GREEK_ALPHA}LICE", "password1")
        assert refused.value.existing == "alice"
    finally:
        await store.close()
