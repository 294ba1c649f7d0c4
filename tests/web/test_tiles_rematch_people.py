"""Two people at a tile table ask for a rematch in the browser, as in Onitama: one asks, the
other sees the offer and accepts it, and the same two play again at a new table; a declined
offer is told in words. Each person in a Chromium context of their own, from the home page,
clicking only what is on screen (1280×800 and 390×844; issue 26)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Browser, screenshot_path
from tests.web.test_lobby_seeks import lobby_hall, new_person, url_of
from tests.web.test_lobby_two_people import seek_and_accept, take

pytestmark = pytest.mark.browser

PHASE = "document.getElementById('play')?.dataset.phase"


async def phase(page: Any, want: str) -> None:
    await page.wait_for_function(f"() => {PHASE} === '{want}'", timeout=20_000)


async def resign(page: Any) -> None:
    await page.get_by_role("button", name="Resign").click()
    await page.get_by_role("button", name="Yes, resign").click()


async def table_of(page: Any) -> str:
    return str(await page.evaluate("window.HernaTilesPlay.state.table"))


async def test_two_people_rematch_a_tile_game(tmp_path: Path, browser: Browser) -> None:
    options = {"tiles_no_showcase": True, "tiles_bot_delay": 0.0}
    async with lobby_hall(tmp_path, "tiles,web", **options) as hall:
        a = browser.page
        await a.set_viewport_size({"width": 1280, "height": 800})
        ctx, b = await new_person(browser)
        await b.set_viewport_size({"width": 390, "height": 844})
        ann, bea = await seek_and_accept(
            a, b, url_of(hall), "Tile games", rules="labyrinth", players="2"
        )
        await phase(a, "seated")  # the lobby's seek names the rules: seated at once
        await take(b, ann)
        for p in (a, b):
            await phase(p, "game")
        first = await table_of(a)
        # ann resigns; after the game ann asks for a rematch, bea sees it and accepts
        await resign(a)
        for p in (a, b):
            await phase(p, "over")
        await a.get_by_role("button", name="Rematch (same rules, same players)").click()
        offer = b.locator("#play-rematch-offer")
        await offer.wait_for()
        assert f"{ann} wants a rematch." in await offer.inner_text()
        note = a.locator("#play-note")
        assert f"Waiting for {bea} to accept the rematch" in await note.inner_text()
        await a.screenshot(path=screenshot_path("tiles-rematch-asked-1280"))
        await b.screenshot(path=screenshot_path("tiles-rematch-offered-390"))
        await b.get_by_role("button", name="Accept the rematch").click()
        for p in (a, b):
            await phase(p, "game")
        second = await table_of(a)
        assert second != first and await table_of(b) == second
        names = await a.evaluate("window.HernaTilesPlay.state.seats.map((s) => s.name)")
        assert names == [bea, ann]  # the seats moved round: bea begins now
        await b.screenshot(path=screenshot_path("tiles-rematch-playing-390"))
        # bea resigns and asks again; ann declines: bea reads it in words
        await resign(b)
        for p in (a, b):
            await phase(p, "over")
        await b.get_by_role("button", name="Rematch (same rules, same players)").click()
        await a.locator("#play-rematch-offer").wait_for()
        await a.get_by_role("button", name="Decline").click()
        declined = b.locator("#play-rematch-declined")
        await declined.wait_for()
        assert await declined.inner_text() == f"{ann} does not want a rematch now."
        assert await b.get_by_role("button", name="Rematch (same rules, same players)").count() == 0
        assert await b.get_by_role("button", name="Play again").is_visible()
        await b.screenshot(path=screenshot_path("tiles-rematch-declined-390"))
        hall.records.flush()
        games = [m for m in hall.records.matches(game="tiles") if m.status == "finished"]
        assert len(games) == 2
        await ctx.close()
