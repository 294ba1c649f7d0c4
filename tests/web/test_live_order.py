"""On the Live page a table that ends goes below the tables still playing (a walk found
finished tile games listed above the live ones). In Chromium, from the home page's Live link."""

from __future__ import annotations

import pytest

from herna.web.plugin import WebHall
from tests.web.conftest import Browser, screenshot_path

pytestmark = pytest.mark.browser

ORDER = "() => [...document.querySelectorAll('section.table')].map((s) => s.dataset.table)"


async def test_a_table_that_ends_goes_below_the_ones_playing(
    web: WebHall, browser: Browser
) -> None:
    bus, page = web.hall.bus, browser.page
    await page.goto(web.url + "/")
    await page.get_by_role("link", name="Live", exact=True).first.click()
    await page.wait_for_url("**/live")
    for table in ("first", "second", "third"):
        bus.emit("chess", table, "move", view={"fen": f"{table} 8/8/8/8/8/8/8/K6k w"})
        await page.locator(f'section.table[data-table="{table}"]').wait_for()
    assert await page.evaluate(ORDER) == ["third", "second", "first"]  # the newest on top
    bus.emit("chess", "third", "game_over", view={"fen": "over"}, result={})
    await page.wait_for_function(
        "() => document.querySelector('section.table[data-table=\"third\"]')"
        ".dataset.status === 'over'"
    )
    assert await page.evaluate(ORDER) == ["second", "first", "third"]
    bus.emit("chess", "fourth", "move", view={"fen": "fourth"})
    await page.locator('section.table[data-table="fourth"]').wait_for()
    assert await page.evaluate(ORDER) == ["fourth", "second", "first", "third"]
    await page.screenshot(path=screenshot_path("live-order"), full_page=True)
