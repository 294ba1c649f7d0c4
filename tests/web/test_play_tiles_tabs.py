"""The tile play page's setup form, second tabs and Play again (real Chromium, from the home
page): a form read for longer than the server's login timeout still sits the person down, a
refusal is said in words, a second tab of a seated guest says where the seat is, a reload
mid-turn keeps the clock, no stray "null" by the spare tile, and Play again keeps the choices."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Browser, screenshot_path
from tests.web.test_play_tiles import MY_TURN_OR_OVER, PHASE, Frames, table_of, tiles_hall

pytestmark = pytest.mark.browser

GAME = f"() => {PHASE} === 'game'"
OVER = f"() => {PHASE} === 'over'"
SETUP = f"() => {PHASE} === 'setup'"
TAKEN_OVER = "This seat was taken over by another tab or window; play on there."


async def two_tabs(browser: Browser, width: int, height: int) -> tuple[Browser, Browser]:
    """Two tabs of one browser (one guest: the same cookie and localStorage)."""
    context = await browser.page.context.browser.new_context(
        viewport={"width": width, "height": height}
    )
    return Browser(await context.new_page()), Browser(await context.new_page())


async def to_the_form(page: Any, url: str) -> None:
    await page.goto(url + "/")
    await page.get_by_role("link", name="Play a tile game").click()
    await page.wait_for_url("**/play/tiles")
    await page.wait_for_function(SETUP)


async def choose(page: Any, rules: str, players: int, who: str = "bots", level: str = "") -> None:
    await page.select_option("#tp-rules", rules)
    await page.select_option("#tp-players", str(players))
    await page.check(f'input[name="who"][value="{who}"]')
    if level:
        await page.select_option("#tp-level", level)


async def test_a_second_tab_and_a_form_read_past_the_login_timeout(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path, bot_delay=0.5, login_timeout=1.5) as h:
        one, two = await two_tabs(browser, 1280, 800)
        first, second = one.page, two.page
        await to_the_form(first, h.url)
        await choose(first, "tsuro", 2)
        await first.click("#tp-sit")
        await first.wait_for_function(GAME)
        guest = str(await first.locator("#play-name").inner_text())
        # a second tab of the same guest: it says where the seat is, the first tab plays on
        await second.goto(h.url + "/play/tiles")
        await second.wait_for_function(f"() => {PHASE} === 'gone'")
        assert await second.locator("#play-status").inner_text() == TAKEN_OVER
        await second.screenshot(path=screenshot_path("tiles-second-tab-1280"), full_page=True)
        await asyncio.sleep(2.5)  # past the login timeout: still said, nothing else
        assert await second.locator("#play-status").inner_text() == TAKEN_OVER
        assert await first.evaluate(PHASE) == "game"
        table = table_of(h.tiles, guest)
        assert table is not None and any(s is not None and s.client for s in table.seats)
        await first.locator("#play-resign").click()
        await first.locator("#play-resign-yes").click()
        await first.wait_for_function(OVER)
        await first.close()
        # the form read for longer than the login timeout still sits the person down
        await second.reload()
        await second.wait_for_function(SETUP)
        await choose(second, "gold_rush", 2)
        await asyncio.sleep(3.5)
        assert "Connection lost" not in await second.locator("#play-note").inner_text()
        await second.click("#tp-sit")
        await second.wait_for_function(GAME)
        assert "Connection lost" not in await second.locator("#play-note").inner_text()
        assert one.errors == [] and two.errors == []


async def test_a_refusal_at_sit_down_is_said_in_words(tmp_path: Path, browser: Browser) -> None:
    async with tiles_hall(tmp_path) as h:
        one, two = await two_tabs(browser, 390, 844)
        first, second = one.page, two.page
        await to_the_form(first, h.url)
        await choose(first, "tsuro", 2, who="people")
        await first.click("#tp-sit")
        await first.wait_for_function(f"() => {PHASE} === 'seated'")
        guest = str(await first.locator("#play-name").inner_text())
        await to_the_form(second, h.url)
        await choose(second, "tsuro", 2)
        await second.click("#tp-sit")
        problem = second.locator("#tp-problems p.error")
        await problem.wait_for()
        text = await problem.inner_text()
        assert text.startswith(f"You are playing as {guest} in another tab or window"), text
        assert await second.evaluate(PHASE) == "setup"
        await second.screenshot(path=screenshot_path("tiles-name-taken-390"), full_page=True)
        assert one.errors == [] and two.errors == []


async def test_no_null_by_the_spare_tile_when_an_arrow_is_pointed_at(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path, bot_delay=0.2) as h:
        page = browser.page
        await page.set_viewport_size({"width": 1280, "height": 800})
        await to_the_form(page, h.url)
        await choose(page, "labyrinth", 2)
        await page.click("#tp-sit")
        await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        assert await page.evaluate("document.getElementById('play').dataset.action") == "push"
        await page.locator("polygon.tp-arrow").first.hover()
        picker = await page.locator("#tp-picker").inner_text()
        assert "null" not in picker, picker
        assert picker.lstrip().startswith("Spare tile:"), picker
        assert await page.locator("#tp-picker button.tp-rotate").count() in (0, 2)
        await page.screenshot(path=screenshot_path("tiles-spare-tile-1280"), full_page=True)
        assert browser.errors == []


async def test_play_again_seats_the_person_with_the_same_choices(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path, bot_delay=0.5) as h:
        page = browser.page
        await page.set_viewport_size({"width": 1280, "height": 800})
        frames = Frames().watch(page)
        await to_the_form(page, h.url)
        await choose(page, "gold_rush", 2, level="easy")
        await page.click("#tp-sit")
        await page.wait_for_function(GAME)
        guest = str(await page.locator("#play-name").inner_text())
        old = table_of(h.tiles, guest)
        assert old is not None
        await page.locator("#play-resign").click()
        await page.locator("#play-resign-yes").click()
        await page.wait_for_function(OVER)
        await page.locator("#play-next").click()
        await page.wait_for_function(GAME)
        table = table_of(h.tiles, guest)
        assert table is not None and table is not old
        assert table.rules == old.rules and len(table.seats) == 2
        joins = [f for f in frames.sent if f["type"] == "join"]
        assert len(joins) == 2 and joins[0] == joins[1]
        assert "level=easy" in joins[1]["seek"] and "opponent=bots" in joins[1]["seek"]
        await page.screenshot(path=screenshot_path("tiles-play-again-1280"), full_page=True)
        assert browser.errors == []
