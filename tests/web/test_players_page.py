"""The Players page before a game is chosen shows each game's leaders (it said only "Pick a
game." before, an empty page for a newcomer who clicked Players), each with the way to the
whole standings. In Chromium, from the home page, at 390×844."""

from __future__ import annotations

import pytest

from herna.hall.records import MatchRecord, PlayerResult
from herna.web.plugin import WebHall
from herna.web.record_pages import LEADERS
from tests.web.conftest import Browser, screenshot_path
from tests.web.helpers import play_mia_round

pytestmark = pytest.mark.browser


def _onitama(i: int, winner: str, loser: str) -> MatchRecord:
    return MatchRecord(
        game="onitama",
        table_id=f"g{i}",
        players=[PlayerResult(0, winner, 1.0, True, "bot"), PlayerResult(1, loser, 0.0)],
        result={"winners": [winner], "reason": "way_of_the_stone"},
    )


async def test_players_shows_each_games_leaders_and_the_way_to_all(
    web: WebHall, browser: Browser
) -> None:
    store = web.hall.records
    people = [f"p{i}" for i in range(LEADERS + 3)]
    for i in range(12):
        store.save(play_mia_round(i + 1, people[i % 4 : i % 4 + 4], seed=11 + i))
    store.save(_onitama(1, "ann", "bob"))
    store.save(_onitama(2, "ann", "cid"))
    store.flush()
    page = browser.page
    await page.set_viewport_size({"width": 390, "height": 844})
    await page.goto(web.url + "/")
    await page.get_by_role("link", name="Players", exact=True).first.click()
    await page.wait_for_url("**/players")
    mia = page.locator("#leaders-mia")
    onitama = page.locator("#leaders-onitama")
    assert await mia.locator("tr").count() == LEADERS + 1  # a heading row and the first few
    assert await onitama.locator("tr").count() == 1 + 3
    first = await onitama.locator("tr").nth(1).inner_text()
    assert "ann" in first  # best first
    assert "Pick a game" not in await page.locator("main").inner_text()
    await page.screenshot(path=screenshot_path("players-leaders-390"), full_page=True)
    await mia.get_by_role("link", name="All standings: Mia").click()
    await page.wait_for_url("**/players?game=mia")
    assert await page.locator("#standings tr").count() == len(store.standings("mia")) + 1
