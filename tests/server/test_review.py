"""The review of a finished hand over HTTP (``GET /games/{id}/review?seat=N``), on the app in
this process: 大师's ``HandReview`` of that seat and the seat's hindsight, exactly as the library
works them out from the public record (in the same job); kept in the store, so a second
request (or another caller's) does not work them out again (a spy counts the review process's
jobs); the same body for anyone, and for a bean-room game never more than ``GET /games/{id}``
shows that caller; 404 for no game, 409 while it runs, 503 ``busy`` when the review process is
full, 429 past the per-address throttle of new reviews (a kept one is still answered)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from erren.bots import find_bot
from erren.engine import Record, State, find_family
from erren.review import review_hand, reviewer
from erren.review.hindsight import hindsight
from erren.server import work
from erren.server.app import create_app
from erren.server.ratelimit import Throttle
from erren.server.reviewing import desk_for
from erren.server.store import Passwords, Store
from erren.server.work import Limit, Work

pytestmark = pytest.mark.services  # the review process (a forkserver child)


def _record(seed: int) -> Record:
    """A hand of guobiao-2p: 入门 (seat 0) against the efficiency bot, seeded."""
    family = find_family("guobiao-2p", {})
    state = State.new(family, seed=seed)
    bots = [find_bot("novice", seed=seed), find_bot("efficiency", seed=seed)]
    for bot in bots:
        bot.bind(family)
    while not state.is_terminal:
        obs = state.observe(state.actor)
        state.apply(bots[state.actor].choose(obs, obs.legal_actions))
    return state.record()


@asynccontextmanager
async def _app(tmp_path: Path) -> AsyncIterator[tuple[httpx.AsyncClient, Store]]:
    store = await Store.open(f"sqlite:///{tmp_path / 'erren.sqlite3'}", passwords=Passwords.fast())
    app = create_app(store, metrics=False)
    try:
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as http,
        ):
            yield http, store
    finally:
        await store.close()


async def _finished(
    store: Store, record: Record, *, room: str | None = None, names: list[str] | None = None
) -> tuple[int, tuple[int | None, int | None]]:
    seats: tuple[int | None, int | None] = (None, None)
    if names:
        users = [await store.accounts.register(n, "password-123") for n in names]
        seats = (users[0].id, users[1].id)
    game = await store.games.create(record.ruleset, record.options, seats, 1, "00" * 16, room)
    data = record.to_dict()
    data["game"] = game
    if names:
        data["seats"] = names
        data["outcome"] = {"kind": "draw", "beans": [120, -120]}
    await store.games.finish(game, data, "a hand")
    return game, seats


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[Work]:
    """The jobs given to the server's pools (the review process's among them)."""
    jobs: list[Work] = []
    real = work.run

    async def counting(kind: Work, fn: Callable[..., Any], *args: Any) -> Any:
        jobs.append(kind)
        return await real(kind, fn, *args)

    monkeypatch.setattr(work, "run", counting)
    return jobs


def _run(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(main())
    work.close()


def test_the_review_is_the_librarys_and_is_worked_out_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Slow (3–14 s by the load): the review process starts, 大师 reviews both seats of a hand
    and their hindsight is searched, here and there (the library's computed in the test to
    compare)."""
    jobs = _spy(monkeypatch)
    record = _record(3)

    async def main() -> None:
        async with _app(tmp_path) as (http, store):
            game, _ = await _finished(store, record)
            first = await http.get(f"/games/{game}/review", params={"seat": 0})
            assert first.status_code == 200, first.text
            expected = review_hand(record, 0, reviewer()).to_dict()
            known = hindsight(record, 0).to_dict()
            assert first.json() == {
                "type": "review",
                "game": game,
                "seat": 0,
                "review": expected,
                "hindsight": known,
            }
            assert jobs == [Work.REVIEW]  # the review and the hindsight: one job
            # kept: asked again, by anyone, nothing is worked out
            again = await http.get(f"/games/{game}/review", params={"seat": 0})
            assert again.json() == first.json() and jobs == [Work.REVIEW]
            # the summary: match rate = matches / decisions, counted here from the decisions
            body = again.json()["review"]
            decisions = body["decisions"]
            matches = sum(d["player"]["text"] == d["bot"]["text"] for d in decisions)
            assert body["summary"]["decisions"] == len(decisions) > 0
            assert body["summary"]["matches"] == matches
            assert body["summary"]["match_rate"] == matches / len(decisions)
            assert body["summary"]["bad"] == sum(d["loss"] > body["threshold"] for d in decisions)
            kept = await store.reviews.get(game, 0)
            assert kept is not None and kept.review == {**expected, "hindsight": known}
            assert (kept.decisions, kept.matches) == (len(decisions), matches)
            # the other seat is its own review and its own hindsight
            other = (await http.get(f"/games/{game}/review", params={"seat": 1})).json()
            assert other["review"] == review_hand(record, 1, reviewer()).to_dict()
            assert other["hindsight"] == hindsight(record, 1).to_dict()
            assert jobs == [Work.REVIEW, Work.REVIEW]

    _run(main)


