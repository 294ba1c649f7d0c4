"""A player whose connection drops mid-game takes its seat back with the seat secret from
``started`` (a **[Herna extension]**, so a browser reload does not cost a person the game),
over real TCP sockets on 127.0.0.1."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from herna.clients.tiles import TilesClient
from tests.tiles.helpers import race
from tests.tiles.test_server import running


async def sit_down(port: int, name: str = "ann") -> tuple[TilesClient, dict[str, Any]]:
    client = await TilesClient.connect("127.0.0.1", port)
    await client.join(name, race())
    await client.start()
    started = await client.expect("started")
    started["first_turn"] = await client.expect("your_turn")
    return client, started


async def test_a_dropped_player_takes_its_seat_back_with_the_secret(tmp_path: Path) -> None:
    async with running(tmp_path, reconnect_window=30) as server:
        first, started = await sit_down(server.port)
        secret = started["secret"]
        assert isinstance(secret, str) and len(secret) == 32
        await first.close()
        table = server.hub.tables[started["table"]]
        for _ in range(100):
            if table.seats[0] is not None and table.seats[0].is_away:
                break
            await asyncio.sleep(0.02)
        assert table.seats_json()[0] == {"name": "ann", "kind": "human", "away": True}
        await asyncio.sleep(0.2)  # nobody plays the waiting seat's turn meanwhile
        assert table.state.current_player() == 0 and table.match is not None
        assert not [k for k, _ in table.match.log if k == "action"]

        back = await TilesClient.connect("127.0.0.1", server.port)
        # wrong secret, or someone else's name with the right one: refused, nothing changes
        for name, proof in (("ann", "x" * 32), ("bob", secret)):
            await back.send({"type": "join", "name": name, "table": table.id, "secret": proof})
            error = await back.expect("error")
            assert error["code"] == "BAD_SECRET", error
        await back.send({"type": "join", "name": "ann", "table": table.id, "secret": secret})
        joined = await back.expect("joined")
        assert joined["resumed"] is True and joined["seat"] == 0
        again = await back.expect("started")
        assert again["secret"] == secret and again["view"]["you"] == 0
        turn = await back.expect("your_turn")
        await back.act(max(turn["actions"], key=lambda a: a["x"]))
        state = await back.expect("state")
        assert state["last"]["name"] == "ann"
        assert state["said"] == "ann moved 1 tile right"  # narrate.py's words, as ann saw it
        assert server.hub.stats.reconnects == 1
        assert table.match is not None
        kinds = [kind for kind, _ in table.match.log if isinstance(kind, str)]
        assert "away" in kinds and "returned" in kinds
        await back.close()


async def test_after_the_window_a_house_bot_plays_and_the_secret_still_returns(
    tmp_path: Path,
) -> None:
    async with running(tmp_path, reconnect_window=0.2, bot_delay=0.3) as server:
        first, started = await sit_down(server.port)
        await first.close()
        table = server.hub.tables[started["table"]]
        for _ in range(100):
            slot = table.seats[0]
            if slot is not None and slot.bot is not None:
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("no house bot took the seat")
        back = await TilesClient.connect("127.0.0.1", server.port)
        await back.send(
            {"type": "join", "name": "ann", "table": table.id, "secret": started["secret"]}
        )
        assert (await back.expect("joined"))["resumed"] is True
        await back.expect("started")
        slot = table.seats[0]
        assert slot is not None and slot.client is not None and slot.bot is None
        await back.close()


async def test_a_secret_is_refused_where_no_game_is_in_progress(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        client = await TilesClient.connect("127.0.0.1", server.port)
        await client.send({"type": "join", "name": "ann", "table": "t99", "secret": "s" * 32})
        error = await client.expect("error")
        assert error["code"] == "NO_SUCH_TABLE"
        await client.send({"type": "join", "name": "ann", "secret": "s" * 32, "rules": "tsuro"})
        error = await client.expect("error")
        assert error["code"] == "BAD_MESSAGE" and "table" in error["reason"]
        await client.close()


async def test_a_waiting_seat_never_holds_the_game_up_past_the_turn_timeout(
    tmp_path: Path,
) -> None:
    async with running(tmp_path, reconnect_window=30, turn_timeout=0.3) as server:
        first, started = await sit_down(server.port)
        await first.close()  # on its own turn
        table = server.hub.tables[started["table"]]
        assert table.match is not None
        for _ in range(200):
            if any(kind == "timeout" for kind, _ in table.match.log):
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError(f"the waiting seat held the game up: {table.match.log}")
        # a random action was played for it on its turn; the seat still waits for its player
        slot = table.seats[0]
        assert slot is not None and slot.is_away and slot.bot is None


async def test_a_seat_left_while_a_house_bot_is_to_play_does_not_stall_the_game(
    tmp_path: Path,
) -> None:
    # The note in the match log ("away") used to void the house bot's pending turn.
    async with running(tmp_path, reconnect_window=30, turn_timeout=0.3, bot_delay=0.3) as server:
        first, started = await sit_down(server.port)
        turn = started["first_turn"]
        await first.act(max(turn["actions"], key=lambda a: a["x"]))
        await first.expect("state")  # ann moved; house-2 thinks for 0.3 s
        await first.close()
        table = server.hub.tables[started["table"]]
        assert table.match is not None
        for _ in range(200):
            moves = [d for kind, d in table.match.log if kind == "action" and d["player"] == 1]
            if moves:
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError(f"house-2 never played: {table.match.log}")


async def test_back_at_the_seat_the_player_gets_the_story_it_missed(tmp_path: Path) -> None:
    async with running(tmp_path, reconnect_window=30, turn_timeout=0.2) as server:
        first = await TilesClient.connect("127.0.0.1", server.port)
        await first.join("ann", "labyrinth")  # a long game: it goes on while ann is away
        await first.start()
        started = await first.expect("started")
        turn = await first.expect("your_turn")
        await first.act(turn["actions"][0])
        mine = (await first.expect("state"))["said"]
        await first.close()
        table = server.hub.tables[started["table"]]
        assert table.match is not None
        # the others play on (and the waiting seat's turns time out) while ann is away
        for _ in range(200):
            if len(table.said.get(0, [])) >= 6 or table.status != "playing":
                break
            await asyncio.sleep(0.02)
        back = await TilesClient.connect("127.0.0.1", server.port)
        await back.send(
            {"type": "join", "name": "ann", "table": table.id, "secret": started["secret"]}
        )
        await back.expect("joined")
        again = await back.expect("started")
        story = again["said"]
        # every line since the start, in ann's words: hers, and the others' while she was away
        assert story[0] == mine and len(story) >= 6
        assert story == table.said[0][: len(story)]
        assert any(line.startswith("house-") for line in story)
        await back.close()


async def test_back_at_the_seat_during_the_turn_the_clock_runs_on(tmp_path: Path) -> None:
    """A reload during the turn must not give the whole turn time again: ``your_turn`` says
    what is left, and the server's clock keeps its deadline."""
    async with running(tmp_path, reconnect_window=30, turn_timeout=4) as server:
        first, started = await sit_down(server.port)
        assert started["first_turn"]["timeout"] == 4
        await asyncio.sleep(1.5)
        await first.close()
        table = server.hub.tables[started["table"]]
        for _ in range(100):
            if table.seats[0] is not None and table.seats[0].is_away:
                break
            await asyncio.sleep(0.02)
        back = await TilesClient.connect("127.0.0.1", server.port)
        await back.send(
            {"type": "join", "name": "ann", "table": table.id, "secret": started["secret"]}
        )
        await back.expect("joined")
        await back.expect("started")
        turn = await back.expect("your_turn")
        assert 1.5 < turn["timeout"] <= 2.6, turn
        assert table.decision is not None
        left = table.decision.left()
        assert left is not None and left <= 2.6
        await back.close()
