"""The engine review of an Onitama game a person played, from the home page (real Chromium):
play against a house bot, resign, follow the result panel's review link, and see the chart
and the counts once the worker has computed it; then the replay page's link to it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import TimeoutError as PlaywrightTimeout

from herna.hall.reviews import ReviewStore
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import play_hall, play_one, sit_down, wait_my_turn

pytestmark = pytest.mark.browser

IN_GAME = "() => document.getElementById('play')?.dataset.phase === 'game'"
OVER = "() => document.getElementById('play')?.dataset.phase === 'over'"


async def test_the_result_panel_links_to_the_engine_review(
    tmp_path: Path, browser: Browser
) -> None:
    width, height = 1280, 800
    async with play_hall(tmp_path, move_clock=0) as h:
        page = browser.page
        await page.set_viewport_size({"width": width, "height": height})
        await page.goto(h.url + "/")
        await page.get_by_role("link", name="Play Onitama").click()
        await page.wait_for_url("**/play/onitama")
        guest = str(await page.locator("#play-name").inner_text())
        await sit_down(page, "bots:easy")
        await page.wait_for_function(IN_GAME)
        for _ in range(4):  # a few moves each, then resign
            if await wait_my_turn(page) == "over":
                break
            await play_one(page)
        phase = "document.getElementById('play').dataset.phase"
        if await page.evaluate(phase) != "over":
            try:
                await page.locator("#play-resign").click(timeout=5_000)
                await page.locator("#play-resign-yes").click(timeout=5_000)
            except PlaywrightTimeout:
                # the move just made ended the game meanwhile: no resign button any more
                assert await page.evaluate(phase) == "over"
        await page.wait_for_function(OVER)
        link = page.locator("#play-review")
        assert await link.inner_text() == "Engine review of this game"
        async with page.context.expect_page() as opened:
            await link.click()
        review: Any = await opened.value
        await review.set_viewport_size({"width": width, "height": height})
        # "computing…" until the worker has it; the page reloads itself
        await review.wait_for_selector("#review-chart svg", timeout=90_000)
        h.hall.records.flush()
        [match] = h.hall.records.matches(player=guest, limit=5)
        assert review.url.endswith(f"/matches/{match.id}/review")
        stored = ReviewStore(h.hall.records.engine).get(match.id)
        assert stored is not None and stored.status == "done"
        plies = len(stored.data["plies"])
        assert plies >= 1
        counts = review.locator("#review-counts")
        assert guest in await counts.inner_text()
        moves = await counts.locator("tr td:last-child").all_inner_texts()
        assert sum(int(m) for m in moves) == plies
        assert await review.locator("#review-moves tr").count() == plies + 1
        thresholds = await review.locator("#review-thresholds").inner_text()
        assert "blunder ≥ 30 points" in thresholds and "pawns from White's side" in thresholds
        # nothing wider than the screen but the moves' table, which scrolls in its box, on a
        # desk and on a phone (the same review: it is computed once)
        for width, height in ((1280, 800), (390, 844)):
            await review.set_viewport_size({"width": width, "height": height})
            wide = await review.evaluate("document.documentElement.scrollWidth")
            assert wide <= width + 1, (width, wide)
            await review.screenshot(path=screenshot_path(f"review-{width}"), full_page=True)
        # the replay page links to it too
        await review.goto(f"{h.url}/matches/{match.id}")
        await review.locator("#review-link").click()
        await review.wait_for_selector("#review-chart svg")
        assert browser.errors == []
