"""How a person ends a mariáš deal or table in the browser, and what follows (real Chromium,
from the home page): the aktér gives up a deal after a confirm, the next deal follows; after
leaving the table, a rematch with the same house bots starts a new table at once."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import in_viewport
from tests.web.test_play_marias import (
    MY_TURN,
    announce,
    answer,
    deals_of,
    marias_hall,
    page_state,
)

pytestmark = pytest.mark.browser

STATUS = "document.getElementById('play')?.dataset.status"


async def bid_to_win(page: Any) -> None:
    """Answer the question on the screen, bidding so that the person wins the licitace:
    the lowest game offered, and mám to every question."""
    kind = await page.evaluate("document.getElementById('play')?.dataset.decision")
    seq = int(await page.evaluate("document.getElementById('play')?.dataset.seq"))
    if kind == "licite":
        bids = page.locator("button.mar-bid").filter(has_not_text=re.compile("^pass$"))
        yes = page.locator("button.mar-answer").filter(has_text="mám (yes)")
        if await yes.count():
            await yes.click()
        elif await bids.count():
            await bids.first.click()
        else:
            await page.locator("button.mar-choice").first.click()
    elif kind == "gametype":
        await announce(page)
    else:
        await answer(page)
        return
    await page.wait_for_function(
        f"() => Number(document.getElementById('play')?.dataset.seq) > {seq}"
    )


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
async def test_the_aktér_gives_up_a_deal_then_a_rematch_with_the_same_house_bots(
    tmp_path: Path, browser: Browser, size: tuple[int, int]
) -> None:
    width, height = size
    async with marias_hall(tmp_path) as h:
        page = browser.page
        await page.set_viewport_size({"width": width, "height": height})
        await page.goto(h.url + "/")
        await page.get_by_role("link", name="Play mariáš").click()
        await page.wait_for_url("**/play/marias")
        guest = await page.locator("#play-name").inner_text()
        await page.get_by_role("radio", name=re.compile("^medium ")).check()
        await page.get_by_role("button", name="Sit down").click()
        resign = page.locator("#mar-resign")
        for _ in range(300):
            await page.wait_for_function(MY_TURN, timeout=30_000)
            if await resign.count():
                break
            st = await page_state(page)
            # a defender is never offered to give up, nor ložená hra
            if st["contract"] and st["contract"]["aktér"] != guest:
                kinds = {o["kind"] for o in st["decision"]["options"]}
                assert not kinds & {"resign", "claim"}, kinds
            await bid_to_win(page)
        else:
            raise AssertionError("the person never was the aktér")
        deals = (await page_state(page))["deals"]
        # the confirm: changing one's mind changes nothing
        await resign.click()
        confirm = page.locator("#mar-resign-confirm")
        await confirm.wait_for()
        assert "Give up the game?" in await confirm.inner_text()
        await page.screenshot(
            path=screenshot_path(f"marias-resign-confirm-{width}"), full_page=False
        )
        box = await confirm.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height
        await page.locator("#mar-resign-no").click()
        assert await page.locator("#mar-resign-confirm").count() == 0
        assert (await page_state(page))["decision"] is not None
        await resign.click()
        await page.locator("#mar-resign-yes").click()
        await page.wait_for_function(
            "(n) => Number(document.getElementById('play')?.dataset.deals) > n", arg=deals
        )
        result = page.locator("#mar-result")
        text = await result.inner_text()
        assert "gave up the game (vzdal)" in text, text
        assert "Check:" not in text and "csm" not in text and "trumps" not in text, text
        await result.scroll_into_view_if_needed()
        await page.screenshot(path=screenshot_path(f"marias-resigned-result-{width}"))
        # the record: the deal ended by giving up, the person lost every part
        records = deals_of(h, guest)
        given_up = [r for r in records if r.result.get("ended") == "resigned"]
        assert len(given_up) == 1 and given_up[0].result["details"]["conceded"] is True
        told = " / ".join((await page_state(page))["log"])
        assert "you announce " in told and "you announces" not in told, told  # agreement
        before = {p["name"] for p in (await page_state(page))["players"]}
        # the table goes on; the person leaves it: a rematch and a new table are offered,
        # each once (the choice form's Sit at a new table; no Play again doing the same)
        await page.get_by_role("button", name="Leave the table").click()
        await page.get_by_role("button", name="Yes, leave the table").click()
        await page.wait_for_function(f"() => {STATUS} === 'over'", timeout=20_000)
        rematch = page.get_by_role("button", name="Rematch", exact=True)
        await rematch.wait_for()
        await page.get_by_role("button", name="Sit at a new table").wait_for()
        assert await page.get_by_role("button", name="Play again").count() == 0
        assert await in_viewport(page, "#mar-after")
        assert await in_viewport(page, "#mar-sit-button")
        await page.screenshot(path=screenshot_path(f"marias-after-table-{width}"))
        await rematch.click()
        await page.wait_for_function(f"() => {STATUS} === 'playing'", timeout=20_000)
        st = await page_state(page)
        assert {p["name"] for p in st["players"]} == before
        assert st["deals"] == 0 and st["result"] is None
        assert browser.errors == []
