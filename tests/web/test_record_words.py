"""The record pages as a person reads them (issue 26, "internals on screen"), games played
through the real servers and walked by clicks from the home page in Chromium:

* a tile game a person played (Gold rush for two, which the play page sends as a rules object):
  its replay is headed by the rules' name and the players, the seed and table id stay in the
  closed "Details for game designers", positions count from 1, the banks say what they hold;
* a mariáš deal of the house table: its vyúčtování (result) table has a cell under every
  heading, at 1280 and 390 px; the live page lists its events in words, the Status page says
  "players per table".
"""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.serve import serving
from tests.test_public_text import internals
from tests.web.conftest import Browser, browser, screenshot_path
from tests.web.test_play_tiles import MY_TURN_OR_OVER, PHASE, play_one, tiles_hall
from tests.web.test_play_tiles_tabs import choose, to_the_form

pytestmark = pytest.mark.browser
__all__ = ["browser"]

ZERO_BASED = re.compile(r"\b(?:column|row) 0\b|\(0, ?\d+\)|\(\d+, ?0\)|\bseat 0\b|\bplayer 0\b")
CODES = re.compile(r"\bseed\b|\bcustom\b|\bt\d+\b|\b[0-9a-f]{16}\b")


async def _main_text(page: Any) -> str:
    return str(await page.locator("main").inner_text())


async def test_a_tile_games_replay_names_its_rules_counts_from_1_and_shows_the_banks(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path, max_rounds=3) as h:
        page = browser.page
        await page.set_viewport_size({"width": 1280, "height": 800})
        await to_the_form(page, h.url)
        await choose(page, "gold_rush", 2)  # sent as a rules object: 2 of its 4 players
        await page.click("#tp-sit")
        await page.wait_for_function(f"() => {PHASE} === 'game'")
        banks = await page.locator("#tp-banks").inner_text()
        assert "Bank in column 1, row 1: nothing yet" in banks, banks
        rnd = random.Random(3)
        for _ in range(40):
            await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
            if await page.evaluate(PHASE) == "over":
                break
            await play_one(page, rnd)
        assert await page.evaluate(PHASE) == "over"
        said = await page.locator("#play-moves").inner_text()
        assert not ZERO_BASED.search(said), ZERO_BASED.search(said)

        records = h.tiles.hub.records
        for _ in range(100):  # the record writer stores the game a moment after game_over
            if records.matches(game="tiles", limit=1):
                break
            await asyncio.sleep(0.1)
        await page.locator("header").get_by_role("link", name="History").click()
        await page.wait_for_url("**/history")
        await page.locator('#history-tiles a[href^="/matches/"]').first.click()
        await page.locator("#replay[data-steps]").wait_for()
        heading = await page.locator("h1").inner_text()
        assert re.fullmatch(r"Gold rush: \S+ against house-\S+", heading), heading
        summary = await page.locator("#match-summary").inner_text()
        assert "Tile games · " in summary and "points: " in summary, summary
        played = r"played \w+ \d+, \d{4}, \d+:\d\d:\d\d\s[AP]M, for \d+ s"  # as Babel writes it
        assert re.search(played, summary), summary
        details = page.locator("#match-details")
        assert await details.get_attribute("open") is None
        assert await details.locator("summary").inner_text() == "Details for game designers"
        problems: list[str] = []
        for step in ("Home", "End"):
            await page.keyboard.press(step)
            text = await _main_text(page)
            problems += [f"{step}: {p}" for p in internals(text)]
            for pattern in (ZERO_BASED, CODES):
                problems += [f"{step}: {m.group()!r}" for m in pattern.finditer(text)]
            assert "Gold rush · turn" in text, text
            assert re.search(r"on the tile in column [1-5], row [1-5]", text), text
        assert re.search(r"Bank in column 1, row 1: (nothing yet|\d+ \w+)", text), text
        assert re.search(r"Scores: \S+ \d+, house-\S+ \d+", text), text
        seats = await page.locator("#match-players tr td:first-child").all_inner_texts()
        assert seats == ["1", "2"], seats
        await page.screenshot(path=screenshot_path("record-words-tiles-1280"), full_page=True)
        await details.locator("summary").click()  # for designers: the seed, in words
        assert re.search(r"random seed \d+", await details.inner_text())
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.screenshot(path=screenshot_path("record-words-tiles-390"), full_page=True)
        wide = await page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 390, f"the replay page is {wide} px wide at 390"
        assert not problems, "\n".join(problems)
        assert browser.errors == []


