"""What a person meets on the mariáš play page (issue 26), clicked from the home page in real
Chromium: at every question of a whole deal the hand and the buttons to press are on the
screen at 1280x800 and at 390x844, without the person scrolling; and two people play a deal
to its settlement and then a rematch with the same people (the page offering one button for
each thing, the wait saying how long it lasts, and a rematch nobody answered in Czech words)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Browser, screenshot_path
from tests.web.test_decisions_in_view import WIDTHS
from tests.web.test_play_marias import MY_TURN, answer, marias_hall, page_state, sit

pytestmark = pytest.mark.browser

DEALS = "() => Number(document.getElementById('play')?.dataset.deals)"
DEALT = "() => Number(document.getElementById('play')?.dataset.deals) >= 1"
OUT_OF_VIEW = """(sel) => [...document.querySelectorAll(sel)].filter((n) => {
  const r = n.getBoundingClientRect();
  return r.width > 0 && (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth);
}).map((n) => n.textContent.trim() || n.dataset.code || n.tagName)"""


async def after_buttons(page: Any) -> list[str]:
    """The words of the buttons a page shows after its table (the choice form's and those
    under the status), in the order on the page."""
    await page.locator("#mar-sit-button").wait_for()
    words: list[str] = await page.locator("#mar-sit button, #mar-after button").evaluate_all(
        "bs => bs.filter((b) => b.offsetParent !== null).map((b) => b.textContent.trim())"
    )
    return words


async def out_of_view(page: Any, selector: str) -> list[str]:
    result: list[str] = await page.evaluate(OUT_OF_VIEW, selector)
    return result


@pytest.mark.parametrize(("width", "height"), WIDTHS)
async def test_a_whole_deal_with_the_hand_and_the_buttons_in_view(
    tmp_path: Path, browser: Browser, width: int, height: int
) -> None:
    async with marias_hall(tmp_path) as h:
        page = browser.page
        await page.set_viewport_size({"width": width, "height": height})
        await sit(page, h.url, level="easy")
        kinds: list[str] = []
        while await page.evaluate(DEALS) < 1:
            await page.wait_for_function(
                f"() => ({DEALT})() || document.getElementById('play').dataset.myTurn === '1'",
                timeout=30_000,
            )
            if await page.evaluate(DEALS) >= 1:
                break
            kind = await page.evaluate("document.getElementById('play').dataset.decision")
            # what the person decides with: every card of the hand, every button of the question
            assert await out_of_view(page, "#mar-hand .mar-slot") == [], kind
            assert await out_of_view(page, "#mar-prompt button") == [], kind
            if kind not in kinds:
                await page.screenshot(path=screenshot_path(f"marias-in-view-{kind}-{width}"))
            kinds.append(await answer(page))
            assert len(kinds) < 60
        assert "play" in kinds
        assert browser.errors == []


async def test_two_people_play_a_deal_then_a_rematch_with_the_same_people(
    tmp_path: Path, browser: Browser
) -> None:
    from tests.web.test_lobby_seeks import new_person

    async with marias_hall(tmp_path) as h:
        ann_page = browser.page
        ann_page.set_default_timeout(30_000)
        ctx, bea_page = await new_person(browser)
        pages = (ann_page, bea_page)
        # ann waits for people; bea takes her seat from the lobby, by clicking
        ann = await sit(ann_page, h.url, "people")
        await bea_page.goto(h.url + "/")
        await bea_page.get_by_role("link", name="Lobby", exact=True).click()
        row = bea_page.locator(f'li.lobby-seek[data-owner="{ann}"]')
        await row.get_by_role("button", name=f"Play {ann}").click()
        await bea_page.wait_for_url("**/play/marias?seek=*")
        bea = await bea_page.locator("#play-name").inner_text()
        playing = "() => document.getElementById('play')?.dataset.status === 'playing'"
        for p in pages:
            await p.wait_for_function(playing, timeout=20_000)
        first = {x["name"] for x in (await page_state(ann_page))["players"]}
        assert {ann, bea} <= first and len(first) == 3  # the third: a house bot
        # a whole deal, each answering their own questions, to the vyúčtování on both pages
        answered = 0
        while not all([await p.evaluate(DEALT) for p in pages]):
            for p in pages:
                if await p.evaluate(MY_TURN) and not await p.evaluate(DEALT):
                    await answer(p)
                    answered += 1
            await asyncio.sleep(0.02)
            assert answered < 200
        for p, other in ((ann_page, bea), (bea_page, ann)):
            result = p.locator("#mar-result")
            await result.filter(has_text="Vyúčtování — deal 1").wait_for()
            assert other in await result.inner_text()
        # bea leaves the table; both are offered a rematch with the same people
        await bea_page.get_by_role("button", name="Leave the table").click()
        await bea_page.get_by_role("button", name="Yes, leave the table").click()
        over = "() => document.getElementById('play')?.dataset.status === 'over'"
        for p in pages:
            await p.wait_for_function(over, timeout=20_000)
        # one way to each thing: a new table (the choice form's button) and the rematch
        assert await after_buttons(ann_page) == ["Sit at a new table", "Rematch"]
        await ann_page.screenshot(path=screenshot_path("marias-after-left-1280"))
        await ann_page.get_by_role("button", name="Rematch", exact=True).click()
        # the wait says how long it lasts (the web hall's REMATCH_WAIT)
        await (
            ann_page.locator("#play-status")
            .filter(has_text=f"Waiting for {bea} to accept the rematch, at most 60 s…")
            .wait_for(timeout=20_000)
        )
        offer = bea_page.locator("#mar-rematch-offer")
        await offer.wait_for()
        assert f"{ann} wants a rematch" in await offer.inner_text()
        await bea_page.screenshot(path=screenshot_path("marias-rematch-offer-1280"))
        await bea_page.get_by_role("button", name="Accept the rematch").click()
        for p in pages:
            await p.wait_for_function(playing, timeout=20_000)
        for p in pages:
            st = await page_state(p)
            assert {x["name"] for x in st["players"]} == first
            assert st["deals"] == 0 and st["result"] is None
        # bea leaves the new table at once; ann, now on a Czech page, asks for a rematch and
        # bea does not answer: the page says so with the name after "od" as Czech needs it
        await bea_page.get_by_role("button", name="Leave the table").click()
        await bea_page.get_by_role("button", name="Yes, leave the table").click()
        for p in pages:
            await p.wait_for_function(over, timeout=20_000)
        h.web.web.marias.settings.rematch_wait = 3.0
        await ann_page.get_by_role("link", name="Čeština").click()
        await ann_page.wait_for_function(over, timeout=20_000)
        assert await after_buttons(ann_page) == ["Přisednout k novému stolu", "Odveta"]
        # The form still says what ann chose (people), not its first choice, after the reload.
        checked = ann_page.locator("input[name=opponents]:checked")
        assert await checked.get_attribute("value") == "people"
        await ann_page.get_by_role("button", name="Odveta", exact=True).click()
        status = ann_page.locator("#play-status")
        await status.filter(has_text=f"Čeká se, až odvetu přijme {bea}, nejdéle 3 s…").wait_for()
        await status.filter(has_text=f"Odpověď na odvetu od hráče {bea} nepřišla včas.").wait_for()
        assert await ann_page.locator("#mar-table").is_hidden()  # no empty table left on screen
        await ann_page.screenshot(path=screenshot_path("marias-rematch-unanswered-cs-1280"))
        await ctx.close()
        assert browser.errors == []
