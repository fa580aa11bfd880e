"""A hand steered to its settlement for the browser tests (a drawn hand or a win whose winner
holds every marked kind), two registered players quick-matched in an app of this process, and
Chromium opened at a seat's table with the settlement showing; with the words the page says."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Page

from erren.bots.hints import hand_view
from erren.engine import State
from erren.engine.result import ResultKind
from erren.families.arcade.game.view import ArcadeView
from erren.families.xiamen.game.view import XiamenView
from erren.server.client import PlayerClient
from erren.testing.scripted import (
    Backstage,
    Chooser,
    Line,
    efficiency,
    find_line,
    passive,
    play_scripted,
)
from erren.testing.servers import database
from erren.tiles import Tile

from . import page_errors

__all__ = [
    "Options",
    "Steered",
    "at_table",
    "draw_line",
    "held",
    "marks_of",
    "ready",
    "register",
    "say",
    "steered",
    "win_line",
]


def say(words: tuple[str, str], lang: str) -> str:
    return words[0] if lang == "zh" else words[1]


def held(state: State, seat: int) -> Counter[str]:
    """The tiles ``seat`` holds at the end: concealed, in melds, set aside as flowers."""
    out = Counter(str(t) for t in state.concealed(seat))
    for meld in state.melds[seat]:
        out.update(str(t) for t in meld.tiles)
    out.update(str(Tile(f)) for f in state.flowers[seat])
    return out


def marks_of(state: State) -> dict[str, str]:
    """The kinds marked in the hand: the gold and the White playing as it (xiamen R-1.7, R-1.8),
    or the 财神 (arcade R1.9)."""
    match state.observe(0).view:
        case XiamenView(gold=gold) if gold is not None:
            return {str(gold): "gold"} | ({"5z": "fake"} if str(gold) != "5z" else {})
        case ArcadeView(wild=wild) if wild is not None:
            return {str(wild): "wild"}
    return {}


def ready(state: State, seat: int) -> bool:
    """听 as the hints' analysis counts ``seat``'s hand: some kind completes it (wilds count)."""
    view = hand_view(state.observe(seat))
    return bool(view.waits(view.counts, view.wilds))


Options = tuple[tuple[str, Any], ...]


def draw_line(family: str, options: Options, dealer: int) -> tuple[Line, State]:
    """A drawn hand: seat 0 ready (holding a wild, in a family with wilds), seat 1 not."""

    def accept(state: State) -> bool:
        if state.result is None or state.result.kind is not ResultKind.DRAW:
            return False
        wild = [k for k, m in marks_of(state).items() if m != "fake"]
        holds = not wild or held(state, 0)[wild[0]] > 0
        return holds and ready(state, 0) and not ready(state, 1)

    def choosers(bots: int) -> tuple[Chooser, Chooser]:
        return efficiency(bots, wins=False), passive

    return find_line(family, options, dealer, choosers, accept, key="web-draw")


def win_line(family: str, options: Options, dealer: int) -> tuple[Line, State]:
    """A win whose winner holds every marked kind (a gold and a White, or a 财神)."""

    def accept(state: State) -> bool:
        result = state.result
        if result is None or result.kind is not ResultKind.WIN or result.hand is None:
            return False
        tiles = Counter(str(t) for t in result.hand.concealed)
        return all(tiles[kind] > 0 for kind in marks_of(state))

    def choosers(bots: int) -> tuple[Chooser, Chooser]:
        return efficiency(bots), efficiency(bots + 1)

    return find_line(family, options, dealer, choosers, accept, key="web-win")


@dataclass
class Steered:
    url: str
    table: str
    names: tuple[str, str]
    tokens: tuple[str, str]
    state: State


async def register(url: str, name: str) -> PlayerClient:
    async with httpx.AsyncClient(base_url=url) as http:
        reply = await http.post("/auth/register", json={"name": name, "password": "password-1"})
        assert reply.status_code == 201, reply.text
        return PlayerClient(url, str(reply.json()["token"]))


@contextmanager
def steered(tmp: Path, family: str, tier: str, end: str) -> Iterator[Steered]:
    """Two new players quick-matched in ``family/tier`` of an app of this process play a drawn
    hand (``end`` ``draw``) or a win to its settlement, and stay seated meanwhile."""
    with database("sqlite", tmp) as url, Backstage(url) as stage:
        served = stage.app
        names = [f"{end[:3]}{i}{secrets.token_hex(3)}" for i in (0, 1)]
        clients = [stage.call(register(served.url, name)) for name in names]
        try:

            async def pair() -> list[dict[str, Any]]:
                room = f"{family}/{tier}"
                return list(await asyncio.gather(*(c.quick_match(room, 20) for c in clients)))

            seated = stage.call(pair())
            order = (0, 1) if seated[0]["seat"] == 0 else (1, 0)
            table = served.lobby.tables[seated[0]["table"]]
            options = tuple(sorted(table.ruleset.options_dict().items()))
            line, state = (draw_line if end == "draw" else win_line)(family, options, table.dealer)
            served.rng.seeds.append(line.seed)
            seats = [clients[i] for i in order]

            async def play() -> None:
                tid = str(seated[0]["table"])
                await asyncio.gather(*(play_scripted(c, tid, line.decisions) for c in seats))

            stage.call(play())
            yield Steered(
                served.url,
                str(seated[0]["table"]),
                (names[order[0]], names[order[1]]),
                (seats[0].token, seats[1].token),
                state,
            )
        finally:
            for client in clients:
                stage.call(client.close())


@contextmanager
def at_table(
    browser: Browser, hand: Steered, seat: int, lang: str, size: tuple[int, int]
) -> Iterator[Page]:
    """Chromium at ``size`` in ``lang``, logged in as ``seat``'s player, on the table with the
    settlement showing.  The players are registered: their settings are kept with the account,
    so the account is told the language (a registered player's choice follows him)."""
    token = hand.tokens[seat]
    chosen = httpx.put(
        f"{hand.url}/me/settings",
        json={"lang": lang},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert chosen.status_code == 200, chosen.text
    ctx: BrowserContext = browser.new_context(viewport={"width": size[0], "height": size[1]})
    ctx.add_init_script(
        f"localStorage.setItem('erren.token', {json.dumps(hand.tokens[seat])});"
        f"localStorage.setItem('erren.lang', {json.dumps(lang)});"
    )
    try:
        page = ctx.new_page()
        errors = page_errors(page)
        page.goto(f"{hand.url}/#/table/{hand.table}")
        page.wait_for_selector(".settle .settle-seat", timeout=15000)
        yield page
        assert errors == []
    finally:
        ctx.close()
