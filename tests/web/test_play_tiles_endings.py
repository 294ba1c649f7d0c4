"""How a tile game ends in the browser (real Chromium, from the home page): resign with a
confirm, no game nobody asked for, a rematch with the same rules and house bots, play again,
and back to the choice form (as it was filled) for other rules or players."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import in_viewport
from tests.web.test_play_tiles import PHASE, Frames, table_of, tiles_hall

pytestmark = pytest.mark.browser

GAME = f"() => {PHASE} === 'game'"
OVER = f"() => {PHASE} === 'over'"


async def sit_down_from_home(page: Any, url: str) -> str:
    await page.goto(url + "/")
    await page.get_by_role("link", name="Play a tile game").click()
    await page.wait_for_url("**/play/tiles")
    await page.wait_for_function(f"() => {PHASE} === 'setup'")
    await page.select_option("#tp-rules", "tsuro")
    await page.select_option("#tp-players", "2")
    await page.click("#tp-sit")
    await page.wait_for_function(GAME)
    return str(await page.locator("#play-name").inner_text())


async def resign(page: Any) -> None:
    """Resign the game on the screen, confirming, and wait for its end."""
    await page.locator("#play-resign").click()
    await page.locator("#play-resign-yes").click()
    await page.wait_for_function(OVER)


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
async def test_resign_a_tile_game_then_rematch_then_play_again(
    tmp_path: Path, browser: Browser, width: int, height: int
) -> None:
    async with tiles_hall(tmp_path, bot_delay=0.5) as h:
        page = browser.page
        await page.set_viewport_size({"width": width, "height": height})
        frames = Frames().watch(page)
        guest = await sit_down_from_home(page, h.url)
        table = table_of(h.tiles, guest)
        assert table is not None
        [bot] = [n for n in table.names() if n != guest]
        await page.locator("#play-resign").click()
        await page.screenshot(path=screenshot_path(f"tiles-resign-confirm-{width}"), full_page=True)
        await page.locator("#play-resign-no").click()
        assert await page.evaluate(PHASE) == "game"
        await resign(page)
        assert await page.locator("#play-result").inner_text() == f"You resigned. {bot} won."
        # What to do next is on screen with the result (it was under the fold at 1280x800).
        assert await in_viewport(page, "#play-next")
        await page.screenshot(path=screenshot_path(f"tiles-over-{width}"), full_page=True)
        store = h.tiles.hub.records
        assert store is not None
        store.flush()
        [match] = store.matches(game="tiles")
        assert match.result["reason"] == "the other player resigned"
        assert [p.name for p in match.players if p.winner] == [bot]
        # nothing starts by itself
        await asyncio.sleep(2)
        assert await page.evaluate(PHASE) == "over"
        assert table_of(h.tiles, guest) is None
        over = next(i for i, f in enumerate(frames.received) if f["type"] == "game_over")
        assert not any(f["type"] == "started" for f in frames.received[over:])
        # rematch: the same rules, house bots at once
        await page.locator("#play-rematch").click()
        await page.wait_for_function(GAME)
        again = table_of(h.tiles, guest)
        assert again is not None and again is not table and again.rules == table.rules
        await resign(page)
        # play again: a new table at once, with the choices the person made before
        await page.locator("#play-next").click()
        await page.wait_for_function(GAME)
        third = table_of(h.tiles, guest)
        assert third is not None and third is not again and third.rules == table.rules
        assert browser.errors == []


async def test_after_a_tile_game_the_choice_form_comes_back_as_it_was_filled(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path, bot_delay=0.5) as h:
        page = browser.page
        await page.set_viewport_size({"width": 390, "height": 844})
        guest = await sit_down_from_home(page, h.url)
        table = table_of(h.tiles, guest)
        assert table is not None
        await resign(page)
        # other rules or another number of players without reloading the page
        other = page.get_by_role("button", name="Choose other rules or players")
        assert await in_viewport(page, "#play-other")
        await page.screenshot(path=screenshot_path("tiles-over-choose-390"))
        await other.click()
        await page.wait_for_function(f"() => {PHASE} === 'setup'")
        assert await page.locator("#tp-setup").is_visible()
        assert not await page.locator("#play-result").is_visible()
        assert await page.locator("#tp-rules").input_value() == "tsuro"
        assert await page.locator("#tp-players").input_value() == "2"
        await page.screenshot(path=screenshot_path("tiles-choose-again-390"))
        await page.select_option("#tp-players", "3")
        await page.click("#tp-sit")
        await page.wait_for_function(GAME)
        again = table_of(h.tiles, guest)
        assert again is not None and again is not table
        assert len(again.rules.players) == 3 and len(table.rules.players) == 2
        assert browser.errors == []


async def test_a_game_clock_chosen_for_a_tile_table_and_a_loss_on_time(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path, bot_delay=0.2, time_controls=("0.1+1", "5+3")) as h:
        page = browser.page
        await page.goto(h.url + "/")
        await page.get_by_role("link", name="Play a tile game").click()
        await page.wait_for_url("**/play/tiles")
        await page.wait_for_function(f"() => {PHASE} === 'setup'")
        await page.select_option("#tp-rules", "tsuro")
        await page.select_option("#tp-players", "2")
        options = await page.locator("#tp-clock-choice option").all_inner_texts()
        assert options[1:] == ["0.1 min + 1 s a turn (0.1+1)", "5 min + 3 s a turn (5+3)"]
        await page.select_option("#tp-clock-choice", "0.1+1")
        frames = Frames().watch(page)
        await page.click("#tp-sit")
        try:
            await page.wait_for_function(GAME)
        except Exception:
            raise AssertionError((frames.sent, frames.received, browser.errors)) from None
        guest = str(await page.locator("#play-name").inner_text())
        await page.wait_for_function(
            "() => document.getElementById('tp-game-clock').textContent.startsWith('Clock: ')"
        )
        shown = await page.locator("#tp-game-clock").inner_text()
        assert "you 0:0" in shown and "house-" in shown
        await page.screenshot(path=screenshot_path("tiles-game-clock-1280"), full_page=True)
        table = table_of(h.tiles, guest)
        assert table is not None
        [bot] = [n for n in table.names() if n != guest]
        # the person does not act: 6 s (and whatever the house bot's turns added), then out
        await page.wait_for_function(OVER, timeout=30_000)
        assert await page.locator("#play-result").inner_text() == f"You ran out of time. {bot} won."
        store = h.tiles.hub.records
        assert store is not None
        store.flush()
        [match] = store.matches(game="tiles")
        assert match.result["reason"] == "the other player ran out of time"
        assert match.meta["time_control"] == "0.1+1"
        assert browser.errors == []
