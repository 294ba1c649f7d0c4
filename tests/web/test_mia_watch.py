"""Mia for people who watch: the live view's scoreboard (points, rounds played, losses by
reason), the round in words and labelled charts — folded from the bus (no network), then in
real Chromium on `herna serve --only mia,web` with house bots."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from herna.hall.events import EventBus
from herna.web.folds import HISTORY_ROUNDS, MiaFold
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.test_public_text import internals
from tests.web.conftest import Browser, screenshot_path
from tests.web.helpers import publish_mia_round


def _folded(fold: MiaFold) -> EventBus:
    bus = EventBus()
    sub = bus.subscribe()
    original = bus.publish

    def publish(event):  # type: ignore[no-untyped-def]
        original(event)
        for ev in sub.drain():
            fold.apply(ev)

    bus.publish = publish  # type: ignore[method-assign]
    return bus


def test_the_fold_counts_rounds_losses_by_reason_and_points_per_round() -> None:
    fold = MiaFold()
    bus = _folded(fold)
    scores: dict[str, int] = {}
    publish_mia_round(bus, 1, ["alice", "bob"], scores, see=True)  # bob: SEE_FAILED
    publish_mia_round(bus, 2, ["bob", "alice"], scores, see=False)  # alice: ANNOUNCED_LOSING
    publish_mia_round(bus, 3, ["alice", "bob", "carol"], scores, see=True)  # bob again
    bus.emit("mia", "mia", "game_started", round=4, players=["carol"])
    bus.emit("mia", "mia", "round_canceled", round=4, reason="ONLY_ONE_PLAYER")
    view = fold.view()
    assert view is not None
    assert view["stats"] == {
        "alice": {"rounds": 3, "lost": 1, "reasons": {"ANNOUNCED_LOSING_DICE": 1}},
        "bob": {"rounds": 3, "lost": 2, "reasons": {"SEE_FAILED": 2}},
        "carol": {"rounds": 1, "lost": 0, "reasons": {}},
    }  # the canceled round counts for nobody
    assert view["history"] == [
        [1, {"alice": 1.0}],
        [2, {"alice": 1.0, "bob": 1.0}],
        [3, {"alice": 2.0, "bob": 1.0, "carol": 1.0}],
    ]
    json.dumps(view)
    for n in range(5, 5 + HISTORY_ROUNDS):
        publish_mia_round(bus, n, ["alice", "bob"], scores)
    view = fold.view()
    assert view is not None
    assert len(view["history"]) == HISTORY_ROUNDS and view["history"][-1][0] == 4 + HISTORY_ROUNDS


@pytest.mark.browser
async def test_the_scoreboard_updates_live_as_house_bots_play(
    tmp_path: Path, browser: Browser
) -> None:
    async with serving(tmp_path, "mia,web") as hall:
        web = hall.service("web")
        assert isinstance(web, WebHall)
        page = browser.page
        await page.goto(web.url + "/live/mia/mia")
        board = page.locator(".mia-scores")
        await board.wait_for()
        row = board.locator('tr[data-name="house-honest"]')
        await row.wait_for()

        async def played() -> int:
            return int(await row.locator(".mia-played").inner_text())

        first = await played()
        deadline = time.monotonic() + 20
        while await played() < first + 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        assert await played() >= first + 3, "the scoreboard did not follow the rounds"
        headers = await board.locator("th").all_inner_texts()
        assert headers == ["player", "points", "rounds", "losses", "losses by reason", "points/min"]
        # every loss is counted under a reason, in words
        texts = await board.locator("tr[data-name]").all_inner_texts()
        assert len(texts) == 3
        for name in ("house-honest", "house-prob", "house-random"):
            cells = board.locator(f'tr[data-name="{name}"] td')
            lost = int(await cells.nth(3).inner_text())
            reasons = await cells.nth(4).locator(".mia-why").all_inner_texts()
            assert sum(int(r.split("×")[0]) for r in reasons) == lost
        # the round in words
        words = page.locator(".mia-round .mia-words").first
        assert (await words.inner_text()).strip()
        # the charts: axis titles with units and a legend
        history = page.locator("svg.mia-history")
        await history.locator("polyline").first.wait_for()
        # the rounds under the chart, each once, once there are two rounds or more (the
        # chart is drawn again as rounds come: read its ticks in one go)
        ticks = """() => [...document.querySelectorAll(
            'svg.mia-history text.mia-tick[text-anchor="middle"]')].map((t) => t.textContent)"""
        await page.wait_for_function(f"() => new Set(({ticks})()).size >= 2", timeout=20_000)
        rounds = await page.evaluate(ticks)
        assert len(rounds) == len(set(rounds)) >= 2, rounds
        titles = await page.locator("svg.mia-chart .mia-axis-title").all_text_contents()
        assert "round (number)" in titles and "points" in titles
        legend = await page.locator(".mia-figure .mia-legend").first.inner_text()
        assert all(n in legend for n in ("house-honest", "house-prob", "house-random"))
        await page.screenshot(path=screenshot_path("mia-watch-1280"), full_page=True)
        # the rate chart is labelled too, once it has its first points
        await page.locator("svg.mia-rate polyline").first.wait_for(timeout=20_000)
        titles = await page.locator("svg.mia-rate .mia-axis-title").all_text_contents()
        assert titles == ["time (seconds before now)", "points per minute"]
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.wait_for_timeout(300)
        assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        await page.screenshot(path=screenshot_path("mia-watch-390"), full_page=True)
        assert browser.errors == []


@pytest.mark.browser
async def test_the_status_page_says_the_mia_server_in_words_and_fits_a_phone(
    tmp_path: Path, browser: Browser
) -> None:
    """From the home page, Status: the Mia server's snapshot (rounds, the people's table, why
    answers were dropped) in words, not its JSON keys or seed codes; at 390 px its players
    table scrolls inside its box instead of running off the page."""
    async with serving(tmp_path, "mia,web") as hall:
        web = hall.service("web")
        assert isinstance(web, WebHall)
        page = browser.page
        for width, height in ((1280, 800), (390, 844)):
            await page.set_viewport_size({"width": width, "height": height})
            await page.goto(web.url + "/")
            await page.locator("header").get_by_role("link", name="Status").click()
            card = page.locator('.service[data-game="mia"] .snapshot')
            await card.wait_for()
            await page.wait_for_timeout(3500)  # the page refreshes the snapshots every 3 s
            text = await card.inner_text()
            assert "rounds played" in text and "the people's table" in text, text
            assert "seconds to answer" in text, text
            found = internals(await page.locator("main").inner_text())
            assert not found, "\n".join(found)
            overflow = await page.evaluate(
                "() => [...document.querySelectorAll('main table')].filter(t => "
                "t.getBoundingClientRect().right > window.innerWidth + 1 "
                "&& !t.closest('.scroll')).length"
            )
            assert overflow == 0, f"a table runs off the page at {width} px"
            assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            await page.screenshot(path=screenshot_path(f"status-{width}"), full_page=True)
        assert browser.errors == []
