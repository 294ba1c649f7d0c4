"""The season table on the web (ticked on the tournament list, or ``?ids=``), its CSV, and
printed result sheets: in Chromium's print mode no navigation, forms or buttons, and the
table fits an A4 page. Also a live tournament's start time and timetable on the new
tournament form and the tournament page, and one entrant's view as JSON."""

from __future__ import annotations

import re

import httpx
import pytest

from herna.hall.tournament import Board, Game
from herna.hall.tournament_store import Entrant, TournamentStore
from herna.web.plugin import WebHall
from tests.web.conftest import Browser, screenshot_path

pytestmark = pytest.mark.browser

A4_WIDTH = 718
"""CSS pixels across an A4 page inside 12 mm margins (186 mm at 96 per inch, rounded down)."""


def _stored(web: WebHall) -> list[int]:
    store = TournamentStore(web.hall.records.engine)
    class_list = ["ada", "ben", "cleo", "dan", "eva", "filip"]
    ids = []
    for n, name in enumerate(("Autumn 1", "Autumn 2", "Autumn 3")):
        tid = store.create(name, "onitama", "round-robin", [], {"table_size": 2})
        for who in class_list:
            store.add_entrant(tid, Entrant(who, "person", "on the entry list"))
        for i, (a, b) in enumerate(zip(class_list[::2], class_list[1::2], strict=True)):
            first = (i + n) % 2 == 0
            store.add_game(tid, Game(Board(1, i + 1, (a, b)), (1.0, 0.0) if first else (0.0, 1.0)))
        store.finish(tid)
        ids.append(tid)
    return ids


async def test_a_season_table_of_ticked_tournaments_prints_on_one_a4_sheet(
    web: WebHall, browser: Browser
) -> None:
    ids = _stored(web)
    page = browser.page
    await page.goto(web.url + "/tournaments")
    for tid in ids:
        await page.check(f"input[name=ids][value='{tid}']")
    await page.fill("#season-name", "Class 4B, autumn")
    await page.click("#season-go")
    await page.wait_for_selector("#season-table")
    assert await page.locator("h1").inner_text() == "Class 4B, autumn"
    rows = await page.locator("#season-table tbody tr").all_inner_texts()
    assert len(rows) == 6 and rows[0].split("\t")[:3] == ["1", "ada", "2"]
    heads = await page.locator("#season-table thead th").all_inner_texts()
    assert heads[3:6] == [f"#{tid}" for tid in ids]
    await page.screenshot(path=screenshot_path("season-1280"), full_page=True)

    async with httpx.AsyncClient(base_url=web.url) as http:
        csv = await http.get(f"/tournaments/season.csv?ids={','.join(map(str, ids))}")
        assert csv.status_code == 200 and csv.text.startswith("rank,name,points,#")
        assert (await http.get("/tournaments/season?ids=1,99999")).status_code == 404
        assert (await http.get("/tournaments/season?ids=x")).status_code == 400
        entrant = (await http.get(f"/tournaments/{ids[0]}/entrant.json?name=ben")).json()
        assert entrant["message"] == "The tournament is over — you finished shared 4th of 6."

    # Printed: the table alone, on one A4 page.
    await page.set_viewport_size({"width": A4_WIDTH, "height": 1000})
    await page.emulate_media(media="print")
    for hidden in ("header nav", "#print-sheet", "#season-csv"):
        assert not await page.locator(hidden).is_visible(), hidden
    width = await page.evaluate("document.getElementById('season-table').scrollWidth")
    assert width <= A4_WIDTH
    await page.screenshot(path=screenshot_path("season-print"), full_page=True)
    pdf = await page.pdf(format="A4", print_background=False)
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 1  # one A4 page

    # A tournament's own result sheet prints without its navigation and exports either.
    await page.emulate_media(media="screen")
    await page.set_viewport_size({"width": 1280, "height": 800})
    await page.goto(f"{web.url}/tournaments/{ids[0]}")
    assert await page.locator("#print-sheet").is_visible()
    await page.emulate_media(media="print")
    assert not await page.locator("header nav").is_visible()
    assert not await page.locator("#games").is_visible()
    assert await page.locator("#standings").is_visible()
    assert await page.locator("#crosstable").is_visible()
    assert browser.errors == []
