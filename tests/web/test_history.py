"""History per game with Mia sessions, its filters and paging, and the exports, over a real
socket and a SQLite database with 10,000 Mia rounds and a few games of every other game."""

from __future__ import annotations

import csv
import dataclasses
import io
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from herna.games.onitama.notation import parse_action, parse_position
from herna.games.onitama.state import OnitamaState
from herna.hall.records import MatchRecord, RecordStore, new_key
from herna.hall.writer import write_records
from herna.web.plugin import WebHall
from tests.records import at, marias_deal, onitama_game, tiles_game
from tests.web.conftest import start_web, stop_web
from tests.web.helpers import play_mia_round

DAY1 = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)
DAY2 = datetime(2024, 5, 2, 18, 0, tzinfo=UTC)

# Three Mia evenings: (players, start, rounds, seconds between rounds). The second and the
# third are the same day with a 2-hour pause, the third with other players.
EVENINGS = [
    (["alice", "bob", "carol"], DAY1, 6000, 2),
    (["alice", "bob", "dave"], DAY2, 3000, 2),
    (["bob", "carol"], DAY2 + timedelta(hours=3, minutes=40), 1000, 3),
]
MIA_ROUNDS = sum(n for _, _, n, _ in EVENINGS)


@dataclass
class Db:
    url: str
    ids: dict[str, list[int]]


def _build(path: Path) -> Db:
    url = f"sqlite:///{path}"
    store = RecordStore(url)
    ids: dict[str, list[int]] = {}
    templates: dict[tuple[str, ...], list[MatchRecord]] = {}
    batch: list[tuple[str, MatchRecord]] = []
    n = 0
    for players, start, rounds, step in EVENINGS:
        # A few dozen real rounds per table, replayed at other times (10,000 rounds in seconds).
        pool = templates.setdefault(
            tuple(players), [play_mia_round(i, players, seed=i) for i in range(40)]
        )
        for i in range(rounds):
            n += 1
            when = start + timedelta(seconds=i * step)
            # a copy of what differs (the writer only reads the rest, which is shared)
            rec = dataclasses.replace(
                pool[i % len(pool)],
                result={**pool[i % len(pool)].result, "round": n},
                meta=dict(pool[i % len(pool)].meta),
                started_at=when,
                finished_at=when,
            )
            batch.append((new_key(), rec))
            if len(batch) == 2000:
                write_records(store.engine, batch)
                batch = []
    write_records(store.engine, batch)
    others = [
        ("marias", at(marias_deal(3), DAY1 + timedelta(hours=1))),
        ("marias", at(marias_deal(4, ("bob", "carol", "dave")), DAY2 + timedelta(hours=1))),
        ("marias", at(marias_deal(5), DAY2 + timedelta(hours=2))),
        ("onitama", at(onitama_game(5), DAY1 + timedelta(hours=2))),
        ("onitama", at(onitama_game(6, "erin", "dave"), DAY2 + timedelta(hours=2))),
        ("tiles", at(tiles_game(7), DAY1 + timedelta(hours=3))),
        ("tiles", at(tiles_game(8, "labyrinth", ("carol", "erin")), DAY2 + timedelta(hours=3))),
    ]
    for game, rec in others:
        ids.setdefault(game, []).append(store.save(rec))
    store.close()
    return Db(url, ids)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Db:
    return _build(tmp_path_factory.mktemp("history") / "history.db")


@pytest.fixture
async def web(db: Db) -> AsyncIterator[WebHall]:
    hall, web = await start_web(db.url)
    yield web
    await stop_web(hall)


def _sections(html: str) -> list[str]:
    import re

    return re.findall(r'<section class="game-history" id="history-(\w+)"', html)


@pytest.mark.serial
async def test_history_is_per_game_with_mia_sessions(web: WebHall, db: Db) -> None:
    async with httpx.AsyncClient(base_url=web.url, timeout=30) as http:
        await http.get("/history")  # warm up (imports, the page cache of SQLite)
        start = time.perf_counter()
        page = await http.get("/history")
        elapsed = time.perf_counter() - start
        print(f"\n/history over {MIA_ROUNDS} Mia rounds + 7 other games: {elapsed * 1000:.0f} ms")
        assert page.status_code == 200
        html = page.text
        # Every game in its own section: the mariáš deals are not buried under Mia rounds.
        assert _sections(html) == ["marias", "mia", "onitama", "tiles"]
        assert "3 games" in html and f"{MIA_ROUNDS} rounds" in html
        # One Mia evening is one row: three sessions, newest first.
        api = (await http.get("/api/sessions")).json()
        assert [s["rounds"] for s in api["sessions"]] == [1000, 3000, 6000]
        assert api["more"] is False
        newest = api["sessions"][0]
        assert {p["name"] for p in newest["players"]} == {"bob", "carol"}
        assert sum(p["lost"] for p in newest["players"]) == 1000  # one loser per round
        assert html.count("<tr data-session=") == 3
        # Results in words, mariáš in its own terms.
        assert "played" in html and ("lost" in html or "won" in html)
        assert elapsed < 3.0

        # The session opens to its rounds.
        link = f"{newest['first_id']}-{newest['last_id']}"
        rounds = await http.get("/history", params={"game": "mia", "session": link})
        assert rounds.status_code == 200
        assert rounds.text.count('<tr data-id="') == 50
        assert "older →" in rounds.text
        assert f"rounds #{newest['first_id']} to #{newest['last_id']}" in rounds.text
        ids = [int(x) for x in _ids(rounds.text)]
        assert max(ids) == newest["last_id"] and min(ids) >= newest["first_id"]


def _ids(html: str) -> list[str]:
    import re

    return re.findall(r'<tr data-id="(\d+)"', html)


