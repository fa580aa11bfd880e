"""Accounts over HTTP, against a real ``erren serve`` of this module's own (the production limits;
SQLite: the store's tests check the names on PostgreSQL too): name rules and look-alikes (409),
login throttling (429 + Retry-After, the right password refused too, then let through once the
window has passed), the registration limit per address, guests kept to practice tables, and
the password hashes (argon2id's recommended parameters unless ``--fast-passwords``).

Client addresses: uvicorn trusts ``X-Forwarded-For`` from 127.0.0.1 (its default
``--forwarded-allow-ips``), so each test plays from an address of its own (TEST-NET ranges)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from argon2 import PasswordHasher

from ._support.harness import Server, serving

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """This module's server: the production limits (30 new accounts an hour per address, 10
    wrong passwords per name and 30 per address a minute), passwords hashed fast (registrations
    throttled, as the other test servers' are not)."""
    tmp = tmp_path_factory.mktemp("accounts")
    with serving("sqlite", tmp, throttle_registrations=True) as srv:
        yield srv


CYRILLIC_A = "\u0430"
PASSWORD = "password-123"


def _name(prefix: str = "u") -> str:
    return prefix + uuid.uuid4().hex[:10]


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def _register(http: httpx.Client, name: str, address: str = "192.0.2.1") -> httpx.Response:
    return http.post(
        "/auth/register", json={"name": name, "password": PASSWORD}, headers=_from(address)
    )


def _login(http: httpx.Client, name: str, password: str, address: str) -> httpx.Response:
    return http.post(
        "/auth/login", json={"name": name, "password": password}, headers=_from(address)
    )


# ------------------------------------------------------------------ names
def test_a_name_is_kept_in_its_nfkc_form(server: Server) -> None:
    base = _name("w")
    wide = "".join(chr(ord(c) + 0xFEE0) for c in base)  # ｗ... full width
    with httpx.Client(base_url=server.url) as http:
        made = _register(http, wide)
        assert made.status_code == 201, made.text
        assert made.json()["user"]["name"] == base
        assert _login(http, base.upper(), PASSWORD, "192.0.2.2").status_code == 200


def test_look_alikes_and_case_variants_are_refused_with_409(server: Server) -> None:
    base = "a" + _name("l")  # starts with "al", so a Cyrillic а fits in front
    with httpx.Client(base_url=server.url) as http:
        assert _register(http, base).status_code == 201
        same = _register(http, base.upper())
        assert same.status_code == 409
        assert same.json() == {
            "detail": f"the name {base.upper()!r} is taken",
            "code": "name-taken",
            "params": {"existing": base},
        }
        homoglyph = CYRILLIC_A + base[1:]
        like = _register(http, homoglyph)
        assert like.status_code == 409
        assert like.json() == {
            "detail": f"the name {homoglyph!r} looks like the existing name {base!r} "
            "(letters of other scripts, case or width); choose another",
            "code": "name-confusable",
            "params": {"existing": base},
        }
        digit = base.replace("l", "1", 1)
        assert _register(http, digit).json()["code"] == "name-confusable"


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("a", "a name has 2–16 characters, this one has 1"),
        ("abcdefghijklmnopq", "a name has 2–16 characters, this one has 17"),
        ("ab\u200bcd", "U+200B ZERO WIDTH SPACE"),
        ("ab\u202ecd", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("ab cd", "U+0020 SPACE"),
        ("ab<b>", "'<' (U+003C LESS-THAN SIGN) is not allowed"),
        ("guest-1234", "names starting with 'guest-' are for guests"),
    ],
)
def test_a_bad_name_is_422_with_the_rule(server: Server, name: str, says: str) -> None:
    with httpx.Client(base_url=server.url) as http:
        reply = _register(http, name)
    assert reply.status_code == 422
    assert reply.json()["code"] == "bad-account"
    assert says in reply.json()["detail"]


def test_two_characters_are_enough(server: Server) -> None:
    two = chr(0x4E00 + uuid.uuid4().int % 20000) + chr(0x4E00 + uuid.uuid4().int % 20000)
    with httpx.Client(base_url=server.url) as http:
        reply = _register(http, two)
    assert reply.status_code == 201, reply.text
    assert reply.json()["user"]["name"] == two


