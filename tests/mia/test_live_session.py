"""A live Mia session on the hall's own Mia table (a real ``herna serve`` of the Mia server,
UDP on 127.0.0.1, a real SQLite file): every player there who proved its name is an entrant,
scored by the points it makes during the session; an unreserved name plays on uncounted."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

import pytest

from herna.clients.mia import run_bot
from herna.hall.identity import ReservedNames
from herna.hall.tournament_live import LiveOptions, TournamentError
from herna.hall.tournament_store import TournamentStore
from herna.servers.mia import MiaService
from tests.live_tournaments import entered, finished
from tests.serve import serving


async def test_a_session_counts_the_points_proven_players_make_in_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="herna.tournament")
    async with serving(
        tmp_path, "mia", mia_house_bots=2, mia_round_pause=0.0, mia_house_round_pause=0.0
    ) as hall:
        director = hall.tournaments
        assert director is not None
        service = hall.service("mia")
        assert isinstance(service, MiaService)
        port = service.server.address[1]
        token = ReservedNames(hall.records.engine).add("dojo1")
        hall.identity.reload()
        with pytest.raises(TournamentError):
            director.create(LiveOptions("t", "mia", "arena"))
        tid, _ = director.create(LiveOptions("dojo evening", "mia", "session", duration=10))
        bots = [
            asyncio.create_task(run_bot("127.0.0.1", port, "dojo1", "probability", token=token)),
            asyncio.create_task(run_bot("127.0.0.1", port, "stranger", "random")),
        ]
        try:
            waiting = await entered(director, tid, 3)
            assert "dojo1" in waiting and "stranger" not in waiting
            director.begin(tid)
            store = TournamentStore(hall.records.engine)
            tour = await finished(store, tid, timeout=30)
        finally:
            for task in bots:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        assert tour.status == "finished"
        names = {e.name: e.kind for e in tour.entrants}
        # The log tells a session as one (it used to say "started with 0 entrants").
        said = [r.getMessage() for r in caplog.records if r.name.startswith("herna")]
        assert (
            f"tournament {tid} started: a mia session of 10 s; every player at the table "
            "who proves its name takes part" in said
        )
        assert f"tournament {tid} finished with {len(names)} entrants" in said
        assert names.get("dojo1") == "bot" and "stranger" not in names
        assert sum(kind == "house-bot" for kind in names.values()) == 2
        scores = tour.settings["scores"]
        assert set(scores) == set(names) and all(v >= 0 for v in scores.values())
        assert sum(scores.values()) > 0
        first, last = tour.settings["first_match"], tour.settings["last_match"]
        assert last >= first
        # The rounds in the session's range are Mia rounds on record, dojo1 at some of them.
        hall.records.flush()
        rounds = [hall.records.get(i) for i in range(first, last + 1)]
        assert all(r is not None and r.game == "mia" for r in rounds)
        assert any("dojo1" in [p.name for p in r.players] for r in rounds if r is not None)
        rows = tour.standings()
        assert rows[0].points == max(scores.values())
