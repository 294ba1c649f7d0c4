"""Live tournaments at tile tables: entrants join over TCP with the seek ``tournament=ID``
under their reserved names, wait (``waiting``) until the director books a table of the
tournament's rules, play it, join again, and are told when it is over (a real ``herna
serve`` of the tile server, real sockets, a real SQLite file)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from herna.clients.tiles import BotRun
from herna.hall.identity import ReservedNames
from herna.hall.tournament_live import LiveOptions
from herna.hall.tournament_store import TournamentStore
from herna.servers.tiles import TilesService
from tests.live_tournaments import entered, finished, tiles_entrants
from tests.serve import serving

NAMES = ("ada", "ben", "cyd", "dan")


async def _line(reader: asyncio.StreamReader) -> dict[str, object]:
    while True:
        message = json.loads(await asyncio.wait_for(reader.readline(), 10))
        if message["type"] not in ("welcome", "table"):
            return dict(message)


async def test_four_bots_play_a_round_robin_of_tables_taking_every_seat_once(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path, "tiles", tiles_no_showcase=True, tiles_bot_delay=0.0) as hall:
        director = hall.tournaments
        assert director is not None
        service = hall.service("tiles")
        assert isinstance(service, TilesService)
        book = ReservedNames(hall.records.engine)
        tokens = {name: book.add(name) for name in (*NAMES, "eve")}
        hall.identity.reload()
        tid, _ = director.create(
            LiveOptions("tiles night", "tiles", "round-robin", rules="tsuro", seats=4)
        )

        # A raw client: the join waits (no table yet); a wrong rules file is refused first.
        reader, writer = await asyncio.open_connection("127.0.0.1", service.port)
        join = {"type": "join", "name": "eve", "kind": "bot", "token": tokens["eve"]}
        writer.write(
            (
                json.dumps({**join, "rules": "labyrinth", "seek": f"tournament={tid}"}) + "\n"
            ).encode()
        )
        refused = await _line(reader)
        assert refused["type"] == "error" and refused["code"] == "RULES_MISMATCH"
        writer.write((json.dumps({**join, "seek": f"tournament={tid}"}) + "\n").encode())
        waiting = await _line(reader)
        assert waiting["type"] == "waiting" and waiting["tournament"] == str(tid)
        assert waiting["rules_name"] == "tsuro"
        tour = TournamentStore(hall.records.engine).get(tid)
        assert tour is not None and [e.name for e in tour.entrants] == ["eve"]
        writer.write(b'{"type": "leave"}\n')  # eve changes her mind: she withdraws
        assert (await _line(reader))["type"] == "left"
        writer.close()
        # An unproven name waits for nothing.
        reader, writer = await asyncio.open_connection("127.0.0.1", service.port)
        writer.write(
            (
                json.dumps({"type": "join", "name": "zed", "seek": f"tournament={tid}"}) + "\n"
            ).encode()
        )
        refused = await _line(reader)
        assert refused["type"] == "error" and refused["code"] == "NOT_VERIFIED"
        writer.close()

        bots = tiles_entrants(service.port, {n: tokens[n] for n in NAMES}, tid)
        assert sorted(await entered(director, tid, 4)) == sorted(NAMES)
        tour = TournamentStore(hall.records.engine).get(tid)
        assert tour is not None and sorted(e.name for e in tour.entrants) == sorted(NAMES)
        director.begin(tid)
        runs: list[BotRun] = await asyncio.wait_for(asyncio.gather(*bots), 120)
        store = TournamentStore(hall.records.engine)
        tour = await finished(store, tid)
        assert tour.status == "finished"
        games = [g for g in tour.games if not g.board.bye]
        assert len(games) == 4 and all(g.forfeit is None for g in games)
        # Each entrant took each seat exactly once.
        for name in NAMES:
            assert sorted(g.seats.index(name) for g in games) == [0, 1, 2, 3]
        hall.records.flush()
        tour = store.get(tid)
        assert tour is not None
        for g in (g for g in tour.games if not g.board.bye):
            assert g.match_id is not None
            match = hall.records.get(g.match_id)
            assert match is not None and match.meta["tournament"].startswith(f"{tid}/")
            assert match.meta["rules_name"] == "tsuro"
        assert [len(r.games) for r in runs] == [4, 4, 4, 4]
        # Points: at a table of four a game hands out two (six pairs, a third each).
        assert sum(r.points for r in tour.standings()) == 2 * len(games)
