"""A person waiting for an opponent on the Onitama or tile play page keeps the seek (and the
place in the lobby) through a reload; a page gone for longer than ``--web-seek-grace`` ends
it. Onitama's default opponent waits for a person, counting down on the page, before a house
bot sits down, so two people who sit down with the defaults meet (issue 26). Each person in a
Chromium context of their own, starting at the home page and clicking only what is on screen,
at 1280×800 and 390×844."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from herna.hall.hall import Hall
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import eventually, state
from tests.web.test_lobby_seeks import lobby_hall, new_person, open_lobby, url_of
from tests.web.test_lobby_two_people import take

pytestmark = pytest.mark.browser

WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
IN_GAME = "() => document.getElementById('play')?.dataset.phase === 'game'"
COUNTDOWN = re.compile(r"a house bot sits down in (\d+) s")


def seeks(hall: Hall, game: str, owner: str) -> list[dict[str, Any]]:
    return [s for s in hall.lobby.snapshot(game) if s["owner"] == owner]


async def person(browser: Browser, size: dict[str, int]) -> tuple[Any, Any]:
    ctx, page = await new_person(browser)
    await page.set_viewport_size(size)
    return ctx, page


async def onitama_with_defaults(page: Any, url: str, opponent: str | None = None) -> str:
    """From the home page to the Onitama page, sitting down with the page's defaults (or
    with the menu's ``opponent``)."""
    await page.goto(url + "/")
    await page.get_by_role("link", name="Play Onitama").click()
    await page.wait_for_url("**/play/onitama")
    if opponent is not None:
        await page.select_option("#play-opponent", opponent)
    await page.get_by_role("button", name="Sit down").click()
    return str(await page.locator("#play-name").inner_text())


async def countdown(page: Any) -> int:
    await page.wait_for_function(
        "() => /a house bot sits down in \\d+ s/.test("
        "document.getElementById('play-status').textContent)"
    )
    found = COUNTDOWN.search(await page.locator("#play-status").inner_text())
    assert found is not None
    return int(found.group(1))


async def test_onitama_defaults_wait_for_a_person_and_two_people_meet(
    tmp_path: Path, browser: Browser
) -> None:
    async with lobby_hall(tmp_path, "onitama,web") as hall:
        url = url_of(hall)
        a = browser.page
        await a.set_viewport_size(WIDE)
        await a.goto(url + "/")
        await a.get_by_role("link", name="Play Onitama").click()
        await a.wait_for_url("**/play/onitama")
        # the default: a person first, then a house bot after a wait the page says
        assert await a.locator("#play-opponent").input_value() == "anyone"
        wait = float(await a.locator("#play-fill").input_value())
        assert 20 <= wait <= 30
        assert "if no person comes" in await a.locator("#play-choose").inner_text()
        await a.get_by_role("button", name="Sit down").click()
        ann = str(await a.locator("#play-name").inner_text())
        first = await countdown(a)
        assert first <= wait
        await asyncio.sleep(1.3)
        assert await countdown(a) < first  # it counts down
        status = await a.locator("#play-status").inner_text()
        assert "Waiting for a person to play you" in status
        await a.screenshot(path=screenshot_path("onitama-default-wait-1280"))
        ctx, b = await person(browser, PHONE)
        bea = await onitama_with_defaults(b, url)
        await b.screenshot(path=screenshot_path("onitama-default-paired-390"))
        for p in (a, b):
            await p.wait_for_function(IN_GAME, timeout=10_000)
            st = await state(p)
            assert {st["white"], st["black"]} == {ann, bea}  # a person met a person
        await b.screenshot(path=screenshot_path("onitama-two-people-390"))
        await ctx.close()


async def test_onitama_reload_while_waiting_keeps_the_seek(
    tmp_path: Path, browser: Browser
) -> None:
    async with lobby_hall(tmp_path, "onitama,web", web_seek_grace=4.0) as hall:
        url = url_of(hall)
        a = browser.page
        await a.set_viewport_size(PHONE)
        ann = await onitama_with_defaults(a, url)
        before = await countdown(a)
        [seek] = seeks(hall, "onitama", ann)
        await a.reload()
        # the same seek, still counting down (not started afresh), after the reload
        after = await countdown(a)
        assert after <= before
        status = await a.locator("#play-status").inner_text()
        assert "your seek is in the lobby" in status and seek["id"] not in status  # no ids
        await asyncio.sleep(4.5)  # longer than the grace: the reload took the seek back
        assert [s["id"] for s in seeks(hall, "onitama", ann)] == [seek["id"]]
        await a.screenshot(path=screenshot_path("onitama-reloaded-waiting-390"))
        ctx, b = await person(browser, WIDE)
        bea = await onitama_with_defaults(b, url)
        for p in (a, b):
            await p.wait_for_function(IN_GAME, timeout=10_000)
            st = await state(p)
            assert {st["white"], st["black"]} == {ann, bea}
        await b.screenshot(path=screenshot_path("onitama-after-reload-paired-1280"))
        # a page that is gone for longer than the grace: its seek ends
        c_ctx, c = await person(browser, WIDE)
        cid = await onitama_with_defaults(c, url)
        await countdown(c)
        await c.close()
        await asyncio.sleep(1.0)
        assert seeks(hall, "onitama", cid)  # within the grace it stays
        await eventually(lambda: not seeks(hall, "onitama", cid), timeout=6.0)
        await ctx.close()
        await c_ctx.close()


