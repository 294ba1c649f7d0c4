"""Live mariáš tournaments on a real ``herna serve`` of the CGML servers (login, super game
and bot servers; real sockets, a real SQLite file): bots with reserved ids connect with
``<connect tournament="ID">``, the director books each table of three, the login server forms
that group in seat order, the super game server plays the tournament's number of deals, and
the board is scored by the money each won."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from herna.clients.cgml import CgmlClientError, login
from herna.hall.tournament_live import LiveOptions
from herna.hall.tournament_store import TournamentStore
from herna.protocols.cgml.messages import PlayerRef
from herna.servers.cgml import CgmlService
from tests.live_tournaments import cgml_entrants, entered, finished, reserve
from tests.serve import serving

NAMES = ("ada", "ben", "cyd")


async def test_three_bots_play_a_round_robin_of_groups_in_rotated_seats(tmp_path: Path) -> None:
    async with serving(tmp_path, "marias", cgml_bot_delay=0.0, cgml_house_tables=0) as hall:
        director = hall.tournaments
        assert director is not None
        service = hall.service("marias")
        assert isinstance(service, CgmlService)
        host, port = service.login.player_address[:2]
        tokens = reserve(hall, *NAMES)
        tid, _ = director.create(
            LiveOptions("mariáš night", "marias", "round-robin", seats=3, deals=2)
        )
        # Without the id's token there is no tournament seat.
        with pytest.raises(CgmlClientError) as refused:
            await login(host, port, PlayerRef("zed", "zed", "bot"), tournament=str(tid))
        assert refused.value.code == "NOT_VERIFIED"

        bots = cgml_entrants(host, port, tokens, tid)
        assert sorted(await entered(director, tid, 3)) == sorted(NAMES)
        director.begin(tid)
        store = TournamentStore(hall.records.engine)
        tour = await finished(store, tid, timeout=90)
        summaries = await asyncio.wait_for(asyncio.gather(*bots), 10)
        assert tour.status == "finished"
        games = [g for g in tour.games if not g.board.bye]
        assert len(games) == 3 and all(g.forfeit is None for g in games)
        # Everyone sat in every seat once.
        for name in NAMES:
            assert sorted(g.seats.index(name) for g in games) == [0, 1, 2]
        # Each board's ranks are the money of its group, which the players saw too.
        for summary in summaries:
            assert len(summary) == 3 and all(s.games == 2 for s in summary)
        for g in games:
            assert sum(g.ranks) == 0  # mariáš money moves between the three
        hall.records.flush()
        tour = store.get(tid)
        assert tour is not None
        for g in tour.games:
            assert g.match_id is not None and g.table_id is not None
            record = hall.records.get(g.match_id)
            assert record is not None and record.meta["tournament"].startswith(f"{tid}/")
            assert [p.name for p in sorted(record.players, key=lambda p: p.seat)] == list(g.seats)
