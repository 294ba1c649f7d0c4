"""The review of a mariáš deal in real Chromium, reached as a person reaches it: the home
page, History, the deal's replay, its "Deal review" link; the worker computes it meanwhile.
The deal is the hand-checked betl of tests/games/marias/test_review.py, whose first lead
throws the betl: the page must mark it and name the lead that keeps it. And the play page's
result panel, after a deal a person played, links to that deal's review."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from herna.hall.reviews import ReviewStore
from herna.web.plugin import WebHall
from tests.records import marias_betl_deal
from tests.web.conftest import Browser, screenshot_path
from tests.web.test_play_marias import MY_TURN, deals_of, marias_hall, play_until_deals, sit

pytestmark = pytest.mark.browser

PUNISHED = "B10 G0K G10 G0J G07 R07"


async def test_from_the_history_to_the_review_of_a_deal(web: WebHall, browser: Browser) -> None:
    match_id = web.hall.records.save(marias_betl_deal("B07", defence=PUNISHED))
    page = browser.page
    await page.set_viewport_size({"width": 1280, "height": 800})
    await page.goto(web.url + "/")
    await page.get_by_role("link", name="History").first.click()
    await page.wait_for_url("**/history")
    await page.locator(f'#history-marias [data-id="{match_id}"] a').first.click()
    await page.wait_for_url(f"**/matches/{match_id}")
    link = page.locator("#review-link")
    assert await link.inner_text() == "Deal review"
    await link.click()
    await page.wait_for_url(f"**/matches/{match_id}/review")
    # "computing…" until the worker has it; the page reloads itself
    await page.wait_for_selector("#review-tricks", timeout=90_000)
    stored = ReviewStore(web.hall.records.engine).get(match_id)
    assert stored is not None and stored.status == "done"

    summary = await page.locator("#review-summary").inner_text()
    assert "aktér (declarer): adam, betl" in summary and "1 card cost money" in summary
    costly = page.locator('#review-tricks tr[data-verdict="costly"]')
    assert await costly.count() == 1
    row = await costly.inner_text()
    assert "kulová sedma" in row and "+30 → −30" in row and "cost 60" in row
    assert "červená devítka would have kept +30" in row
    # 30 cards, one row each, under one header
    assert await page.locator("#review-tricks tr").count() == 31
    assert "unsound" not in await page.locator("#review-auction").inner_text()
    assert await page.locator("#review-announce tr").count() >= 2
    body = await page.locator("main").inner_text()
    for code in ("B07", "R09", "SMALL", "costly", "value_before"):
        assert code not in body, code  # the game's words, never codes or keys
    # the same review on a phone (computed once: the page at the other width)
    for width, height in ((1280, 800), (390, 844)):
        await page.set_viewport_size({"width": width, "height": height})
        wide = await page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width + 1, (width, wide)
        await page.screenshot(path=screenshot_path(f"marias-review-{width}"), full_page=True)
        await page.evaluate("window.scrollTo(0, 0)")
        await page.screenshot(path=screenshot_path(f"marias-review-{width}-top"))
        await page.locator("#review-announce").scroll_into_view_if_needed()
        await page.screenshot(path=screenshot_path(f"marias-review-{width}-auction"))
    # Czech with the header's switch: the page's sentences from the catalog, the game's own
    # words (cards, choices, the result) from the stored review, with the cases they need.
    await page.locator("#languages").get_by_role("link", name="Čeština").click()
    await page.wait_for_function("document.documentElement.lang === 'cs'")
    assert "Rozbor rozdání: mariáš č." in await page.locator("h1").inner_text()
    summary = await page.locator("#review-summary").inner_text()
    assert "aktér: adam, betl" in summary and "1 karta stála peníze" in summary, summary
    assert "výsledek: betl: " in summary and "declarer" not in summary, summary
    row = await costly.inner_text()
    assert "kulová sedma" in row and "stála 60" in row and "obrana" not in row
    assert "červená devítka: zůstalo by +30" in row, row
    auction = await page.locator("#review-auction ~ p").first.inner_text()
    assert "nejsilnější bot herny" in auction
    options = await page.locator("#review-announce").inner_text()
    assert "odložit do talonu " in options and not re.search(r"\d\.\d", options), options
    cs_body = await page.locator("main").inner_text()
    for english in ("would have kept", "house bot", "sampled deals", "Tricks", "the only card"):
        assert english not in cs_body, english
    for width, height in ((390, 844), (1280, 800)):
        await page.set_viewport_size({"width": width, "height": height})
        wide = await page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width + 1, (width, wide)
        await page.evaluate("window.scrollTo(0, 0)")
        await page.screenshot(path=screenshot_path(f"marias-review-cs-{width}-top"))
        await page.locator("#review-announce").scroll_into_view_if_needed()
        await page.screenshot(path=screenshot_path(f"marias-review-cs-{width}-auction"))
    # back to the deal's replay, in Czech: the two passes in the bidding are "nic", with no
    # English gloss on a Czech page
    await page.get_by_role("link", name="← záznam rozdání").click()
    await page.get_by_role("button", name="poslední »").click()
    bidding = await page.locator("#replay-view .mar-bidding").inner_text()
    assert bidding.count(": nic") == 2 and "pass" not in bidding, bidding
    assert browser.errors == []


async def test_the_result_panel_links_to_the_review_of_that_deal(
    tmp_path: Path, browser: Browser
) -> None:
    async with marias_hall(tmp_path) as h:
        page = browser.page
        await page.set_viewport_size({"width": 390, "height": 844})
        guest = await sit(page, h.url)
        await page.wait_for_function(MY_TURN, timeout=20_000)
        await play_until_deals(page, 1)
        link = page.locator("#mar-review")
        await link.wait_for()
        assert await link.inner_text() == "Review of this deal"
        async with page.context.expect_page() as opened:
            await link.click()
        review: Any = await opened.value
        await review.set_viewport_size({"width": 390, "height": 844})
        [deal] = deals_of(h, guest)[:1]
        await review.wait_for_url(f"**/matches/{deal.id}/review")
        assert "Deal review: mariáš" in await review.locator("h1").inner_text()
        # The review of that deal is being computed (or is done already); what a finished
        # review shows is the test above. A stopping hall ends the search.
        await review.wait_for_selector("#review-status, #review-tricks")
        await review.screenshot(path=screenshot_path("marias-review-from-result-390"))
        assert browser.errors == []
