"""A designer finds the balance page from the home page and from the tile play page by
clicking, uploads a rules file, sees the progress and the report with its charts (real
Chromium, at a laptop's width and a phone's)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.test_public_text import internals
from tests.tiles.helpers import race
from tests.tiles.test_balance import coin_toss
from tests.web.conftest import Browser, screenshot_path
from tests.web.test_play_tiles import tiles_hall

pytestmark = pytest.mark.browser

DONE = "() => document.body.dataset.balance === 'done'"


def watch(page: Any) -> list[dict[str, Any]]:
    received: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        if ws.url.endswith("/ws/balance"):
            ws.on("framereceived", lambda payload: received.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return received


async def run_report(page: Any, path: Path, games: int) -> None:
    await page.set_input_files("#bal-file", str(path))
    await page.fill("#bal-games", str(games))
    await page.click("#bal-run")
    await page.wait_for_function(DONE, timeout=120_000)


async def test_a_designer_gets_a_balance_report_with_charts(
    tmp_path: Path, browser: Browser
) -> None:
    unfair = tmp_path / "race.json"
    unfair.write_text(json.dumps(race()))
    fair = tmp_path / "coin.json"
    fair.write_text(json.dumps(coin_toss()))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**race(), "movement_type": "teleport"}))
    async with tiles_hall(tmp_path) as h:
        page = browser.page
        frames = watch(page)
        await page.set_viewport_size({"width": 1280, "height": 800})
        # from the home page's line for designers
        await page.goto(h.url + "/")
        await page.get_by_role("link", name="Test the balance of your rules").click()
        await page.wait_for_url("**/tools/balance")
        # and from the tile play page, where a designer uploads rules to play them
        await page.goto(h.url + "/")
        await page.get_by_role("link", name="Play a tile game").click()
        await page.wait_for_url("**/play/tiles")
        await page.get_by_role("link", name="Test a rules file for balance").click()
        await page.wait_for_url("**/tools/balance")
        assert await page.title() == "Balance of a tile game · Herna"

        # a file with problems: listed, nothing played
        await page.set_input_files("#bal-file", str(bad))
        await page.click("#bal-run")
        problems = page.locator("#bal-problems")
        await problems.get_by_text("teleport").wait_for()
        assert "nothing was played" in await problems.inner_text()

        # the first seat always wins: the report says so, with warnings
        await run_report(page, unfair, 60)
        progress = [f for f in frames if f["type"] == "progress"]
        assert progress[0]["done"] == 0 and progress[-1]["total"] == 60
        assert await page.locator("#bal-progress").evaluate("p => p.value === p.max")
        assert await page.locator("#bal-progress-text").inner_text() == "60 of 60 games played"
        warnings = await page.locator("#bal-warnings").inner_text()
        assert "Seat 1 wins 100 % of the games" in warnings and "more than a fair share" in warnings
        assert "Seat 2 wins 0 %" in warnings
        seats = page.locator("#bal-seats-chart rect")
        assert await seats.count() == 2
        widths = [float(await seats.nth(i).get_attribute("width") or 0) for i in range(2)]
        assert widths[0] > 100 * widths[1]
        assert await page.locator("#bal-endings-chart rect").count() == 1  # one winner, always
        assert await page.locator("#bal-length-chart rect").count() == 1  # always 5 turns
        goals = await page.locator("#bal-goals").inner_text()
        assert "reach the tile in column 4, row 1" in goals and "60 of 60 (100 %)" in goals
        text = await page.locator("#bal-report").inner_text()
        assert "AdvantageP1" in text and "First seat's win rate" in text
        assert internals(text) == []
        await page.screenshot(path=screenshot_path("balance-unfair-1280"), full_page=True)

        # a phone: the same report fits the width
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.screenshot(path=screenshot_path("balance-unfair-390"), full_page=True)
        wide = await page.evaluate(
            "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"
        )
        assert not wide

        # a coin toss: no warning
        await page.set_viewport_size({"width": 1280, "height": 800})
        await run_report(page, fair, 100)
        fine = await page.locator("#bal-warnings").inner_text()
        assert fine == "No seat wins more or less than a fair share (at 95 %)."
        assert await page.locator(".bal-seat-table tr.unfair").count() == 0
        await page.screenshot(path=screenshot_path("balance-fair-1280"), full_page=True)
        assert browser.errors == []