def test_a_bean_room_review_shows_no_more_than_the_record_shown_to_the_caller(
    tmp_path: Path,
) -> None:
    """Slow (about 8 s): the review process starts and 大师 reviews the hand here and there."""
    record = _record(5)

    async def main() -> None:
        async with _app(tmp_path) as (http, store):
            names = ["rvalice", "rvbob"]
            game, _ = await _finished(store, record, room="guobiao-2p/novice", names=names)
            stranger = await http.get(f"/games/{game}/review", params={"seat": 0})
            assert stranger.status_code == 200, stranger.text
            shown = (await http.get(f"/games/{game}")).json()["record"]
            assert shown["seats"] == [None, None] and "beans" not in shown["outcome"]
            text = json.dumps(stranger.json(), ensure_ascii=False)
            assert not any(name in text for name in names) and "beans" not in text
            # every move it names is the record's, as the stranger gets it
            expected = review_hand(Record.from_dict(shown), 0, reviewer()).to_dict()
            assert stranger.json()["review"] == expected
            # the hindsight's line is the public record's up to where it departs
            known = stranger.json()["hindsight"]
            assert known == hindsight(Record.from_dict(shown), 0).to_dict()
            same = known["departs_action"]
            if same is None:
                assert known["actions"] == shown["actions"]
            else:
                assert known["actions"][:same] == shown["actions"][:same]
            for d in expected["decisions"]:
                assert shown["actions"][d["step"]] == f"0:{d['player']['text']}"
            # a player of the game gets the same body
            login = await http.post(
                "/auth/login", json={"name": names[0], "password": "password-123"}
            )
            auth = {"Authorization": f"Bearer {login.json()['token']}"}
            mine = await http.get(f"/games/{game}/review", params={"seat": 0}, headers=auth)
            assert mine.json() == stranger.json()

    _run(main)


def test_no_game_a_running_game_a_bad_seat_and_a_full_review_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = _record(7)

    async def main() -> None:
        async with _app(tmp_path) as (http, store):
            missing = await http.get("/games/999/review")
            assert (missing.status_code, missing.json()["code"]) == (404, "no-game")
            running = await store.games.create("guobiao-2p", {}, (None, None), 1, "00" * 16)
            busy_game, _ = await _finished(store, record)
            reply = await http.get(f"/games/{running}/review")
            assert (reply.status_code, reply.json()["code"]) == (409, "game-running")
            assert (await http.get(f"/games/{busy_game}/review?seat=2")).status_code == 422
            # a review process that takes no more jobs: 503 busy, nothing kept
            monkeypatch.setitem(work.LIMITS, Work.REVIEW, Limit(1, 0, processes=True, nice=10))
            full = await http.get(f"/games/{busy_game}/review")
            assert (full.status_code, full.json()["code"]) == (503, "busy")
            assert full.json()["params"] == {"work": "review", "waiting": 0, "retry_after": 1}
            assert await store.reviews.get(busy_game, 0) is None

    _run(main)


def test_new_reviews_are_throttled_per_address_and_kept_ones_are_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Slow (about 8 s): the review process starts and works out two reviews."""
    jobs = _spy(monkeypatch)
    records = [_record(seed) for seed in (11, 12)]

    async def main() -> None:
        async with _app(tmp_path) as (http, store):
            desk_for(store).throttle = Throttle("review", 2, 60)
            games = [(await _finished(store, r))[0] for r in records]
            assert (await http.get(f"/games/{games[0]}/review?seat=0")).status_code == 200
            assert (await http.get(f"/games/{games[0]}/review?seat=1")).status_code == 200
            third = await http.get(f"/games/{games[1]}/review?seat=0")
            assert (third.status_code, third.json()["code"]) == (429, "too-many-reviews")
            assert int(third.headers["Retry-After"]) >= 1
            assert len(jobs) == 2  # the refused one was not worked out
            # a kept review costs nothing: still answered
            kept = await http.get(f"/games/{games[0]}/review?seat=0")
            assert kept.status_code == 200 and len(jobs) == 2

    _run(main)


def test_a_review_kept_without_hindsight_is_answered_with_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review kept before the hindsight was (or whose search refused the record) is read
    back as it is, ``hindsight`` null, and nothing is worked out again."""
    jobs = _spy(monkeypatch)
    record = _record(9)

    async def main() -> None:
        async with _app(tmp_path) as (http, store):
            game, _ = await _finished(store, record)
            body = {
                "hand": 0,
                "ruleset": "guobiao-2p",
                "seat": 0,
                "summary": {"decisions": 0, "matches": 0, "bad": 0, "loss": 0.0},
                "decisions": [],
            }
            await store.reviews.put(game, 0, body, user_id=None, family="guobiao-2p")
            reply = await http.get(f"/games/{game}/review", params={"seat": 0})
            assert reply.json() == {
                "type": "review",
                "game": game,
                "seat": 0,
                "review": body,
                "hindsight": None,
            }
            assert jobs == []

    _run(main)