async def _cells_under_headings(page: Any) -> list[str]:
    """Every row of the mariáš result table has a cell under each heading, and each number
    stands within its heading's column."""
    return list(
        await page.evaluate(
            """() => {
              const table = document.querySelector('#replay-view .mar-parts');
              if (!table) return ['no result table'];
              const heads = [...table.tHead.rows[0].cells];
              const out = [];
              for (const row of table.tBodies[0].rows) {
                if (row.cells.length !== heads.length)
                  out.push(`${row.cells.length} cells under ${heads.length} headings`);
                [...row.cells].forEach((cell, i) => {
                  const h = heads[i] && heads[i].getBoundingClientRect();
                  const c = cell.getBoundingClientRect();
                  if (h && (c.left < h.left - 1 || c.right > h.right + 1))
                    out.push(`"${cell.innerText}" is not under "${heads[i].innerText}"`);
                });
              }
              return out;
            }"""
        )
    )


async def test_a_deals_result_table_lines_up_and_live_and_status_speak_words(
    tmp_path: Path, browser: Browser
) -> None:
    async with serving(tmp_path, "marias,web", cgml_bot_delay=0.02) as hall:
        web = hall.service("web")
        assert web is not None
        for _ in range(600):  # the house table deals at once; its first deal takes seconds
            if hall.records.matches(game="marias", limit=1):
                break
            await asyncio.sleep(0.1)
        page = browser.page
        await page.set_viewport_size({"width": 1280, "height": 800})
        await page.goto(web.url + "/")
        await page.locator("header").get_by_role("link", name="History").click()
        await page.locator('#history-marias a[href^="/matches/"]').first.click()
        await page.locator("#replay[data-steps]").wait_for()
        await page.keyboard.press("End")
        parts = page.locator("#replay-view .mar-parts")
        await parts.wait_for()
        heads = await parts.locator("thead th").all_inner_texts()
        players = await page.locator("#match-players tr td:nth-child(2)").all_inner_texts()
        assert heads == ["part", "aktér", "units", *players], heads
        assert await _cells_under_headings(page) == []
        await page.locator("#replay-view .mar-result").screenshot(
            path=screenshot_path("record-words-marias-result-1280")
        )
        text = await _main_text(page)
        assert internals(text) == [], internals(text)
        assert not re.search(r"\bseed\b|\b[0-9a-f]{16}\b", text), text
        await page.set_viewport_size({"width": 390, "height": 844})
        assert await _cells_under_headings(page) == []
        cut = await page.evaluate(
            "() => { const t = document.querySelector('#replay-view .mar-parts');"
            " return t.getBoundingClientRect().right - document.documentElement.clientWidth; }"
        )
        assert cut <= 0, f"the result table reaches {cut} px past the screen at 390"
        await page.locator("#replay-view .mar-result").screenshot(
            path=screenshot_path("record-words-marias-result-390")
        )
        await page.set_viewport_size({"width": 1280, "height": 800})

        await page.locator("header").get_by_role("link", name="Live").click()
        card = page.locator('section.card.table[data-game="marias"]').first
        await card.wait_for()
        await page.wait_for_function(
            "() => document.querySelectorAll('section.card.table ol.events li').length > 5"
        )
        await card.locator("details.log summary").click()
        events = await card.locator("ol.events").inner_text()
        await page.screenshot(path=screenshot_path("record-words-live-1280"), full_page=True)
        assert not re.search(r'[{}]|"\w+"\s*:', events), events
        assert internals(events) == [], internals(events)
        # a card named with its suit agreeing with the rank: "plays červený král" (issue #29)
        card = (
            r"(červen|kulov|zelen|žaludov)"
            r"(á (sedma|osma|devítka|desítka)|ý (spodek|svršek|král)|é eso)"
        )
        assert re.search(rf"\bplays {card}\b", events), events

        await page.locator("header").get_by_role("link", name="Status").click()
        await page.locator("#services").wait_for()
        status = await _main_text(page)
        assert "numplayers" not in status and re.search(r"players per table\s+3", status)
        assert internals(status) == [], internals(status)
        assert browser.errors == []
