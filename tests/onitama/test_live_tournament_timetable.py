"""A live tournament's times on a running Onitama server (real sockets, a real database
file): it starts by itself at its start time, rounds wait out the pause after the round
before, the timetable is kept in the database and each entrant's view says where it stands
(the bye, the next round's time, the final place). A start time survives a restart of the
hall before it comes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from herna.hall.tournament_live import LiveOptions, TournamentError
from herna.hall.tournament_seat import entrant_view
from herna.hall.tournament_store import Tournament, TournamentStore
from herna.hall.tournament_timetable import iso, read_time
from tests.live_tournaments import finished
from tests.serve import serving

HOUSE = {"onitama_house_bots": 0, "onitama_house_bot_delay": 0.0}


def _after(seconds: float) -> str:
    return iso(datetime.now(UTC) + timedelta(seconds=seconds))


async def _until(store: TournamentStore, tid: int, test: object, seconds: float) -> Tournament:
    import asyncio

    for _ in range(int(seconds / 0.02)):
        tour = store.get(tid)
        assert tour is not None
        if test(tour):  # type: ignore[operator]
            return tour
        await asyncio.sleep(0.02)
    raise AssertionError(f"not reached: {store.get(tid)}")


async def test_it_starts_at_its_time_and_keeps_a_timetable_with_pauses(
    tmp_path: Path, database_url: str
) -> None:
    async with serving(tmp_path, "onitama", database_url=database_url, **HOUSE) as hall:
        director = hall.tournaments
        assert director is not None
        store = TournamentStore(hall.records.engine)
        starts = _after(1.5)
        options = LiveOptions(
            "timed", "onitama", "round-robin", house=("easy", "easy", "easy"), starts_at=starts
        )
        tid, _ = director.create(LiveOptions(**{**options.__dict__, "pause": 1.0}))
        with pytest.raises(TournamentError, match="coming year"):
            director.create(LiveOptions("late", "onitama", "swiss", starts_at=_after(-60)))
        tour = store.get(tid)
        assert tour is not None and tour.status == "entry"
        house = sorted(
            e.name for e in (await _until(store, tid, lambda t: len(t.entrants) == 3, 10)).entrants
        )
        view = entrant_view(tour, house[0])
        assert view["kind"] == "entry" and view["at"] == starts
        assert view["message"] == "You are entered. The tournament starts at {at}."

        running = await _until(store, tid, lambda t: t.status == "running", 10)
        started = running.started_at
        assert started is not None and started >= read_time(starts)  # type: ignore[operator]
        # Round 1 is under way: the one with the bye is told so, in words.
        one = await _until(store, tid, lambda t: "1" in (t.settings.get("timetable") or {}), 5)
        boards = one.settings["timetable"]["1"]["boards"]
        (bye,) = [b[0] for b in boards if len(b) == 1]
        view = entrant_view(one, bye)
        assert view["kind"] == "bye" and view["round"] == 1 and view["rounds"] == 3
        # (Round 1 may be over by now, with round 2's time set: then the view names it too.)
        bye_said = "You have a bye this round: 0 points; your next game starts when round 2 does"
        if view.get("at"):
            assert view["message"] == bye_said + ", at {at}."
        else:
            assert view["message"] == bye_said + "."
        # Between rounds the next round's time is kept, and the view names it.
        paused = await _until(store, tid, lambda t: t.settings.get("next_round") or {}, 60)
        due = paused.settings["next_round"]
        ended = read_time(paused.settings["timetable"][str(due["round"] - 1)]["ended"])
        assert ended is not None
        assert read_time(due["at"]) == (ended + timedelta(seconds=1.0)).replace(microsecond=0) or (
            abs((read_time(due["at"]) - ended).total_seconds() - 1.0) < 1.0  # type: ignore[operator]
        )
        someone = entrant_view(paused, house[1])
        if someone["kind"] == "between":
            assert someone["at"] == due["at"]
            assert someone["message"].endswith(f"starts when round {due['round']} does, at {{at}}.")

        tour = await finished(store, tid, 90)
        assert tour.status == "finished"
        table = tour.settings["timetable"]
        assert sorted(table) == ["1", "2", "3"]
        for n in (2, 3):
            gap = read_time(table[str(n)]["started"]) - read_time(table[str(n - 1)]["ended"])  # type: ignore[operator]
            assert gap >= timedelta(seconds=0.5), table  # the pause (times kept to the second)
        assert len([g for g in tour.games if not g.board.bye]) == 3
        rows = tour.standings()
        first = entrant_view(tour, rows[0].name)
        assert first["kind"] == "over"
        assert first["message"].startswith("The tournament is over — you finished ")
        assert first["message"].endswith("of 3.")


def test_a_start_time_survives_a_restart_before_it(tmp_path: Path) -> None:
    """The hall that created it is gone (kill -9) before the start time; the next start of
    the hall takes it up and it starts by itself at its time."""
    import asyncio

    db = f"sqlite:///{tmp_path / 'hall.db'}"
    code = (
        "import asyncio, sys, os; from herna.hall.hall import Hall; from herna.hall.records "
        "import RecordStore; from herna.hall.tournament_live import LiveOptions\n"
        "from tests.onitama.test_live_tournament_timetable import _after\n"
        "async def main():\n"
        f"    h = Hall(records=RecordStore({db!r}))\n"
        "    d = h.hold_tournaments()\n"
        "    d.house_seats['onitama'] = lambda *a: None\n"
        "    starts = _after(5)\n"
        "    tid = d.create(LiveOptions('at five', 'onitama', 'round-robin', "
        "house=('easy', 'easy'), starts_at=starts, pause=0.5))[0]\n"
        "    print(tid, starts)\n"
        "    sys.stdout.flush(); os._exit(0)\n"
        "asyncio.run(main())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    tid_text, starts = out.stdout.split()
    tid = int(tid_text)

    async def go() -> Tournament:
        async with serving(tmp_path, "onitama", database_url=db, **HOUSE) as hall:
            store = TournamentStore(hall.records.engine)
            tour = store.get(tid)
            assert tour is not None and tour.status in ("entry", "running")
            return await finished(store, tid, 90)

    tour = asyncio.run(go())
    assert tour.status == "finished" and tour.started_at is not None
    assert tour.started_at >= read_time(starts)  # type: ignore[operator]
    assert json.loads(json.dumps(tour.settings["timetable"]))["1"]["started"]
