"""Onitama games in worker processes (``herna serve --workers N``): real sockets, real worker
processes, a real SQLite file. The front keeps the lobby and names; each game runs in one
worker, which reads and writes its players' sockets itself."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from herna.clients.onitama import run_bot
from herna.games.onitama.bots import make_strategy
from herna.games.onitama.state import OnitamaState
from herna.hall.records import RecordStore
from herna.servers.onitama import OnitamaService
from herna.servers.onitama.workers import OnitamaFront
from herna.web.plugin import WebHall
from tests.onitama.test_final_dialect import check_clean, play_final
from tests.onitama.wire import Server, Wire, fixed_start, real_clock, running
from tests.serve import serving


def with_workers(
    tmp_path: Path,
    workers: int = 2,
    initial_state: Callable[[], OnitamaState] | None = None,
    **settings: Any,
) -> contextlib.AbstractAsyncContextManager[Server]:
    """A server with ``workers`` game workers, on the real clock (the workers' clock)."""
    return running(tmp_path, real_clock(), initial_state, workers=workers, **settings)


def elsewhere(server: Server) -> OnitamaFront:
    pool = server.service.hub.elsewhere
    assert pool is not None
    return pool


async def test_bots_play_whole_games_in_the_workers_and_every_game_is_recorded(
    tmp_path: Path,
) -> None:
    async with with_workers(tmp_path) as server:
        sub = server.hall.bus.subscribe()
        results = await asyncio.gather(
            *(
                run_bot("127.0.0.1", server.port, name, make_strategy("random", seed=i), games=3)
                for i, name in enumerate(("ann", "bob", "cid", "dan"))
            )
        )
        assert all(r.games == 3 and r.invalid == 0 for r in results)
        pool = elsewhere(server)
        assert pool.handed >= 6
        assert server.service.snapshot()["workers"]["handed"] == pool.handed  # /status
        pids = {w.process.pid for w in pool.workers.values()}
        assert len(pids) == 2 and os.getpid() not in pids
        # Both workers ran games (the least busy one gets the next table).
        await asyncio.sleep(0.1)  # the last batch of events
        events = sub.drain()
        over = [e for e in events if e.kind == "game_over"]
        assert len(over) >= 6
        moves = [e for e in events if e.kind == "move"]
        assert moves and all(e.data["view"]["board"] for e in moves)
    # The workers closed their record stores when the service stopped.
    store = RecordStore(f"sqlite:///{tmp_path / 'onitama.db'}")
    try:
        finished = [m for m in store.matches(game="onitama") if m.status == "finished"]
        assert {m.table_id for m in finished} >= {e.table for e in over}
        standings = {s.name: s.games for s in store.standings("onitama")}
        assert sum(standings.values()) == 2 * len(finished)
    finally:
        store.close()


async def test_a_dropped_player_takes_the_seat_back_in_the_worker_and_a_stranger_cannot(
    tmp_path: Path,
) -> None:
    async with with_workers(tmp_path, initial_state=fixed_start) as server:
        white, black, fields = await server.pair()
        assert elsewhere(server).handed == 1
        black_name = fields[2]
        await white.send("MAKE_MOVE|Ox|c1|c2")
        assert await white.line() == "MOVE_WAS_MADE|Ox|c1|c2"
        assert await black.line() == "MOVE_WAS_MADE|Ox|c1|c2"
        await black.close()
        assert await white.line() == f"LOGOUT|{black_name}"
        stranger = await server.wire()
        assert (await stranger.login(black_name)).startswith("LOGIN_FAILED|NAME_IN_USE")
        guess = await server.wire()
        await guess.send(f"LOGIN|{black_name}|not-the-secret")
        assert (await guess.line()).startswith("LOGIN_FAILED|")
        assert black.secret is not None
        await server.take_black_seat_back(white, black_name, black.secret)
        await asyncio.sleep(0.1)
        [game] = server.service.snapshot()["games"]
        assert game["moves"] == 2 and game["to_move"] == "white"


async def test_after_the_game_the_players_are_back_in_the_front_lobby(tmp_path: Path) -> None:
    async with with_workers(tmp_path, initial_state=fixed_start, reconnect_window=0.3) as server:
        white, black, fields = await server.pair()
        await black.close()
        assert await white.line() == f"LOGOUT|{fields[2]}"
        assert await white.line() == f"GAME_OVER|{fields[1]}|opponent_left"
        # The winner waits in the front's lobby again: a newcomer is paired with it.
        newcomer = await server.wire()
        assert await newcomer.login("eve") == "LOGIN_OK|eve"
        start = await newcomer.line()
        assert start.startswith("START|") and fields[1] in start
        again = await white.line()
        assert again.split("|")[:4] == start.split("|")[:4]


async def test_a_killed_worker_loses_only_its_games_and_is_replaced(tmp_path: Path) -> None:
    async with with_workers(tmp_path, workers=1, initial_state=fixed_start) as server:
        white, black, _ = await server.pair()
        pool = elsewhere(server)
        [worker] = pool.workers.values()
        os.kill(worker.process.pid, signal.SIGKILL)
        assert await white.eof() and await black.eof()
        for _ in range(100):
            if pool.workers and next(iter(pool.workers.values())).process.pid != worker.process.pid:
                break
            await asyncio.sleep(0.05)
        assert pool.workers, "the worker was not replaced"
        assert server.service.snapshot()["players"] == 0
        # The names are free again and new games run in the new worker.
        again_white, _, _ = await server.pair("ann", "bob")
        await again_white.send("MAKE_MOVE|Ox|c1|c2")
        assert await again_white.line() == "MOVE_WAS_MADE|Ox|c1|c2"


async def test_the_published_clients_dialect_plays_rematches_through_the_workers(
    tmp_path: Path,
) -> None:
    """The NUL dialect logs in again after every game: each game is handed to a worker and
    back, and the published client's model of the game never goes wrong."""
    async with with_workers(tmp_path) as server:
        final, line = await asyncio.gather(
            play_final(server, "fin", 3, seed=2),
            run_bot("127.0.0.1", server.port, "lin", make_strategy("greedy", seed=3), games=3),
        )
        check_clean(final)
        assert final.games == line.games == 3 and line.invalid == 0
        assert elsewhere(server).handed >= 3


async def test_the_web_hall_shows_the_workers_games_live_and_in_history(tmp_path: Path) -> None:
    """``herna serve --workers 1`` with the web hall: the worker's games are listed live (its
    events reach the front's bus) and, once over, in the history (its own records writer)."""
    async with serving(tmp_path, "onitama,web", workers=1, no_house_bots=True) as hall:
        web = hall.service("web")
        onitama = hall.service("onitama")
        assert isinstance(web, WebHall) and isinstance(onitama, OnitamaService)
        port = onitama.port
        ann, bob = await Wire.open(port), await Wire.open(port)
        assert await ann.login("ann") == "LOGIN_OK|ann"
        assert await bob.login("bob") == "LOGIN_OK|bob"
        assert (await ann.line()).startswith("START|")
        async with httpx.AsyncClient(base_url=web.url, timeout=10) as http:
            live: list[dict[str, Any]] = []
            async with asyncio.timeout(20):
                while not live:
                    shown = (await http.get("/api/live")).json()
                    live = [t for t in shown if t["game"] == "onitama"]
                    await asyncio.sleep(0.05)
            assert live[0]["view"]["players"] == {"white": "ann", "black": "bob"} or live[0][
                "view"
            ]["players"] == {"white": "bob", "black": "ann"}
            pool = onitama.hub.elsewhere
            assert pool is not None and pool.handed == 1
            await asyncio.gather(
                *(
                    run_bot("127.0.0.1", port, name, make_strategy("random", seed=i), games=2)
                    for i, name in enumerate(("cid", "dan"))
                )
            )
            listed: list[dict[str, Any]] = []
            async with asyncio.timeout(20):
                while len(listed) < 2:
                    await asyncio.sleep(0.2)
                    found = await http.get("/api/matches", params={"game": "onitama"})
                    listed = found.json()["matches"]
            assert pool.handed >= 3
            assert {p["name"] for m in listed for p in m["players"]} == {"cid", "dan"}
        await ann.close()
        await bob.close()