async def test_history_filters_and_paging(web: WebHall, db: Db) -> None:
    async with httpx.AsyncClient(base_url=web.url, timeout=30) as http:
        # Player: dave played one Mia evening, one deal, one Onitama game.
        html = (await http.get("/history", params={"player": "dave"})).text
        assert _sections(html) == ["marias", "mia", "onitama"]
        sessions = (await http.get("/api/sessions", params={"player": "dave"})).json()
        assert [s["rounds"] for s in sessions["sessions"]] == [3000]
        # Date: May 1st holds the first evening and one game of each other game.
        day = {"since": "2024-05-01", "until": "2024-05-01"}
        html = (await http.get("/history", params=day)).text
        assert _sections(html) == ["marias", "mia", "onitama", "tiles"]
        assert html.count("<tr data-session=") == 1
        total = (await http.get("/api/matches", params=day)).json()["total"]
        assert total == 6000 + 3
        # Game + paging: Mia sessions one per page.
        p1 = (await http.get("/api/sessions", params={"limit": 1})).json()
        p2 = (await http.get("/api/sessions", params={"limit": 1, "offset": 1})).json()
        p3 = (await http.get("/api/sessions", params={"limit": 1, "offset": 2})).json()
        assert [p["more"] for p in (p1, p2, p3)] == [True, True, False]
        assert p1["sessions"][0]["rounds"] == 1000 and p3["sessions"][0]["rounds"] == 6000
        # A smaller gap splits the evenings that had a pause: 3 s between rounds is too long
        # for a 1-minute gap? No: 1 minute still holds them; only the 2-hour pause splits.
        assert len((await http.get("/api/sessions", params={"gap": 1})).json()["sessions"]) == 3
        page = await http.get("/history", params={"game": "onitama"})
        assert _sections(page.text) == ["onitama"] and len(_ids(page.text)) == 2
        # Result: who won / lost, and statuses.
        won = (await http.get("/api/matches", params={"player": "dave", "result": "won"})).json()
        lost = (await http.get("/api/matches", params={"player": "dave", "result": "lost"})).json()
        everything = (await http.get("/api/matches", params={"player": "dave"})).json()
        assert won["total"] + lost["total"] == everything["total"]
        for m in won["matches"]:
            assert any(p["name"] == "dave" and p["winner"] for p in m["players"])
            assert m["summary"]
        html = (await http.get("/history", params={"player": "dave", "result": "lost"})).text
        assert "<tr data-session=" in html or "No session" in html
        bad = await http.get("/api/matches", params={"result": "won"})
        assert bad.status_code == 400 and "player" in bad.json()["error"]
        bad = await http.get("/history", params={"result": "maybe"})
        assert bad.status_code == 400
        bad = await http.get("/history", params={"game": "mia", "session": "9-1"})
        assert bad.status_code == 400
        aborted = (await http.get("/api/matches", params={"result": "aborted"})).json()
        assert all(m["status"] == "aborted" for m in aborted["matches"])


async def test_exports(web: WebHall, db: Db) -> None:
    async with httpx.AsyncClient(base_url=web.url, timeout=30) as http:
        # A match as one JSON document.
        for game, ids in db.ids.items():
            doc = (await http.get(f"/api/matches/{ids[0]}/export")).json()
            assert doc["schema"] == "herna-match/1"
            assert doc["match"]["id"] == ids[0] and doc["match"]["game"] == game
            assert "events" not in doc["match"]  # no raw log: it holds every deal
            assert doc["summary"] and doc["text"] and doc["replay"]["steps"]
            assert (doc["notation"] is not None) == (game == "onitama")
        marias = (await http.get(f"/api/matches/{db.ids['marias'][0]}/export")).json()
        assert any(line.startswith("Licitace") for line in marias["text"])
        assert any(line.startswith("Štych") for line in marias["text"])

        # Onitama as a game record another program can read: replaying the moves from the
        # [Cards] tag on the rules engine ends in the recorded result.
        for match_id in db.ids["onitama"]:
            text = (await http.get(f"/api/matches/{match_id}/text")).text
            tags = dict(
                line[1:-1].split(" ", 1) for line in text.splitlines() if line.startswith("[")
            )
            tags = {k: v.strip('"') for k, v in tags.items()}
            white, black, spare = tags["Cards"].split(",")[:2], tags["Cards"].split(",")[2:4], ""
            spare = tags["Cards"].split(",")[4]
            state = OnitamaState.setup(white, black, spare)
            body = " ".join(line for line in text.splitlines() if line and line[0] != "[")
            words = body.split()
            moves = []
            i = 0
            while i < len(words):
                w = words[i]
                if w.endswith(".") or w in ("1-0", "0-1", "*"):
                    i += 1
                    continue
                moves.append(f"{w} {words[i + 1]}")
                i += 2
            for move in moves:
                state = state.apply(parse_action(move))
            assert state.is_terminal()
            assert {"1-0": 0, "0-1": 1}[tags["Result"]] == state.winner
            match = (await http.get(f"/api/matches/{match_id}")).json()
            assert match["result"]["details"]["plies"] == len(moves)
        assert parse_position  # the notation module reads positions too

        # A player's results as CSV.
        response = await http.get("/api/players/dave/results.csv")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(response.text)))
        assert len(rows) == 3000 + 2 + 1
        assert {r["game"] for r in rows} == {"mia", "marias", "onitama"}
        assert all(r["player"] == "dave" and r["result"] for r in rows)
        few = await http.get("/api/players/dave/results.csv", params={"game": "marias"})
        assert len(list(csv.DictReader(io.StringIO(few.text)))) == 1
