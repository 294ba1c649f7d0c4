"""The play page of a tile game in words (a newcomer saw the rules file's ``'reach 3 0'`` in
"What happened" and players numbered from 0): goals read as the Players panel says them and
players are numbered from 1, from the home page by clicks."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tests.web.conftest import Browser, browser
from tests.web.test_play_tiles import MY_TURN_OR_OVER, PHASE, play_one, tiles_hall

pytestmark = pytest.mark.browser
__all__ = ["browser"]

CODES = re.compile(r"\b[URDL]\d\b|\(\d+, \d+\)|tile\(s\)|'reach|reach \d|\bplayer 0\b")


async def test_tiles_play_page_says_goals_and_players_in_words(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path, max_rounds=60) as h:
        page = browser.page
        await page.set_viewport_size({"width": 1280, "height": 800})
        await page.goto(h.url + "/")
        await page.get_by_role("link", name="Play a tile game").click()
        await page.wait_for_function(f"() => {PHASE} === 'setup'")
        await page.select_option("#tp-rules", "dungeon")
        await page.click("#tp-sit")
        await page.wait_for_function(f"() => {PHASE} === 'game'")
        rnd = random.Random(5)
        for turn in range(10):
            if turn == 4:  # a watcher of the live table reads the same words
                watcher = await browser.page.context.browser.new_page()
                await watcher.goto(h.url + "/")
                await watcher.locator("header").get_by_role("link", name="Live").click()
                await watcher.locator('section.card.table[data-game="tiles"] h3 a').first.click()
                side = watcher.locator(".tiles-side").first
                await side.wait_for()
                await watcher.wait_for_timeout(500)  # the next action's line
                live = await side.inner_text()
                await watcher.screenshot(path="/tmp/tiles-words-live-1280.png", full_page=True)
                await watcher.close()
                assert not CODES.search(live), live
                assert "Goals: " in live and "; collect 2 gold; " in live, live
                assert re.search(r"^(▶ )?1 ", live, re.M), live
            await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
            if await page.evaluate(PHASE) == "over":
                break
            await play_one(page, rnd)
        players = await page.locator(".tp-players").inner_text()
        happened = await page.locator("#play-moves").inner_text()
        await page.screenshot(path="/tmp/tiles-words-play-1280.png", full_page=True)
        assert happened.strip(), "nothing in What happened"
        for text in (players, happened):
            assert not CODES.search(text), CODES.search(text)
        numbers = await page.locator(".tp-player b").all_inner_texts()
        assert [n.split(" ", 1)[0] for n in numbers] == [str(i + 1) for i in range(len(numbers))], (
            numbers
        )
        assert "reach the tile in column 4, row 4" in players  # dungeon's last goal, from 1
        assert browser.errors == []
