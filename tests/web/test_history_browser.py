"""The history page in real Chromium at desktop and phone widths: sections per game, Mia
sessions opening to their rounds, and no horizontal scrolling."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from herna.web.plugin import WebHall
from tests.records import at, marias_deal, mia_round, onitama_game, tiles_game
from tests.web.conftest import Browser, screenshot_path

pytestmark = pytest.mark.browser

T0 = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)


async def test_history_page_at_1280_and_390(web: WebHall, browser: Browser) -> None:
    store = web.hall.records
    for i in range(80):
        players = ["alice", "bob", "carol"] if i < 50 else ["bob", "a-rather-long-player-name"]
        gap = timedelta(hours=2) if i >= 50 else timedelta()
        store.save(mia_round(i + 1, players, i, T0 + timedelta(seconds=20 * i) + gap))
    store.save(at(marias_deal(3), T0))
    store.save(at(onitama_game(5), T0))
    store.save(at(tiles_game(7), T0))
    page = browser.page
    for width in (1280, 390):
        await page.set_viewport_size({"width": width, "height": 900})
        await page.goto(web.url + "/history")
        for game in ("marias", "mia", "onitama", "tiles"):
            await page.locator(f"section#history-{game}").wait_for()
        assert await page.locator("#history-mia tr[data-session]").count() == 2
        scroll = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert scroll[0] <= scroll[1], (width, scroll)
        await page.screenshot(path=screenshot_path(f"history-{width}"), full_page=True)

        # A session opens to its rounds.
        await page.locator("#history-mia tr[data-session] a").first.click()
        await page.wait_for_url("**session=*")
        assert await page.locator("#history-mia tr[data-id]").count() == 30
        scroll = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert scroll[0] <= scroll[1], (width, scroll)
        await page.screenshot(path=screenshot_path(f"history-session-{width}"), full_page=True)

        # Filters through the form.
        await page.goto(web.url + "/history")
        await page.fill("input[name=player]", "carol")
        await page.select_option("select[name=result]", "won")
        await page.click("form.filters button[type=submit]")
        await page.wait_for_url("**result=won*")
        assert await page.locator("section.game-history").count() >= 1
    assert browser.errors == []
