"""The web hall's tournament pages: list, standings with named tie-breaks, crosstable with
replay links, CSV/JSON exports, and a running tournament followed without a reload
(chromium, 1280 and 390 px)."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from herna.cli import main
from herna.hall.db import make_engine
from herna.hall.tournament import Board, Game
from herna.hall.tournament_store import Entrant, TournamentStore

from .conftest import Browser, screenshot_path, start_web, stop_web

BOTS = ["house:random", "house:greedy", "house:alphabeta:1", "house:alphabeta:2"]


@pytest.fixture
def played(tmp_path: Path) -> tuple[str, dict[str, Any]]:
    """A database holding a finished four-bot Onitama round robin (played for real)."""
    db = f"sqlite:///{tmp_path / 'hall.db'}"
    out = tmp_path / "t.json"
    argv = ["tournament", "run", "--game", "onitama", "--seed", "11", *BOTS]
    assert main([*argv, "--database-url", db, "--json", str(out)]) == 0
    return db, json.loads(out.read_text())


async def test_pages_show_standings_crosstable_replays_and_exports(
    played: tuple[str, dict[str, Any]],
) -> None:
    db, result = played
    hall, web = await start_web(db)
    try:
        async with httpx.AsyncClient(base_url=web.url) as http:
            listing = await http.get("/tournaments")
            assert listing.status_code == 200
            tid = result["id"]
            assert f'href="/tournaments/{tid}"' in listing.text
            home = await http.get("/")
            assert 'href="/tournaments"' in home.text

            page = await http.get(f"/tournaments/{tid}")
            assert page.status_code == 200
            text = page.text
            assert "Sonneborn–Berger" in text and "Wins" in text  # tie-breaks named
            for row in result["standings"]:
                assert f">{row['name']}</a>" in text
            links = set(re.findall(r'href="/matches/(\d+)"', text))
            assert links == {str(g["match_id"]) for g in result["games"]}
            boards = {str(g["match_id"]): (g["round"], g["board"]) for g in result["games"]}
            for match_id in links:
                replay = await http.get(f"/matches/{match_id}")
                assert replay.status_code == 200
                # ... and each replay links back to its tournament, round and board.
                rnd, board = boards[match_id]
                assert (
                    f'A game of <a href="/tournaments/{tid}">{result["name"]}</a>: '
                    f"round {rnd}, board {board}." in replay.text
                )

            exported = await http.get(f"/tournaments/{tid}/table.csv")
            assert exported.headers["content-type"].startswith("text/csv")
            rows = list(csv.DictReader(io.StringIO(exported.text)))
            assert [r["name"] for r in rows] == [r["name"] for r in result["standings"]]
            assert sum(float(r["points"]) for r in rows) == 6  # six games, a point each
            as_json = (await http.get(f"/tournaments/{tid}/table.json")).json()
            assert as_json["standings"] == result["standings"]
            assert as_json["crosstable"] == result["crosstable"]

            assert (await http.get("/tournaments/999")).status_code == 404
            assert (await http.get("/tournaments/abc")).status_code == 404
            assert (await http.get("/tournaments/999/table.csv")).status_code == 404
    finally:
        await stop_web(hall)


async def test_running_tournament_follows_games_without_reload(
    tmp_path: Path, browser: Browser
) -> None:
    db = f"sqlite:///{tmp_path / 'live.db'}"
    store = TournamentStore(make_engine(db))
    names = ["ann", "bob", "cyd", "dee"]
    tid = store.create(
        "Evening blitz",
        "onitama",
        "round-robin",
        [Entrant(n, "bot", f"house:random # {n}") for n in names],
        {"seed": 1, "table_size": 2},
    )
    store.add_game(tid, Game(Board(1, 1, ("ann", "bob")), (1.0, 0.0)))
    hall, web = await start_web(db)
    page = browser.page
    try:
        await page.goto(f"{web.url}/tournaments/{tid}")
        await page.wait_for_selector("#live-note")
        await page.evaluate("window.__sameDocument = true")
        store.add_game(tid, Game(Board(1, 2, ("cyd", "dee")), (0.0, 1.0)))
        store.finish(tid)
        await page.wait_for_selector("#tournament-body[data-status='finished']")
        assert await page.evaluate("window.__sameDocument === true")  # no reload
        standings = await page.inner_text("#standings")
        assert "dee" in standings and "cyd" in standings
        assert await page.locator("#live-note").count() == 0
        await page.screenshot(path=screenshot_path("tournament-1280"), full_page=True)
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.goto(f"{web.url}/tournaments/{tid}")
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390  # nothing wider than the phone's screen
        await page.screenshot(path=screenshot_path("tournament-390"), full_page=True)
        await page.goto(f"{web.url}/tournaments")
        assert await page.evaluate("document.documentElement.scrollWidth") <= 390
        await page.screenshot(path=screenshot_path("tournaments-390"), full_page=True)
        assert browser.errors == []
    finally:
        await stop_web(hall)
        store.engine.dispose()


async def test_real_tournament_page_at_phone_width(
    played: tuple[str, dict[str, Any]], browser: Browser
) -> None:
    db, result = played
    hall, web = await start_web(db)
    page = browser.page
    try:
        await page.goto(f"{web.url}/tournaments/{result['id']}")
        await page.screenshot(path=screenshot_path("tournament-played-1280"), full_page=True)
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.goto(f"{web.url}/tournaments/{result['id']}")
        assert await page.evaluate("document.documentElement.scrollWidth") <= 390
        await page.screenshot(path=screenshot_path("tournament-played-390"), full_page=True)
        # A crosstable cell leads to the game's replay.
        await page.click("#crosstable a[href^='/matches/']")
        await page.wait_for_url(re.compile(r"/matches/\d+$"))
        await asyncio.sleep(0)
        assert browser.errors == []
    finally:
        await stop_web(hall)


async def test_a_bots_versions_are_rated_and_charted_apart(
    tmp_path: Path, browser: Browser
) -> None:
    db = f"sqlite:///{tmp_path / 'versions.db'}"
    argv = ["tournament", "run", "--game", "onitama", "--cycles", "2", "--seed", "2"]
    bots = ["mybot.1=house:random", "mybot.2=house:alphabeta:1", "house:greedy"]
    assert await asyncio.to_thread(main, [*argv, *bots, "--database-url", db]) == 0
    engine = make_engine(db)
    with engine.connect() as conn:
        points = conn.execute(
            text("SELECT name, games FROM rating_points WHERE game = 'onitama'")
        ).all()
    engine.dispose()
    assert {name for name, _ in points} == {"mybot.1", "mybot.2", "greedy"}
    hall, web = await start_web(db)
    try:
        async with httpx.AsyncClient(base_url=web.url) as http:
            page = (await http.get("/players/mybot.2")).text
            assert 'class="rating-chart"' in page and "onitama" in page
            older = (await http.get("/players/mybot.1")).text
            assert 'class="rating-chart"' in older
            # Each version's page lists the other versions with their ratings.
            for body in (page, older):
                start = body.index('id="versions"')
                table = body[start : body.index("</table>", start)]
                assert 'href="/players/mybot.1"' in table and 'href="/players/mybot.2"' in table
                assert "greedy" not in table
        page = browser.page
        await page.goto(f"{web.url}/players/mybot.2")
        await page.screenshot(path=screenshot_path("player-ratings-1280"), full_page=True)
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.goto(f"{web.url}/players/mybot.2")
        await page.screenshot(path=screenshot_path("player-ratings-390"), full_page=True)
        assert browser.errors == []
    finally:
        await stop_web(hall)


async def test_names_are_escaped_on_tournament_pages(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'esc.db'}"
    store = TournamentStore(make_engine(db))
    evil = '<img src=x onerror="alert(1)">'
    tid = store.create(evil, "onitama", "swiss", [Entrant(evil, "bot", evil)], {})
    store.add_game(tid, Game(Board(1, 1, (evil,))))
    hall, web = await start_web(db)
    try:
        async with httpx.AsyncClient(base_url=web.url) as http:
            for path in ("/tournaments", f"/tournaments/{tid}"):
                body = (await http.get(path)).text
                assert "<img src=x" not in body and "&lt;img src=x" in body
            exported = (await http.get(f"/tournaments/{tid}/table.csv")).text
            assert "\n1,'" not in exported and "<img" in exported  # not a formula: starts "<"
    finally:
        await stop_web(hall)
        store.engine.dispose()


async def test_mia_session_page_shows_the_scoreboard_and_its_rounds(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'mia.db'}"
    argv = ["tournament", "run", "--game", "mia", "--format", "session", "--duration", "1.5"]
    bots = ["house:random", "house:honest", "house:probability"]
    out = tmp_path / "s.json"
    code = await asyncio.to_thread(main, [*argv, *bots, "--database-url", db, "--json", str(out)])
    assert code == 0
    result = json.loads(out.read_text())
    hall, web = await start_web(db)
    try:
        async with httpx.AsyncClient(base_url=web.url) as http:
            page = (await http.get(f"/tournaments/{result['id']}")).text
            assert "Scoreboard" in page and "Mia session" in page
            for row in result["standings"]:
                assert f"<strong>{row['points']}</strong>" in page
            link = re.search(r'href="(/history\?game=mia&amp;session=round\.\d+-\d+)"', page)
            assert link is not None
            rounds = await http.get(link.group(1).replace("&amp;", "&"))
            assert rounds.status_code == 200 and "/matches/" in rounds.text
            # While it runs, the page says so and shows the scores made so far.
            store = TournamentStore(hall.records.engine)
            tid = store.create("live", "mia", "session", [Entrant("ann", "bot", "x")], {})
            store.update_settings(tid, scores={"ann": 17})
            live = (await http.get(f"/tournaments/{tid}")).text
            assert 'id="live-note"' in live and "<strong>17</strong>" in live
    finally:
        await stop_web(hall)


async def test_a_live_tournament_shows_when_it_was_created_and_when_it_started(
    tmp_path: Path,
) -> None:
    """It takes entrants between the two: "started" used to show the creation time."""
    db = f"sqlite:///{tmp_path / 'live.db'}"
    store = TournamentStore(make_engine(db))
    tid = store.create("Class contest", "onitama", "swiss", [], {"live": True}, status="entry")
    hall, web = await start_web(db)
    try:
        async with httpx.AsyncClient(base_url=web.url) as http:
            page = (await http.get(f"/tournaments/{tid}")).text
            assert "created <time" in page and "started <time" not in page
            await asyncio.sleep(1.1)
            store.set_status(tid, "running")
            tour = store.get(tid)
            assert tour is not None and tour.started_at is not None
            page = (await http.get(f"/tournaments/{tid}")).text
            shown = re.findall(r"(created|started) <time datetime=\"([^\"]+)\"", page)
            assert [k for k, _ in shown] == ["created", "started"]
            assert shown[0][1] == tour.created_at.isoformat()
            assert shown[1][1] == tour.started_at.isoformat() != shown[0][1]
            listing = (await http.get("/tournaments")).text
            assert tour.started_at.isoformat() in listing
            data = (await http.get(f"/tournaments/{tid}/table.json")).json()
            assert data["started_at"] == tour.started_at.isoformat()
    finally:
        await stop_web(hall)
