"""What a person meets on the Onitama play page (issue 26), clicked from the home page in real
Chromium: the decision (their own cards, the board, the buttons) on the screen without
scrolling at 1280x800 and 390x844 all game long, the last move's arrow back after a reload,
the result said once, and a rematch asked of a person that keeps the board up while it waits."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import (
    in_viewport,
    play_hall,
    play_one,
    sit_down,
    state,
    wait_my_turn,
)
from tests.web.test_decisions_in_view import WIDTHS
from tests.web.test_play_endings import IN_GAME, OVER, from_home_page

pytestmark = pytest.mark.browser


async def not_scrolled(page: Any) -> bool:
    return bool(await page.evaluate("window.scrollY === 0"))


async def decision_in_view(page: Any) -> None:
    """The person's own cards, the board and the buttons under it are all on the screen, and
    the page was not scrolled to show them."""
    color = (await state(page))["color"]
    assert await not_scrolled(page)
    assert await in_viewport(page, f".oni-hand-{color} .oni-cards")
    assert await in_viewport(page, "svg.oni-board")
    assert await in_viewport(page, "#play-prompt")


@pytest.mark.parametrize(("width", "height"), WIDTHS)
async def test_a_whole_game_with_the_decision_in_view(
    tmp_path: Path, browser: Browser, width: int, height: int
) -> None:
    async with play_hall(tmp_path, move_clock=0) as h:
        page = browser.page
        await page.set_viewport_size({"width": width, "height": height})
        await from_home_page(page, h)
        # the resign question, asked and taken back, is on the screen too
        await page.locator("#play-resign").click()
        assert await in_viewport(page, "#play-resign-confirm")
        assert await not_scrolled(page)
        await page.locator("#play-resign-no").click()
        moves = 0
        while await wait_my_turn(page) != "over":
            await decision_in_view(page)
            if moves == 2:
                await page.screenshot(path=screenshot_path(f"onitama-in-view-{width}"))
            await play_one(page, rnd=random.Random(moves))
            moves += 1
            assert moves < 200
        assert await in_viewport(page, "#play-result")
        assert await in_viewport(page, "#play-next")
        await page.screenshot(path=screenshot_path(f"onitama-over-in-view-{width}"))
        assert browser.errors == []


async def test_a_reload_keeps_the_last_move_arrow_and_the_result_is_said_once(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path, move_clock=0) as h:
        page = browser.page
        await page.set_viewport_size({"width": 390, "height": 844})
        await from_home_page(page, h)
        for _ in range(2):
            await wait_my_turn(page)
            await play_one(page)
        assert await wait_my_turn(page) == "game"
        before = await page.evaluate("window.HernaPlay.state.last")
        assert before is not None
        arrow = page.locator("line.oni-arrow")
        assert await arrow.count() == 1
        marked = await page.locator("rect.oni-last").evaluate_all(
            "rs => rs.map(r => r.dataset.square).sort()"
        )
        assert marked == sorted([before["from"], before["to"]])
        await page.reload()
        assert await wait_my_turn(page) == "game"
        assert "Back at your seat" in await page.locator("#play-note").inner_text()
        assert await arrow.count() == 1
        again = await page.locator("rect.oni-last").evaluate_all(
            "rs => rs.map(r => r.dataset.square).sort()"
        )
        assert again == marked
        assert await page.evaluate("window.HernaPlay.state.last") == before
        await page.screenshot(path=screenshot_path("onitama-reload-arrow-390"))
        # resigning: the page says so once
        await page.locator("#play-resign").click()
        await page.locator("#play-resign-yes").click()
        await page.wait_for_function(OVER)
        text = await page.locator("body").inner_text()
        assert text.count("You resigned") == 1, text
        assert await page.locator("#play-result").inner_text() == "You resigned. The game is lost."
        assert browser.errors == []


async def test_a_rematch_asked_of_a_person_keeps_the_board_while_it_waits(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path, house_bots=0, move_clock=0) as h:
        chromium = browser.page.context.browser
        contexts = [await chromium.new_context(viewport={"width": 390, "height": 844})]
        contexts.append(await chromium.new_context(viewport={"width": 1280, "height": 800}))
        a, b = [await c.new_page() for c in contexts]
        for p in (a, b):
            p.on("pageerror", lambda exc: browser.errors.append(f"pageerror: {exc}"))
        await a.goto(h.url + "/")
        await a.get_by_role("link", name="Play Onitama").click()
        ann = await a.locator("#play-name").inner_text()
        await sit_down(a, "people")
        await a.locator("#play-status").filter(has_text="Waiting").wait_for()
        bea = await from_home_page(b, h, "people")
        await a.wait_for_function(IN_GAME)
        first = await state(a)
        assert {first["white"], first["black"]} == {ann, bea}
        await b.locator("#play-resign").click()
        await b.locator("#play-resign-yes").click()
        for p in (a, b):
            await p.wait_for_function(OVER)
        # ann asks: her board and the result stay, with what she waits for and a way back
        await a.get_by_role("button", name=f"Rematch {bea}").click()
        wait = a.locator("#play-rematch-wait")
        await wait.wait_for()
        assert f"Waiting for {bea} to accept the rematch" in await wait.inner_text()
        assert await a.locator("svg.oni-board").count() == 1
        assert await a.locator("#play-result").inner_text() == "You won: your opponent resigned."
        assert await in_viewport(a, "#play-rematch-wait")
        await a.screenshot(path=screenshot_path("onitama-rematch-waiting-390"))
        offer = b.locator("#play-rematch-offer")
        await offer.wait_for()
        assert f"{ann} wants a rematch" in await offer.inner_text()
        # she changes her mind, then asks again
        await a.get_by_role("button", name="Cancel the rematch").click()
        await wait.wait_for(state="detached")
        assert "withdrew" in await a.locator("#play-note").inner_text()
        assert await a.locator("svg.oni-board").count() == 1
        await a.get_by_role("button", name=f"Rematch {bea}").click()
        await wait.wait_for()
        await b.get_by_role("button", name="Accept the rematch").click()
        for p in (a, b):
            await p.wait_for_function(IN_GAME)
        again = await state(a)
        assert (again["white"], again["black"]) == (first["black"], first["white"])
        for c in contexts:
            await c.close()
        assert browser.errors == []
