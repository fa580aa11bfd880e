"""A registered player's settings panel kept with his account over HTTP (``GET`` / ``PUT
/me/settings``, docs/protocol.md), on the run's servers on SQLite and PostgreSQL: the document
kept and replaced whole, every key checked against what the panel offers (422 naming the field,
nothing stored), the body bounded, guests refused, and each account kept apart."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ._support.harness import Server

pytestmark = [pytest.mark.services, pytest.mark.backends("sqlite", "postgresql")]

KEYS = (
    "lang",
    "sound",
    "motion",
    "hints",
    "tiles",
    "contrast",
    "felt",
    "autowin",
    "noclaims",
    "mutechat",
    "watch",
)
"""The panel's controls (web/js/settings.js, ``data-setting``)."""
NONE_KEPT = {"settings": dict.fromkeys(KEYS), "updated_at": None}
EVERY = {
    "lang": "en",
    "sound": False,
    "motion": "reduce",
    "hints": False,
    "tiles": "large",
    "contrast": True,
    "felt": "blue",
    "autowin": True,
    "noclaims": True,
    "mutechat": True,
    "watch": "everyone",
}


@pytest.fixture
def http(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url) as client:
        yield client


def _account(http: httpx.Client) -> dict[str, str]:
    """A new registered account's authorization header."""
    name = "s" + uuid.uuid4().hex[:12]
    made = http.post("/auth/register", json={"name": name, "password": "password-123"})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['token']}"}


def _guest(http: httpx.Client) -> dict[str, str]:
    made = http.post("/auth/guest")
    assert made.status_code == 200, made.text
    assert made.json()["user"]["guest"] is True
    return {"Authorization": f"Bearer {made.json()['token']}"}


def _kept(http: httpx.Client, auth: dict[str, str]) -> dict[str, Any]:
    reply = http.get("/me/settings", headers=auth)
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def _settings(**chosen: object) -> dict[str, object]:
    """Every key, ``null`` but the ``chosen``."""
    return {key: chosen.get(key) for key in KEYS}


def test_an_account_keeps_its_settings_replaced_whole(http: httpx.Client) -> None:
    me = _account(http)
    assert _kept(http, me) == NONE_KEPT
    put = http.put("/me/settings", json=EVERY, headers=me)
    assert put.status_code == 200, put.text
    assert put.json()["settings"] == EVERY
    assert put.json()["updated_at"] is not None
    assert _kept(http, me) == put.json()
    # the next change sends the panel again: what it leaves out (or sends as null) is unchosen
    again = http.put("/me/settings", json={"tiles": "small", "felt": None}, headers=me)
    assert again.status_code == 200, again.text
    assert _kept(http, me)["settings"] == _settings(tiles="small")
    assert _kept(http, me)["updated_at"] >= put.json()["updated_at"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"theme": "dark"}, "theme"),
        ({"lang": "en", "Lang": "zh"}, "Lang"),
        ({"lang": "fr"}, "lang"),
        ({"lang": "EN"}, "lang"),
        ({"tiles": "huge"}, "tiles"),
        ({"felt": "red"}, "felt"),
        ({"motion": "off"}, "motion"),
        ({"motion": True}, "motion"),
        ({"sound": "true"}, "sound"),
        ({"hints": 1}, "hints"),
        ({"contrast": "on"}, "contrast"),
        ({"autowin": 0}, "autowin"),
        ({"noclaims": []}, "noclaims"),
        ({"mutechat": "on"}, "mutechat"),
    ],
)
def test_a_key_or_value_the_panel_has_not_is_refused_by_name(
    http: httpx.Client, body: dict[str, object], field: str
) -> None:
    me = _account(http)
    kept = http.put("/me/settings", json={"lang": "zh", "felt": "brown"}, headers=me).json()
    refused = http.put("/me/settings", json=body, headers=me)
    assert refused.status_code == 422, refused.text
    answer = refused.json()
    assert answer["code"] == "invalid"
    assert answer["params"] == {"field": field, "count": 1}
    assert answer["detail"][0]["loc"] == ["body", field]
    assert _kept(http, me) == kept  # nothing stored


@pytest.mark.parametrize("body", [["en"], "en", None, 7])
def test_a_body_that_is_not_an_object_is_refused(http: httpx.Client, body: object) -> None:
    me = _account(http)
    refused = http.put("/me/settings", json=body, headers=me)
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == "invalid"
    assert _kept(http, me) == NONE_KEPT


def test_a_body_is_at_most_1024_bytes(http: httpx.Client) -> None:
    me = _account(http)
    # {"lang": "en", "x": "aaa…"}: an unknown key, but the size is refused before it is read
    padding = 1024 - len('{"lang": "en", "x": ""}') + 1
    large = '{"lang": "en", "x": "' + "a" * padding + '"}'
    assert len(large) == 1025
    refused = http.put(
        "/me/settings",
        content=large,
        headers={**me, "Content-Type": "application/json"},
    )
    assert refused.status_code == 413, refused.text
    assert refused.json()["code"] == "too-large"
    assert refused.json()["params"] == {"limit": 1024}
    assert _kept(http, me) == NONE_KEPT
    # spaces count too: the whole panel, padded to exactly 1,024 bytes, is taken
    fits = '{"lang": "en"' + " " * (1024 - len('{"lang": "en"}')) + "}"
    assert len(fits) == 1024
    taken = http.put(
        "/me/settings", content=fits, headers={**me, "Content-Type": "application/json"}
    )
    assert taken.status_code == 200, taken.text
    assert _kept(http, me)["settings"] == _settings(lang="en")


def test_a_guest_keeps_his_in_his_browser(http: httpx.Client) -> None:
    guest = _guest(http)
    for reply in (
        http.get("/me/settings", headers=guest),
        http.put("/me/settings", json=EVERY, headers=guest),
        http.put("/me/settings", json={"theme": "dark"}, headers=guest),
    ):
        assert reply.status_code == 403, reply.text
        assert reply.json()["code"] == "account-needed"
        assert "guest" in reply.json()["detail"]
    for reply in (http.get("/me/settings"), http.put("/me/settings", json=EVERY)):
        assert reply.status_code == 401, reply.text
        assert reply.json()["code"] == "auth"


def test_each_account_keeps_its_own(http: httpx.Client) -> None:
    alice, bob, carol = _account(http), _account(http), _account(http)
    hers = {"lang": "en", "tiles": "large", "felt": "blue"}
    his = {"lang": "zh", "tiles": "small", "felt": "brown", "contrast": True}
    assert http.put("/me/settings", json=hers, headers=alice).status_code == 200
    assert http.put("/me/settings", json=his, headers=bob).status_code == 200
    assert _kept(http, alice)["settings"] == _settings(**hers)
    assert _kept(http, bob)["settings"] == _settings(**his)
    assert _kept(http, carol) == NONE_KEPT


def test_both_routes_are_in_the_openapi_description(http: httpx.Client) -> None:
    paths = http.get("/openapi.json").json()["paths"]
    assert set(paths["/me/settings"]) == {"get", "put"}
