"""Tables against the computer at a level, and the expert's advice to a player."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from erren.bots import Bot, EfficiencyBot, Level, NoviceBot, find_bot
from erren.server.table import Seat, make_level_seat, set_level

from ._support.harness import Server, run
from ._support.helpers import player, private_pair, wait_for


@pytest.mark.parametrize(
    ("level", "sent", "bot"),
    [
        ("novice", "novice", "novice"),
        ("normal", None, "efficiency"),  # the default level
        ("strong", "高手", "expert"),  # a level by its Chinese name
        ("master", "Master", "expert"),
    ],
)
def test_the_computer_plays_a_hand_at_each_level(
    server: Server, level: str, sent: str | None, bot: str
) -> None:
    async def main() -> None:
        a = await player(server.url)
        made = await a.vs_computer("guobiao-2p", level=sent)
        seats = made["info"]["seats"]
        assert seats[1]["level"] == level and seats[1]["bot"] == bot
        assert seats[0]["level"] is None
        assert made["info"]["level"] == level
        done = await a.play(made["table"], find_bot("efficiency", seed=1), hands=1, timeout=30)
        assert done == 1
        await a.close()

    run(main())


def test_a_level_and_a_bot_together_or_an_unknown_level_are_refused(server: Server) -> None:
    with httpx.Client(base_url=server.url) as http:
        token = http.post("/auth/guest").json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        both = http.post(
            "/tables/vs-computer", json={"level": "strong", "bot": "random"}, headers=auth
        )
        assert both.status_code == 422 and both.json()["code"] == "level-and-bot"
        bad = http.post("/tables/vs-computer", json={"level": "grandmaster"}, headers=auth)
        assert bad.status_code == 404 and bad.json()["code"] == "no-level"
        assert "'grandmaster'" in bad.json()["detail"] and "高手" in bad.json()["detail"]
        levels = http.get("/families").json()["levels"]
        assert levels == ["novice", "normal", "strong", "master"]
        old = http.post("/tables/vs-computer", json={"bot": "random"}, headers=auth)
        assert old.status_code == 201  # the bot by name still works
        seat = old.json()["info"]["seats"][1]
        assert (seat["bot"], seat["level"]) == ("random", None)


def _advice(message: dict[str, Any]) -> bool:
    return message.get("type") == "advice"


def test_advice_is_a_legal_move_for_the_seat_that_asks_and_for_it_alone(server: Server) -> None:
    async def main() -> None:
        # a long turn timer: the dealer's first decision waits for us
        a, b, table = await private_pair(server.url, keep=True, turn_timeout_s=1000)
        for client in (a, b):
            await client.connect()
            await client.join(table)
        for client in (a, b):
            await wait_for(client, lambda m, c=client: c.state is not None)
        mover, other = (a, b) if a.my_turn() else (b, a)
        assert mover.my_turn() and not other.my_turn()
        assert mover.state is not None
        legal, n = mover.state["legal"], mover.state["last_n"]
        await mover.send({"type": "advice"})
        advice = await wait_for(mover, _advice)
        assert advice["n"] == n and advice["action"] in legal
        await mover.send({"type": "advice"})  # asked again: the same answer
        assert (await wait_for(mover, _advice))["action"] == advice["action"]
        await other.send({"type": "advice"})  # nothing to decide: no move
        assert (await wait_for(other, _advice))["action"] is None
        # the player who did not ask never heard the advice
        await other.send({"type": "ping"})
        await wait_for(other, lambda m: m.get("type") == "pong")
        assert sum(_advice(m) for m in other.messages) == 1
        await a.close()
        await b.close()

    run(main())


def test_a_computer_seat_changes_level_between_stages() -> None:
    seat = make_level_seat(Level.NOVICE, 1)
    assert (seat.name, seat.bot_name, seat.level) == ("Computer (Beginner)", "novice", Level.NOVICE)
    assert type(_bot(seat)) is NoviceBot
    assert not set_level(seat, Level.NOVICE, 2)  # the same level: the same bot plays on
    assert set_level(seat, Level.NORMAL, 2)
    assert (seat.name, seat.bot_name, seat.level) == (
        "Computer (Normal)",
        "efficiency",
        Level.NORMAL,
    )
    assert type(_bot(seat)) is EfficiencyBot


def _bot(seat: Seat) -> Bot | None:
    return seat.bot
