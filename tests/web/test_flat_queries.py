"""No page reads the whole record (issue 28): every query the pages a visitor opens run over a
real SQLite file is answered from an index — SQLite's own ``EXPLAIN QUERY PLAN`` of each
statement shows no scan of the matches or their players (a count, a DISTINCT or an IN list
over every game played), so their cost does not grow with the record (bench/web_flat.py
measures it at 10,000 to 1,000,000 matches)."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import event

from herna.hall.records import MatchRecord, PlayerResult
from herna.hall.writer import write_records
from herna.web.plugin import WebHall

PAGES = (
    "/",
    "/history",
    "/history?game=onitama",
    "/history?game=mia",
    "/history?game=onitama&offset=10",
    "/players",
    "/players?game=mia",
    "/players/house",
    "/players/anna",
    "/matches/3",
    "/status",
    "/api/live",
    "/api/games",
    "/api/players?prefix=an",
    "/api/players/anna",
)
WHOLE_RECORD = re.compile(r"^SCAN (matches|match_players)\b|LIST SUBQUERY")
"""A plan line that reads every match (or player row), or gathers a player's every game."""


def _fill(web: WebHall) -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    records = []
    for i in range(1, 121):
        game = "onitama" if i % 3 == 0 else "mia"
        names = ["house", "anna" if i % 4 == 0 else f"p{i % 5}"]
        records.append(
            (
                f"k{i}",
                MatchRecord(
                    game=game,
                    table_id=f"round-{i}" if game == "mia" else f"g{i}",
                    players=[PlayerResult(s, n, float(s == i % 2)) for s, n in enumerate(names)],
                    result={"returns": [float(s == i % 2) for s in range(2)]},
                    finished_at=start + timedelta(minutes=i),
                ),
            )
        )
    write_records(web.hall.records.engine, records)


async def test_the_pages_queries_are_index_driven(web: WebHall) -> None:
    _fill(web)
    engine = web.hall.records.engine
    seen: list[tuple[str, Any]] = []

    def note(conn: Any, cursor: Any, statement: str, params: Any, *rest: Any) -> None:
        seen.append((statement, params))

    event.listen(engine, "before_cursor_execute", note)
    try:
        async with httpx.AsyncClient(base_url=web.url) as client:
            for path in PAGES:
                assert (await client.get(path)).status_code == 200, path
    finally:
        event.remove(engine, "before_cursor_execute", note)
    database = engine.url.database
    assert database
    plans: dict[str, list[str]] = {}
    with sqlite3.connect(database) as db:
        for statement, params in seen:
            if statement.lstrip().upper().startswith(("SELECT", "WITH")):
                rows = db.execute("EXPLAIN QUERY PLAN " + statement, params or ()).fetchall()
                plans[" ".join(statement.split())] = [str(r[-1]) for r in rows]
    reading = any("FROM matches" in s for s in plans)
    assert reading and len(plans) > 10  # the pages did read the record
    whole = {s[:200]: p for s, p in plans.items() if any(WHOLE_RECORD.search(x) for x in p)}
    assert whole == {}
