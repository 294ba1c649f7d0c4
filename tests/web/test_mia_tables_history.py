"""The two Mia tables in the history: the bots' table (records ``round-N``) and the people's
table (``people-round-N``, its own numbers) play at once, so their rounds interleave; the
history keeps their sessions apart, a session opens to its own table's rounds only, and a
round's page and replay say where it was played and what happened in words."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from herna.hall.records import MatchRecord, RecordStore, new_key
from herna.hall.writer import write_records
from tests.web.conftest import start_web, stop_web
from tests.web.helpers import play_mia_round

START = datetime(2024, 6, 1, 19, 0, tzinfo=UTC)
BOTS = ["house-prob", "house-honest", "house-random"]
PEOPLE = ["ann", "Petra-bot", "Petra-bot2"]
WIRE = re.compile(r"\b(ROLL|SEE|ANNOUNCE)\b")


def _people_round(n: int, seed: int) -> MatchRecord:
    rec = play_mia_round(n, PEOPLE, seed=seed)
    rec.table_id = f"people-round-{n}"
    for p in rec.players:
        p.kind = "person" if p.name == "ann" else "house-bot"
    return rec


async def test_each_mia_table_has_its_own_sessions_and_words(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    store = RecordStore(url)
    batch: list[tuple[str, MatchRecord]] = []
    for i in range(30):  # three bots' rounds to every people's round, interleaved
        rec = play_mia_round(1000 + i, BOTS, seed=i)
        rec.started_at = rec.finished_at = START + timedelta(seconds=i)
        batch.append((new_key(), rec))
        if i % 3 == 2:
            rec = _people_round(i // 3 + 1, seed=100 + i)
            rec.started_at = rec.finished_at = START + timedelta(seconds=i, milliseconds=500)
            batch.append((new_key(), rec))
    write_records(store.engine, batch)
    store.close()
    hall, web = await start_web(url)
    try:
        async with httpx.AsyncClient(base_url=web.url, timeout=30) as http:
            api = (await http.get("/api/sessions")).json()
            by_table = {s["table"]: s for s in api["sessions"]}
            assert len(api["sessions"]) == 2 and set(by_table) == {"round", "people-round"}
            people = by_table["people-round"]
            assert people["rounds"] == 10
            assert {p["name"] for p in people["players"]} == set(PEOPLE)
            assert {p["name"] for p in by_table["round"]["players"]} == set(BOTS)

            page = (await http.get("/history", params={"game": "mia"})).text
            assert page.count("<tr data-session=") == 2
            assert "the people's table" in html.unescape(page)
            span = f"people-round.{people['first_id']}-{people['last_id']}"
            assert f'data-session="{span}"' in page
            rounds = await http.get("/history", params={"game": "mia", "session": span})
            assert rounds.status_code == 200
            ids = re.findall(r'<tr data-id="(\d+)"', rounds.text)
            assert len(ids) == 10  # the people's rounds only, not the bots' in between
            rows = re.findall(r'<tr data-id=".*?</tr>', rounds.text, re.S)
            assert rows and not any("house-prob" in row for row in rows)
            bad = await http.get("/history", params={"game": "mia", "session": "x%.1-2"})
            assert bad.status_code == 400

            match = (await http.get(f"/matches/{ids[0]}")).text
            assert "people's table, round 10" in html.unescape(match)
            steps = (await http.get(f"/api/matches/{ids[0]}/replay")).json()
            labels = [s["label"] for s in steps["steps"]]
            assert not any(WIRE.search(label) for label in labels), labels
            assert any(" rolls" in label for label in labels), labels

            player = (await http.get("/players/ann")).text
            assert "people's table, round" in html.unescape(player)
            assert "people-round-" not in player
    finally:
        await stop_web(hall)
