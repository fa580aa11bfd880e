"""A registered player's own 何切る puzzles (:mod:`erren.server.owndrills`, the drills routes'
``mine=1``): once his hand's review is kept, the puzzles of his costly discards are made in a
job of their own and kept for him — never for a guest or the computer's seat, dropped when the
review process is busy; ``GET /drills/next?mine=1`` serves them (newest unanswered first), his
answer's losses are the puzzle data's, anyone else's answer to his id is 404.

The hand: 入门 (seat 0, seed 1) against 普通, guobiao-2p, ``State.new(seed=1, dealer=0)``. A spy
stands in for the review process (each job run in a thread, counted)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from erren.bots.base import play_hand
from erren.bots.levels import Level, level_bot
from erren.engine import Record, State, find_family
from erren.review import review_hand, reviewer
from erren.review.drills import make_puzzle, record_sources
from erren.server import owndrills, work
from erren.server.app import create_app
from erren.server.owndrills import drills_for
from erren.server.reviewing import desk_for
from erren.server.routes import drills
from erren.server.store import Passwords, Store
from erren.server.work import Work

RULES = "guobiao-2p"


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the review process's jobs (each run in a thread here; the other pools'
    jobs run as they would, uncounted)."""
    jobs: list[str] = []
    real = work.run

    async def counting(kind: Work, fn: Callable[..., Any], *args: Any) -> Any:
        if kind is not Work.REVIEW:
            return await real(kind, fn, *args)
        jobs.append(fn.__name__)
        return await asyncio.to_thread(fn, *args)

    monkeypatch.setattr(work, "run", counting)
    return jobs


def _hand() -> Record:
    rules = find_family(RULES)
    state = State.new(rules, seed=1, dealer=0)
    bots = [level_bot(Level.NOVICE, seed=1, ruleset=rules), level_bot(Level.NORMAL, ruleset=rules)]
    play_hand(state, bots)
    return Record.of(state)


def _expected(record: Record) -> list[tuple[int, dict[str, Any]]]:
    """``(step, puzzle dict)`` of the seat's costly discards, as the rule says: of his three
    costliest decisions, the discards (both his and 大师's) losing at least half the family's
    bad-move threshold, made puzzles, kept when the foil loses more than that half against
    大师's tile and no tile is valued above 大师's by more than it."""
    review = review_hand(record, 0, reviewer())
    half = find_family(RULES).review_bad_loss / 2
    costliest = sorted(review.decisions, key=lambda d: -d.loss)[:3]
    wanted = {
        d.step
        for d in costliest
        if d.loss >= half
        and d.player.text.startswith("discard:")
        and d.bot.text.startswith("discard:")
    }
    out = []
    for source in record_sources(record, review):
        if source.seed not in wanted:  # hand 0: a source's seed is its step
            continue
        puzzle = make_puzzle(source, None, ident="").to_dict()
        ev = {c[0]: c[1] for c in puzzle["choices"]}
        best = max(ev.values())
        if (
            best - ev[puzzle["answer"]] <= half + 0.005
            and ev[puzzle["answer"]] - ev[puzzle["foil"]] > half - 0.005
        ):
            out.append((source.seed, puzzle))
    return out


@asynccontextmanager
async def _opened(tmp_path: Path) -> AsyncIterator[tuple[Store, httpx.AsyncClient]]:
    store = await Store.open(f"sqlite:///{tmp_path / 'e.sqlite3'}", passwords=Passwords.fast())
    app = create_app(store, metrics=False)
    try:
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as http,
        ):
            yield store, http
    finally:
        await store.close()