# ------------------------------------------------------------------ login throttling
def test_ten_wrong_passwords_lock_the_account_for_a_minute(server: Server) -> None:
    name = _name()
    with httpx.Client(base_url=server.url) as http:
        assert _register(http, name).status_code == 201
        for i in range(10):  # ten from ten addresses: the account's count, not an address's
            wrong = _login(http, name, "wrong-password", f"198.51.100.{i + 1}")
            assert wrong.status_code == 401, (i, wrong.text)
        for password in ("wrong-password", PASSWORD):  # the right password is refused too
            refused = _login(http, name, password, "198.51.100.99")
            assert refused.status_code == 429, refused.text
            wait = int(refused.headers["Retry-After"])
            assert 1 <= wait <= 60
            assert refused.json() == {
                "detail": f"too many wrong passwords for this name; try again in {wait} s",
                "code": "throttled",
                "params": {"retry_after": wait},
            }
        other = _name()  # another account is not affected
        assert _register(http, other).status_code == 201
        assert _login(http, other, PASSWORD, "198.51.100.99").status_code == 200


def test_thirty_wrong_passwords_from_one_address_lock_the_address(server: Server) -> None:
    address = "203.0.113.30"
    with httpx.Client(base_url=server.url) as http:
        name = _name()
        assert _register(http, name).status_code == 201
        for i in range(30):  # thirty names, three wrong each at most: no account count is hit
            assert _login(http, f"nobody{i % 10}{name}", "wrong-pass", address).status_code == 401
        refused = _login(http, name, PASSWORD, address)
        assert refused.status_code == 429
        assert refused.json()["detail"].startswith("too many wrong passwords from your address")
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert _login(http, name, PASSWORD, "203.0.113.31").status_code == 200


LOGIN_WINDOW_S = 4


@pytest.fixture(scope="module")
def quick_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose login window is 4 s (3 wrong passwords) and registration limit 3 an
    hour: the login window can be seen to pass, at real speed (the limits library reads the
    wall clock; 4 s leave the three wrong passwords and the refused right one three seconds
    and more on a loaded machine)."""
    tmp: Path = tmp_path_factory.mktemp("quick-window")
    options = ("--login-window", str(LOGIN_WINDOW_S), "--login-limit", "3", "--register-limit", "3")
    with serving("sqlite", tmp, *options) as srv:
        yield srv


def test_the_right_password_gets_through_once_the_window_has_passed(
    quick_window: Server,
) -> None:
    name = _name()
    with httpx.Client(base_url=quick_window.url) as http:
        assert _register(http, name, "192.0.2.50").status_code == 201
        for _ in range(3):
            assert _login(http, name, "wrong-password", "192.0.2.50").status_code == 401
        refused = _login(http, name, PASSWORD, "192.0.2.50")
        assert refused.status_code == 429
        wait = int(refused.headers["Retry-After"])
        assert 1 <= wait <= LOGIN_WINDOW_S
        time.sleep(wait + 0.2)
        assert _login(http, name, PASSWORD, "192.0.2.50").status_code == 200


def test_the_registration_limit_is_an_option(quick_window: Server) -> None:
    with httpx.Client(base_url=quick_window.url) as http:
        for _ in range(3):
            assert _register(http, _name(), "192.0.2.60").status_code == 201
        refused = _register(http, _name(), "192.0.2.60")
        assert refused.status_code == 429
        wait = int(refused.headers["Retry-After"])
        assert 3500 < wait <= 3600
        assert refused.json() == {
            "detail": f"at most 3 new accounts per address; try again in {wait} s",
            "code": "register-limit",
            "params": {"retry_after": wait},
        }
        assert _register(http, _name(), "192.0.2.61").status_code == 201  # another address


# ------------------------------------------------------------------ registration limit
def test_thirty_accounts_per_address_then_429(server: Server) -> None:
    address = "198.51.100.200"
    with httpx.Client(base_url=server.url, timeout=30) as http:
        taken = _register(http, "guest-no", address)  # refused registrations do not count
        assert taken.status_code == 422
        for i in range(30):  # a household, or a test on loopback, registers a dozen and more
            made = _register(http, _name(), address)
            assert made.status_code == 201, (i, made.text)
        refused = _register(http, _name(), address)
        assert refused.status_code == 429
        wait = int(refused.headers["Retry-After"])
        assert 3500 < wait <= 3600
        assert refused.json()["detail"] == (
            f"at most 30 new accounts per address; try again in {wait} s"
        )


# ------------------------------------------------------------------ guests and beans
def test_a_guest_gets_practice_tables_only(server: Server) -> None:
    with httpx.Client(base_url=server.url) as http:
        token = http.post("/auth/guest").json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        for room in ("guobiao-2p/novice", "xiamen/normal", "arcade/novice"):
            reply = http.post("/match/quick", json={"room": room, "wait_s": 0}, headers=auth)
            assert reply.status_code == 403
            assert reply.json() == {
                "detail": "bean rooms need a registered account; guests play practice tables",
                "code": "account-needed",
                "params": {},
            }
        practice = http.post(
            "/tables/vs-computer", json={"family": "guobiao-2p", "bot": "random"}, headers=auth
        )
        assert practice.status_code == 201, practice.text


def test_the_relief_route_needs_a_login(server: Server) -> None:
    with httpx.Client(base_url=server.url) as http:
        assert "/me/relief" in http.get("/openapi.json").json()["paths"]
        assert http.post("/me/relief").status_code == 401


def test_wrong_passwords_sent_at_once_get_no_more_than_ten_tries(server: Server) -> None:
    """Twenty wrong passwords in parallel: the attempts in flight count, so no more than ten
    are tried however they interleave."""
    name = _name()
    with httpx.Client(base_url=server.url) as http:
        assert _register(http, name).status_code == 201

    async def burst() -> list[int]:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            replies = await asyncio.gather(
                *(
                    http.post(
                        "/auth/login",
                        json={"name": name, "password": "wrong-password"},
                        headers=_from(f"198.18.0.{i + 1}"),
                    )
                    for i in range(20)
                )
            )
        return [r.status_code for r in replies]

    statuses = asyncio.run(burst())
    assert set(statuses) <= {401, 429}
    assert 1 <= statuses.count(401) <= 10
    assert statuses.count(429) >= 10


# ------------------------------------------------------------------ password hashes
ARGON2_PRODUCTION = "$argon2id$v=19$m=65536,t=3,p=1$"
"""RFC 9106's low-memory passes and memory (64 MiB, 3 passes) in one lane: one thread."""
ARGON2_FOUR_LANES = "$argon2id$v=19$m=65536,t=3,p=4$"
"""argon2-cffi's default, which erren used before: four threads a hash."""
ARGON2_FAST = "$argon2id$v=19$m=8,t=1,p=1$"
"""``erren serve --fast-passwords`` (``Passwords.fast``): for test servers only."""


