"""Tile games in worker processes (``herna serve --workers N``): real sockets, real worker
processes, a real SQLite file. The front keeps names and waiting tables; each game runs in one
worker, which reads and writes its players' sockets itself."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from herna.clients.tiles import TilesClient, run_bot
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.servers.tiles import TilesService, TilesSettings, serve
from herna.servers.tiles.workers import TilesFront
from tests.tiles.helpers import race
from tests.tiles.test_server import FAST

RULES = "tsuro"


@asynccontextmanager
async def with_workers(
    tmp_path: Path, workers: int = 2, **settings: Any
) -> AsyncIterator[TilesService]:
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'tiles.db'}"))
    service = await serve(
        hall, port=0, settings=TilesSettings(**{**FAST, **settings}), workers=workers
    )
    hall.add(service)
    try:
        yield service
    finally:
        await hall.stop()
        hall.records.close()


def front(server: TilesService) -> TilesFront:
    pool = server.hub.elsewhere
    assert pool is not None
    return pool


async def test_bots_play_whole_games_in_the_workers_and_they_are_recorded(
    tmp_path: Path,
) -> None:
    async with with_workers(tmp_path, max_rounds=40) as server:
        sub = server.hub.bus.subscribe()
        runs = await asyncio.gather(
            *[
                run_bot("127.0.0.1", server.port, f"bot{i}", race(), "goal", seed=i, start=False)
                for i in range(2)
            ]
        )
        assert all(not run.errors and run.games for run in runs)
        assert runs[0].games[0]["result"] == runs[1].games[0]["result"]
        pool = front(server)
        assert pool.handed == 1
        assert {w.process.pid for w in pool.workers.values()} and os.getpid() not in {
            w.process.pid for w in pool.workers.values()
        }
        await asyncio.sleep(0.1)  # the worker's last batch of events
        kinds = [e.kind for e in sub.drain()]
        assert kinds[0] == "game_started" and kinds[-1] == "game_over"
        assert kinds.count("action") == sum(run.actions for run in runs)
        assert server.hub.tables == {}
    store = RecordStore(f"sqlite:///{tmp_path / 'tiles.db'}")
    try:
        (stored,) = store.matches(game="tiles")
        assert stored.status == "finished"
        assert sorted(p.name for p in stored.players) == ["bot0", "bot1"]
    finally:
        store.close()


async def test_a_house_bot_table_a_dropped_player_comes_back_and_names_stay_taken(
    tmp_path: Path,
) -> None:
    async with with_workers(tmp_path, reconnect_window=30, bot_delay=0.05) as server:
        ann = await TilesClient.connect("127.0.0.1", server.port)
        await ann.join("ann", race())
        await ann.start()  # house bots fill the other seat: the game runs in a worker
        started = await ann.expect("started")
        await ann.expect("your_turn")
        assert front(server).handed == 1
        table_id = started["table"]
        await ann.close()
        # Meanwhile nobody else may use the name, in the front or at the table.
        stranger = await TilesClient.connect("127.0.0.1", server.port)
        await stranger.send({"type": "join", "name": "ann", "rules": RULES})
        assert (await stranger.expect("error"))["code"] == "NAME_TAKEN"
        await stranger.send({"type": "join", "name": "ann", "table": table_id, "secret": "x" * 32})
        assert (await stranger.expect("error"))["code"] == "BAD_SECRET"
        # The refused connection is back in the front: it may still join elsewhere.
        await stranger.send({"type": "list"})
        listed = await stranger.expect("tables")
        assert [t["table"] for t in listed["tables"]] == [table_id]
        back = await TilesClient.connect("127.0.0.1", server.port)
        await back.send(
            {"type": "join", "name": "ann", "table": table_id, "secret": started["secret"]}
        )
        joined = await back.expect("joined")
        assert joined["resumed"] is True and joined["seat"] == 0
        again = await back.expect("started")
        assert again["secret"] == started["secret"]
        turn = await back.expect("your_turn")
        await back.act(turn["actions"][0])
        await back.expect("state")
        # ann leaves the table: a house bot finishes the game, ann is in the front's lobby,
        # and sits down at a new table, whose game runs in a worker too.
        await back.send({"type": "leave"})
        await back.expect("left")
        joined = await back.join("ann", race())
        assert joined["name"] == "ann" and joined["table"] != table_id
        await back.start()
        await back.expect("started")
        for _ in range(200):  # the house bot finishes the first table's game
            if table_id not in server.hub.tables:
                break
            await asyncio.sleep(0.05)
        assert table_id not in server.hub.tables
        # That table's end frees none of the names of its players who play on elsewhere.
        await stranger.send({"type": "join", "name": "ann", "rules": RULES})
        assert (await stranger.expect("error"))["code"] == "NAME_TAKEN"
        await stranger.close()
        await back.close()