@pytest.fixture(autouse=True)
def fresh_desk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test its own throttle (the app's drills desk is module-wide)."""
    monkeypatch.setattr(drills, "desk", drills.DrillDesk())


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _his_puzzles_are_kept_and_served(tmp_path: Path, jobs: list[str]) -> None:
    record = _hand()
    expected = _expected(record)
    assert len(expected) == 2  # this hand has two
    async with _opened(tmp_path) as (store, http):
        await store.accounts.register("alice", "password-123")
        alice = await store.accounts.login("alice", "password-123")
        bob = await store.accounts.register("bob", "password-123")
        bob_login = await store.accounts.login("bob", "password-123")
        game = await store.games.create(RULES, {}, (alice.user.id, None), 1, "00" * 16)
        desk = desk_for(store)
        await desk.review(game, 0, record.to_dict(), user_id=alice.user.id)
        await desk.review(game, 1, record.to_dict(), user_id=None)  # the computer's seat
        await drills_for(store).settled()
        assert sorted(jobs) == ["own_puzzles", "reviewed", "reviewed"]  # none for seat 1
        kept = await store.drills.recent(alice.user.id, RULES)
        assert [(d.step, d.puzzle) for d in reversed(kept)] == expected
        assert {(d.game_id, d.seat) for d in kept} == {(game, 0)}
        assert drills_for(store).made == 2 and drills_for(store).dropped == 0
        assert await store.drills.recent(bob.id, RULES) == []
        await _served(store, http, game, alice.token, bob_login.token)


async def _served(store: Store, http: httpx.AsyncClient, game: int, token: str, other: str) -> None:
    """His puzzles through HTTP (``token`` his login, ``other`` another player's)."""
    me = _auth(token)
    alice = await store.accounts.user_for_token(token)
    assert alice is not None
    kept = await store.drills.recent(alice.id, RULES)
    # his newest unanswered first, with the hand it came from
    reply = await http.get("/drills/next", params={"family": RULES, "mine": 1}, headers=me)
    assert reply.status_code == 200, reply.text
    shown = reply.json()
    newest = kept[0]
    assert shown["id"] == f"my.{newest.id}"
    assert shown["source"] == {"game": game, "seat": 0, "step": newest.step}
    assert shown["observation"] == newest.puzzle["observation"]
    assert "answer" not in reply.text and "choices" not in reply.text
    counts = (await http.get("/me/drills", headers=me)).json()
    assert counts == {"keep": 200, "families": [{"family": RULES, "kept": 2, "unanswered": 2}]}

    # his answer: the losses are the puzzle data's
    ev = {c[0]: c[1] for c in newest.puzzle["choices"]}
    best, foil = newest.puzzle["answer"], newest.puzzle["foil"]
    path = f"/drills/{shown['id']}/answer"
    # anyone else's answer to his id is 404, as a made-up one
    for headers in (_auth(other), {}):
        reply = await http.post(path, json={"tile": foil}, headers=headers)
        assert (reply.status_code, reply.json()["code"]) == (404, "no-drill")
    reply = await http.post("/drills/my.999999/answer", json={"tile": foil}, headers=me)
    assert reply.status_code == 404
    reply = await http.post(path, json={"tile": foil}, headers=me)
    assert reply.status_code == 200, reply.text
    got = reply.json()
    assert got["correct"] is False and got["answer"] == best
    assert got["loss"] == ev[best] - ev[foil] > find_family(RULES).review_bad_loss / 2
    assert got["choices"] == [
        {"tile": t, "ev": v, "loss": max(0.0, ev[best] - v)} for t, v in ev.items()
    ]
    assert got["foil"] == {"tile": foil, "by": "player"}
    assert got["source"] == {"game": game, "seat": 0, "step": newest.step}

    # answered: the other one comes next; then, all answered, one of his at random
    reply = await http.get("/drills/next", params={"family": RULES, "mine": 1}, headers=me)
    assert reply.json()["id"] == f"my.{kept[1].id}"
    tile = kept[1].puzzle["answer"]
    reply = await http.post(f"/drills/my.{kept[1].id}/answer", json={"tile": tile}, headers=me)
    assert reply.json()["correct"] is True and reply.json()["loss"] == 0.0
    counts = (await http.get("/me/drills", headers=me)).json()
    assert counts["families"] == [{"family": RULES, "kept": 2, "unanswered": 0}]
    params: dict[str, str | int] = {"family": RULES, "mine": 1, "after": f"my.{kept[1].id}"}
    reply = await http.get("/drills/next", params=params, headers=me)
    assert reply.json()["id"] == f"my.{kept[0].id}"  # another than the one just done

    # nobody else gets his: bob has none, a guest must register, no login is 401
    reply = await http.get(
        "/drills/next", params={"family": RULES, "mine": 1}, headers=_auth(other)
    )
    assert (reply.status_code, reply.json()["code"]) == (404, "no-drills")
    guest = await store.accounts.guest()
    for url in ("/drills/next?family=guobiao-2p&mine=1", "/me/drills"):
        reply = await http.get(url, headers=_auth(guest.token))
        assert (reply.status_code, reply.json()["code"]) == (403, "account-needed")
        assert (await http.get(url)).status_code == 401


def test_his_costly_discards_are_kept_and_served_to_him_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jobs = _spy(monkeypatch)
    asyncio.run(_his_puzzles_are_kept_and_served(tmp_path, jobs))


def test_a_guests_hand_yields_no_puzzles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = _spy(monkeypatch)

    async def main() -> None:
        async with _opened(tmp_path) as (store, _):
            guest = (await store.accounts.guest()).user
            game = await store.games.create(RULES, {}, (guest.id, None), 1, "00" * 16)
            await desk_for(store).review(game, 0, _hand().to_dict(), user_id=guest.id)
            await drills_for(store).settled()
            assert jobs == ["reviewed"]
            assert await store.drills.counts(guest.id) == {}

    asyncio.run(main())


def test_with_the_review_process_busy_no_puzzles_are_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jobs = _spy(monkeypatch)
    monkeypatch.setattr(work, "in_flight", lambda kind: owndrills.ROOM)

    async def main() -> None:
        async with _opened(tmp_path) as (store, _):
            alice = await store.accounts.register("alice", "password-123")
            game = await store.games.create(RULES, {}, (alice.id, None), 1, "00" * 16)
            await desk_for(store).review(game, 0, _hand().to_dict(), user_id=alice.id)
            assert not drills_for(store).pending  # dropped, not queued
            assert jobs == ["reviewed"]
            assert (drills_for(store).made, drills_for(store).dropped) == (0, 1)
            assert await store.drills.counts(alice.id) == {}

    asyncio.run(main())