def _stored_hash(database: str, name: str) -> str:
    with sqlite3.connect(database.removeprefix("sqlite:///")) as db:
        row = db.execute("SELECT password_hash FROM users WHERE name = ?", (name,)).fetchone()
    assert row is not None
    return str(row[0])


@pytest.mark.parametrize(("fast", "prefix"), [(False, ARGON2_PRODUCTION), (True, ARGON2_FAST)])
def test_passwords_are_hashed_with_the_production_profile_unless_fast(
    tmp_path: Path, fast: bool, prefix: str
) -> None:
    """The production hash (one of two servers here without ``--fast-passwords``): an
    account's stored hash names argon2id, 64 MiB, 3 passes, one lane, and login checks it."""
    name = _name()
    with (
        serving("sqlite", tmp_path, fast_passwords=fast) as srv,
        httpx.Client(base_url=srv.url, timeout=30) as http,
    ):
        assert _register(http, name).status_code == 201
        assert _login(http, name, PASSWORD, "192.0.2.70").status_code == 200
        assert _stored_hash(srv.database, name).startswith(prefix)


def test_a_four_lane_hash_still_logs_in_and_is_replaced_by_a_one_lane_hash(
    tmp_path: Path,
) -> None:
    """An account hashed before the one-lane profile (argon2-cffi's default, four lanes) logs
    in with its password, not with another, and its stored hash is then the production one."""
    name = _name()
    with (
        serving("sqlite", tmp_path, fast_passwords=False) as srv,
        httpx.Client(base_url=srv.url, timeout=30) as http,
    ):
        assert _register(http, name).status_code == 201
        old = PasswordHasher().hash(PASSWORD)
        assert old.startswith(ARGON2_FOUR_LANES)
        with sqlite3.connect(srv.database.removeprefix("sqlite:///")) as db:
            db.execute("UPDATE users SET password_hash = ? WHERE name = ?", (old, name))
        assert _login(http, name, PASSWORD + "x", "192.0.2.71").status_code == 401
        assert _stored_hash(srv.database, name) == old
        assert _login(http, name, PASSWORD, "192.0.2.71").status_code == 200
        assert _stored_hash(srv.database, name).startswith(ARGON2_PRODUCTION)
