"""Privacy: no public page, API route or live frame of the web hall shows where a client
connects from. Server endpoints (``udp://127.0.0.1:9000``) may be listed; client addresses
may not. Real ``herna serve --only mia,web`` with an outside Mia bot and a spectator
registered over UDP."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from starlette.routing import Mount, Route, WebSocketRoute
from websockets.asyncio.client import connect

from herna.clients.mia import MiaClient, play
from herna.games.mia.bots import make_bot
from herna.hall.contests import Contests
from herna.hall.hall import Hall
from herna.hall.submissions import Submissions
from herna.hall.tournament import Board, Game
from herna.hall.tournament_store import Entrant, TournamentStore
from herna.servers.mia import MiaService
from herna.web.plugin import WebHall
from tests.serve import serving

PARAMS = re.compile(r"\{(\w+)(?::\w+)?\}")


def _paths(web: WebHall, values: dict[str, list[str]]) -> tuple[list[str], set[str]]:
    """Every GET route of the web hall with its parameters filled in from ``values`` (each
    combination), and the set of route templates (to prove none was left out)."""
    out: list[str] = []
    templates: set[str] = set()
    for route in web.web.starlette.routes:
        if isinstance(route, Mount | WebSocketRoute):
            continue  # static files hold no live data; /ws/tiles is the tiles game
        assert isinstance(route, Route)
        if "GET" not in (route.methods or ()):
            continue  # the account forms' POST routes (their GET twins are listed)
        templates.add(route.path)
        paths = [route.path]
        for name in PARAMS.findall(route.path):
            paths = [
                PARAMS.sub(lambda m, v=v, n=name: v if m.group(1) == n else m.group(0), p, 1)
                for p in paths
                for v in values[name]
            ]
        out.extend(paths)
    return out, templates


def _a_tournament(engine: Any, match_id: str) -> int:
    """A stored tournament naming the outside client, with one game linked to a record."""
    store = TournamentStore(engine)
    tid = store.create("evening", "mia", "arena", [Entrant("outsider", "bot", "?")], {})
    store.add_game(tid, Game(Board(1, 1, ("outsider",)), match_id=int(match_id)))
    return tid


def _a_submitted_bot(hall: Hall) -> str:
    """A bot the outside client's author uploaded (its page lists its versions)."""
    book = Submissions(hall.records.engine, hall.identity)
    book.submit("outsider-bot", "onitama", "bot.py", b"print()\n", person="outsider")
    return "outsider-bot"


def _a_contest(hall: Hall, bot: str, tid: int) -> str:
    """A contest the submitted bot entered, whose final is the tournament ``tid``."""
    book = Submissions(hall.records.engine, hall.identity)
    contests = Contests(hall.records.engine, book)
    contest, _ = contests.create("evening", "onitama", datetime.now(UTC) + timedelta(hours=1))
    owner = book.versions(bot)[0].owner
    contests.enter(contest.id, bot, owner)
    contests.set_final(contest.id, tid)
    return str(contest.id)


async def test_no_public_page_or_api_shows_a_client_address(tmp_path: Path) -> None:
    async with serving(tmp_path, "mia,web", mia_house_round_pause=0.05) as hall:
        web = hall.service("web")
        mia = hall.service("mia")
        assert isinstance(web, WebHall) and isinstance(mia, MiaService)
        port = mia.server.address[1]
        outsider = MiaClient("127.0.0.1", port, "outsider")
        await outsider.connect()
        await outsider.register()
        spectator = MiaClient("127.0.0.1", port, "onlooker", spectator=True)
        await spectator.connect()
        await spectator.register()
        task = asyncio.create_task(play(outsider, make_bot("probability")))
        try:
            async with asyncio.timeout(20):
                while mia.table.scores.get("outsider", 0) < 3:
                    await asyncio.sleep(0.05)
            hall.records.flush()
            # Where every client of the Mia server sits: house bots, outsider, spectator.
            clients = {f"{c.addr[0]}:{c.addr[1]}" for c in mia.table.clients.values()}
            assert {"outsider", "onlooker", "house-prob"} <= set(mia.table.clients)
            assert len(clients) == len(mia.table.clients)

            bodies: dict[str, str] = {}
            async with httpx.AsyncClient(base_url=web.url, timeout=10) as http:
                listed = (await http.get("/api/matches", params={"player": "outsider"})).json()
                ids = [str(m["id"]) for m in listed["matches"]][:3]
                assert ids
                tid = _a_tournament(hall.records.engine, ids[0])
                bot = _a_submitted_bot(hall)
                values = {
                    "game": ["mia"],
                    "table": ["mia"],
                    "match_id": ids,
                    "name": ["outsider", "house-prob"],
                    "path": ["protocols/mia.md"],
                    "tournament_id": [str(tid)],
                    "bot": [bot],
                    "kit": ["onitama-python"],
                    "cid": [_a_contest(hall, bot, tid)],
                }
                paths, templates = _paths(web, values)
                assert {"/", "/api/services", "/live/{game}/{table:path}"} <= templates
                paths += [
                    "/api/live?game=mia",
                    "/api/matches?game=mia",
                    "/history?game=mia&player=outsider",
                    "/players?name=outsider",
                ]
                for path in paths:
                    response = await http.get(path, follow_redirects=True)
                    # Engine reviews exist for Onitama games only: a Mia round has none.
                    expected = 404 if re.fullmatch(r"/matches/\d+/review", path) else 200
                    assert response.status_code == expected, (path, response.status_code)
                    bodies[path] = response.text
            async with connect(f"ws://127.0.0.1:{web.port}/ws/live", max_size=None) as ws:
                for i in range(3):
                    bodies[f"/ws/live frame {i}"] = str(await asyncio.wait_for(ws.recv(), 5))
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            outsider.close()
            spectator.close()

        services: list[dict[str, Any]] = json.loads(bodies["/api/services"])
        mia_json = next(s for s in services if s["game"] == "mia")
        assert "outsider" in json.dumps(mia_json["snapshot"])  # names are public ...
        for path, body in bodies.items():
            leaked = [c for c in clients if c in body]
            assert not leaked, f"{path} shows client addresses {leaked}"  # ... addresses not