TILES_PHASE = "document.getElementById('play')?.dataset.phase"


async def tiles_table_waiting(page: Any, url: str) -> str:
    """From the home page to a two-seat Labyrinth table that waits for anyone (the page's
    fill wait), sitting down; the person's name."""
    await page.goto(url + "/")
    await page.get_by_role("link", name="Play a tile game").click()
    await page.wait_for_function(f"() => {TILES_PHASE} === 'setup'")
    await page.select_option("#tp-rules", "labyrinth")
    await page.select_option("#tp-players", "2")
    await page.check('input[name="who"][value="anyone"]')
    await page.get_by_role("button", name="Sit down").click()
    # (the rules' first check starts the checker's process: slow on a busy machine)
    await page.wait_for_function(f"() => {TILES_PHASE} === 'seated'", timeout=30_000)
    return str(await page.locator("#play-name").inner_text())


async def test_tiles_reload_while_waiting_keeps_the_seat_and_seek(
    tmp_path: Path, browser: Browser
) -> None:
    options = {"tiles_no_showcase": True, "tiles_bot_delay": 0.0, "web_seek_grace": 4.0}
    async with lobby_hall(tmp_path, "tiles,web", **options) as hall:
        url = url_of(hall)
        a = browser.page
        await a.set_viewport_size(WIDE)
        ann = await tiles_table_waiting(a, url)
        status = a.locator("#play-status")
        assert "house bots take the free seats in" in await status.inner_text()
        [seek] = seeks(hall, "tiles", ann)
        table = await a.evaluate("window.HernaTilesPlay.state.table")
        await a.reload()
        await a.wait_for_function(f"() => {TILES_PHASE} === 'seated'")
        assert await a.evaluate("window.HernaTilesPlay.state.table") == table
        assert "Labyrinth: waiting for more players" in await status.inner_text()
        await asyncio.sleep(4.5)  # longer than the grace: the reload took the seat back
        assert [s["id"] for s in seeks(hall, "tiles", ann)] == [seek["id"]]
        await a.screenshot(path=screenshot_path("tiles-reloaded-waiting-1280"))
        # a second person takes that seek from the lobby and sits with the first
        ctx, b = await person(browser, PHONE)
        await open_lobby(b, url)
        await take(b, ann)
        for p in (a, b):
            await p.wait_for_function(f"() => {TILES_PHASE} === 'game'", timeout=10_000)
        names = await b.evaluate("window.HernaTilesPlay.state.seats.map((s) => s && s.name)")
        assert ann in names and len(names) == 2
        assert await b.evaluate("window.HernaTilesPlay.state.table") == table
        await b.screenshot(path=screenshot_path("tiles-after-reload-paired-390"))
        # a page gone for longer than the grace: its table and seek end
        c_ctx, c = await person(browser, WIDE)
        cid = await tiles_table_waiting(c, url)
        await c.close()
        await asyncio.sleep(1.0)
        assert seeks(hall, "tiles", cid)
        await eventually(lambda: not seeks(hall, "tiles", cid), timeout=6.0)
        await ctx.close()
        await c_ctx.close()


async def test_onitama_cancel_keeps_the_choice_of_opponent(
    tmp_path: Path, browser: Browser
) -> None:
    # A walk found the menu back at "Anyone" after Cancel: the person who chose "People only"
    # and sat down again got a house bot after the wait. (A grace long enough for a reload
    # on a loaded machine.)
    async with lobby_hall(tmp_path, "onitama,web", web_seek_grace=10.0) as hall:
        a = browser.page
        await a.set_viewport_size(PHONE)
        ann = await onitama_with_defaults(a, url_of(hall), "people")
        await in_lobby(a)
        await a.get_by_role("button", name="Cancel").click()
        await a.wait_for_selector("#play-choose")
        await eventually(lambda: not seeks(hall, "onitama", ann))
        assert await a.locator("#play-opponent").input_value() == "people"
        assert await a.locator("#play-fill").is_disabled()  # no house bot to wait for
        assert await a.locator("#play-moves-title").is_hidden()  # no "Moves" over nothing
        await a.screenshot(path=screenshot_path("onitama-cancel-keeps-choice-390"))
        # Sitting down again asks for the same: people only.
        await a.get_by_role("button", name="Sit down").click()
        await in_lobby(a)
        [seek] = seeks(hall, "onitama", ann)
        assert "people" in str(seek), seek
        await a.reload()  # the tab keeps it through a reload too
        await in_lobby(a)
        await a.get_by_role("button", name="Cancel").click()
        await a.wait_for_selector("#play-choose")
        assert await a.locator("#play-opponent").input_value() == "people"


async def in_lobby(page: Any) -> None:
    """Until the page says its seek is in the lobby (people only)."""
    await page.wait_for_function(
        "() => /your seek is in the lobby/.test(document.getElementById('play-status')"
        ".textContent) && /people only/.test(document.getElementById('play-status').textContent)"
    )
