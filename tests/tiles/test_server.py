"""The tile server over real TCP sockets on 127.0.0.1 (ephemeral ports): whole games between
bots for every shipped rules file, house bots, timeouts, bad input, records and replays."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from herna.clients.tiles import TilesClient, TilesServerError, run_bot
from herna.games.tiles.rules import shipped_rules
from herna.hall.db import RatingRow
from herna.hall.events import GameEvent
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.hall.replays import replay_steps
from herna.servers.registry import load_plugins
from herna.servers.tiles import PLUGIN, TilesService, TilesSettings, serve
from tests.serve import serving
from tests.tiles.helpers import race

FAST = {"bot_delay": 0.0, "showcase": False, "lobby_wait": 0.0}


@asynccontextmanager
async def running(tmp_path: Path, **settings: Any) -> AsyncIterator[TilesService]:
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'tiles.db'}"))
    service = await serve(hall, port=0, settings=TilesSettings(**{**FAST, **settings}))
    hall.add(service)
    try:
        yield service
    finally:
        await hall.stop()
        hall.records.close()


def check_spectator_view(view: dict[str, Any]) -> None:
    assert view["game"] == "tiles" and view["you"] is None
    for p in view["players"]:
        assert "hand" not in p
    json.dumps(view)


def check_events(events: list[GameEvent]) -> None:
    for event in events:
        assert event.game == "tiles"
        assert json.loads(json.dumps(event.to_json())) == event.to_json()
        check_spectator_view(event.data["view"])


@pytest.mark.parametrize("rules", sorted(shipped_rules()))
async def test_whole_games_of_every_shipped_file_between_bots(tmp_path: Path, rules: str) -> None:
    async with running(tmp_path, max_rounds=40) as server:
        sub = server.hub.bus.subscribe()
        seats = len(server.hub.shipped(rules).players)  # type: ignore[union-attr]
        runs = await asyncio.gather(
            *[
                run_bot(
                    "127.0.0.1",
                    server.port,
                    f"bot{i}",
                    rules,
                    "goal" if i == 0 else "random",
                    seed=i,
                    start=False,
                )
                for i in range(seats)
            ]
        )
        results = [run.games[0]["result"] for run in runs]
        assert all(r == results[0] for r in results)
        assert all(not run.errors for run in runs)
        assert sum(run.actions for run in runs) > 0
        events = sub.drain()
        check_events(events)
        kinds = [e.kind for e in events]
        assert kinds[0] == "game_started" and kinds[-1] == "game_over"
        assert kinds.count("action") == sum(run.actions for run in runs)
        over = events[-1]
        assert over.data["result"]["reason"] == results[0]["reason"]
        store = server.hub.records
        assert store is not None
        store.flush()
        (stored,) = store.matches(game="tiles")
        match = store.get(stored.id)
        assert match is not None and match.status == "finished"
        assert sorted(p.name for p in match.players) == sorted(f"bot{i}" for i in range(seats))
        assert [p.name for p in match.players if p.winner] == results[0]["winner_names"]
        steps = replay_steps(match)
        assert steps[0]["label"] == "setup"
        assert len(steps) == kinds.count("action") + 1
        final = dict(steps[-1]["view"])
        assert final.pop("names") == [p.name for p in match.players]
        assert final == over.data["view"]


async def test_a_lone_person_gets_house_bots_and_plays_to_the_end(tmp_path: Path) -> None:
    async with running(tmp_path, max_rounds=30) as server:
        client = await TilesClient.connect("127.0.0.1", server.port)
        assert client.welcome is not None and "labyrinth" in client.welcome["rules"]
        joined = await client.join("ann", "tsuro")
        assert joined["seat"] == 0 and joined["rules"]["board"]["width"] == 8
        await client.start()
        started = await client.expect("started")
        assert [s["kind"] for s in started["seats"]] == ["human"] + ["house-bot"] * 3
        assert "hand" in started["view"]["players"][0]
        turns = 0
        while True:
            message = await client.expect("your_turn", "game_over")
            if message["type"] == "game_over":
                break
            turns += 1
            assert message["view"]["turn"]["to_act"] == 0
            await client.act(message["actions"][-1])
        assert turns >= 1 and message["result"]["reason"]
        await client.close()


async def test_lobby_wait_fills_the_table_with_house_bots(tmp_path: Path) -> None:
    async with running(tmp_path, lobby_wait=0.2) as server:
        client = await TilesClient.connect("127.0.0.1", server.port)
        await client.join("ann", race())
        started = await client.expect("started", timeout=5)
        assert [s["kind"] for s in started["seats"]] == ["human", "house-bot"]
        await client.close()


async def test_without_house_bots_a_table_waits_for_people(tmp_path: Path) -> None:
    async with running(tmp_path, house_bots=False) as server:
        ann = await TilesClient.connect("127.0.0.1", server.port)
        bob = await TilesClient.connect("127.0.0.1", server.port)
        joined = await ann.join("ann", race())
        await ann.start()
        error = await ann.expect("error")
        assert error["code"] == "NOT_ENOUGH_PLAYERS"
        with pytest.raises(TilesServerError) as info:
            await bob.join("ann", table=joined["table"])
        assert info.value.code == "NAME_TAKEN"
        assert (await bob.join("bob", race()))["table"] == joined["table"]
        for client in (ann, bob):
            assert (await client.expect("started"))["seats"][1]["name"] == "bob"
        # Both race; ann moves first, so she arrives first.
        over: dict[str, dict[str, Any]] = {}
        while len(over) < 2:
            for name, client in (("ann", ann), ("bob", bob)):
                if name in over:
                    continue
                message = await client.expect("your_turn", "game_over")
                if message["type"] == "game_over":
                    over[name] = message
                else:
                    await client.act(max(message["actions"], key=lambda a: a["x"]))
        message = over["ann"]
        assert message["result"]["winner_names"] == ["ann"]
        assert over["bob"]["result"] == message["result"]


async def test_bad_input_is_answered_and_disturbs_no_one(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        other = await TilesClient.connect("127.0.0.1", server.port)
        await other.join("zed", "tsuro")
        client = await TilesClient.connect("127.0.0.1", server.port)
        for raw, code in [
            (b"hello\n", "BAD_JSON"),
            (b'{"type": "fly"}\n', "UNKNOWN_TYPE"),
            (b'{"type": "act", "action": {}, "id": 4}\n', "WRONG_PHASE"),
            (b'{"type": "join", "name": "x", "rules": "chess"}\n', "UNKNOWN_RULES"),
        ]:
            await client.send_raw(raw)
            reply = await client.expect("error")
            assert reply["code"] == code, reply
        assert reply["reason"].startswith("no rules file named 'chess'")
        bad = race()
        bad["tiles"][0]["location"] = [9, 9]
        bad["movement_type"] = "teleport"
        with pytest.raises(TilesServerError) as info:
            await client.join("ann", bad)
        assert info.value.code == "BAD_RULES"
        paths = {p["path"] for p in info.value.problems}
        assert {"tiles[0].location", "movement_type"} <= paths
        joined = await client.join("ann", race(), table=None)
        await client.start()
        turn = await client.expect("your_turn")
        for action, code in [
            ({"type": "push"}, "BAD_ACTION"),
            ({"type": "move", "x": 3, "y": 0, "side": "L", "index": 0}, "ILLEGAL_ACTION"),
            ({"type": "exchange", "x": 0, "y": 0}, "ILLEGAL_ACTION"),
        ]:
            await client.send({"type": "act", "action": action, "id": "a"})
            reply = await client.expect("error")
            assert reply["code"] == code and reply["id"] == "a", reply
        await client.send({"type": "state"})
        state = await client.expect("state")
        assert state["view"]["turn"]["to_act"] == 0 == turn["seat"]
        assert (await client.expect("your_turn"))["actions"] == turn["actions"]
        await client.send({"type": "ping", "id": 1})
        assert (await client.expect("pong"))["id"] == 1
        # Still fine: the table answers, the other person's table is untouched.
        await client.act(max(turn["actions"], key=lambda a: a["x"]))
        assert (await client.expect("state"))["last"]["player"] == 0
        table = server.hub.tables[joined["table"]]
        assert table.status == "playing"
        await other.send({"type": "list"})
        listing = await other.expect("tables")
        assert any(t["seats"][0] == {"name": "zed", "kind": "human"} for t in listing["tables"])
        # A line that is far too long ends that connection only.
        await client.send_raw(b"x" * (1024 * 1024 + 10))
        with pytest.raises(ConnectionError):
            while True:
                await client.recv(timeout=5)
        await other.send({"type": "ping"})
        assert (await other.expect("pong"))["type"] == "pong"


async def test_a_bot_that_does_not_answer_gets_a_random_action(tmp_path: Path) -> None:
    async with running(tmp_path, turn_timeout=0.2) as server:
        client = await TilesClient.connect("127.0.0.1", server.port)
        await client.join("ann", race(), kind="bot")
        await client.start()
        await client.expect("your_turn")
        table = next(iter(server.hub.tables.values()))
        error = await client.expect("error", timeout=5)
        assert error["code"] == "TIMEOUT" and error["action"]["type"] == "move"
        state = await client.expect("state")
        assert state["last"]["player"] == 0
        assert table.match is not None
        assert ("timeout", {"player": 0, "name": "ann"}) in table.match.log
        await client.close()


async def test_a_person_who_lets_the_clock_run_out_gets_a_grace_period_then_a_stand_in(
    tmp_path: Path,
) -> None:
    async with running(tmp_path, turn_timeout=0.3, reconnect_window=0.4) as server:
        client = await TilesClient.connect("127.0.0.1", server.port)
        await client.join("ann", "labyrinth")
        await client.start()
        turn = await client.expect("your_turn")
        assert turn["timeout"] == 0.3 and turn["grace"] == 0.4
        table = next(iter(server.hub.tables.values()))
        assert table.match is not None
        # the clock runs out: no random action, the grace period is said with its length
        error = await client.expect("error", timeout=5)
        assert error["code"] == "TIME_UP" and error["grace"] == 0.4
        assert table.state.current_player() == 0
        # the grace period runs out too: a stand-in plays the seat, and the table says so
        assert (await client.expect("stand_in", timeout=5))["on"] is True
        state = await client.expect("state", timeout=5)
        assert state["last"]["player"] == 0
        assert table.seats_json()[0] == {"name": "ann", "kind": "human", "stand_in": True}
        # "back" takes the seat back: the next turn of seat 0 comes to the person again
        await client.send({"type": "back", "id": 7})
        back = await client.expect("stand_in", timeout=5)
        assert back["on"] is False and back["id"] == 7
        assert table.seats_json()[0] == {"name": "ann", "kind": "human"}
        # a second "back" has nothing to take back
        await client.send({"type": "back", "id": 8})
        seen: list[dict[str, Any]] = []
        while not any(m["type"] == "error" for m in seen):
            seen.append(await client.recv(timeout=5))
        assert seen[-1]["code"] == "NOT_STANDING_IN" and seen[-1]["id"] == 8
        if not any(m["type"] == "your_turn" for m in seen):
            await client.expect("your_turn", timeout=10)
        # the game ends; the record says a stand-in played and leaves ann's rating alone
        await client.send({"type": "leave"})
        await eventually_recorded(server)
        stored = server.hub.records
        assert stored is not None
        stored.flush()
        match = stored.matches(game="tiles")[0]
        assert match.meta["stand_in"] == ["ann"]
        with Session(stored.engine) as session:
            rated = {
                r.name for r in session.scalars(select(RatingRow).where(RatingRow.game == "tiles"))
            }
        assert "ann" not in rated and rated  # the house bots' ratings moved
        await client.close()


async def eventually_recorded(server: TilesService) -> None:
    records = server.hub.records
    assert records is not None
    for _ in range(600):
        records.flush()
        if records.matches(game="tiles"):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the game was not recorded")


async def test_a_player_who_leaves_is_replaced_and_the_game_is_recorded(tmp_path: Path) -> None:
    # No reconnect window: the seat goes to a house bot as soon as the connection is gone.
    async with running(tmp_path, reconnect_window=0) as server:
        sub = server.hub.bus.subscribe(accept=lambda e: e.kind == "game_over")
        client = await TilesClient.connect("127.0.0.1", server.port)
        await client.join("ann", race())
        await client.start()
        await client.expect("your_turn")
        await client.close()
        for _ in range(200):
            if sub.drain():
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the game did not finish")
        store = server.hub.records
        assert store is not None
        store.flush()
        (stored,) = store.matches(game="tiles")
        match = store.get(stored.id)
        assert match is not None and match.status == "finished"
        notes = [data for kind, data in match.events if kind == "left"]
        assert notes == [{"player": 0, "name": "ann", "replaced_by": "house bot"}]


async def test_herna_serve_hosts_the_tile_server_with_a_showcase(tmp_path: Path) -> None:
    assert "herna.servers.tiles:PLUGIN" in [f"{p.start.__module__}:PLUGIN" for p in load_plugins()]
    assert PLUGIN.name == "tiles"
    async with serving(
        tmp_path, "tiles", tiles_bot_delay=0.01, tiles_max_rounds=5, tiles_bot_strategy="random"
    ) as hall:
        service = hall.service("tiles")
        assert service is not None and service.endpoints()[0].startswith("tcp://127.0.0.1:")
        sub = hall.bus.subscribe(accept=lambda e: e.game == "tiles")
        for _ in range(300):
            if any(e.kind == "game_over" for e in sub.drain()):
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the showcase table did not finish a game")
        snapshot = service.snapshot()
        assert snapshot["stats"]["games_finished"] >= 1


async def test_no_house_bots_means_no_showcase(tmp_path: Path) -> None:
    async with serving(tmp_path, "tiles", no_house_bots=True) as hall:
        service = hall.service("tiles")
        assert service is not None
        await asyncio.sleep(0.05)
        assert service.snapshot()["tables"] == []


async def test_a_player_opening_a_table_chooses_the_house_bots_level(tmp_path: Path) -> None:
    async with running(tmp_path, house_bots=True) as server:
        ann = await TilesClient.connect("127.0.0.1", server.port)
        bob = await TilesClient.connect("127.0.0.1", server.port)
        cy = await TilesClient.connect("127.0.0.1", server.port)
        # a seek's level decides the house bots of the table it opens
        easy = await ann.join("ann", race(), seek="opponent=bots,level=easy")
        hard = await bob.join("bob", race(), seek="opponent=bots,level=hard")
        assert hard["table"] != easy["table"]
        plain = await cy.join("cy", race())
        assert plain["table"] not in (easy["table"], hard["table"])
        await cy.start()
        for client in (ann, bob, cy):
            await client.expect("started")
        kinds = {
            table.id: [type(slot.bot).__name__ for slot in table.seats if slot and slot.bot]
            for table in server.hub.tables.values()
        }
        assert kinds[easy["table"]] == ["NoisyGoalBot"]
        assert kinds[hard["table"]] == ["SearchBot"]
        assert kinds[plain["table"]] == ["GoalBot"]  # the server's own choice: goal
        for client in (ann, bob, cy):
            await client.close()
