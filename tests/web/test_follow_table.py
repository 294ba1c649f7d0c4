"""Follow a table: a mariáš table keeps one live address for all its deals.

A CGML group plays deal after deal at one table. The live view of that table (``/live/marias/
<table>`` and ``/ws/live?game=marias&table=<table>``) must go on from one deal to the next
without a reload; each table appears once in the live list, and a table whose group has
closed is no longer listed as live. Real ``herna serve`` (mariáš house tables and the web
hall), real WebSockets, real Chromium.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from herna.hall.hall import Hall
from herna.web.live import LiveHub, LiveSettings
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path


def _web(hall: Hall) -> WebHall:
    web = hall.service("web")
    assert isinstance(web, WebHall)
    return web


async def _first_marias_table(web: WebHall, timeout: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=web.url, timeout=5) as http:
        while time.monotonic() < deadline:
            tables = (await http.get("/api/live", params={"game": "marias"})).json()
            if tables:
                first: dict[str, Any] = tables[0]
                return first
            await asyncio.sleep(0.05)
    raise AssertionError("no mariáš table went live")


def _deal(table: dict[str, Any]) -> int:
    event = table.get("event") or {}
    return int((event.get("data") or {}).get("game_no", 0))


async def test_one_table_address_carries_every_deal(tmp_path: Path) -> None:
    async with serving(tmp_path, "marias,web", cgml_bot_delay=0.0) as hall:
        web = _web(hall)
        first = await _first_marias_table(web)
        address = first["table"]
        query = f"?game=marias&table={address}"
        deals: set[int] = set()
        async with connect(f"ws://127.0.0.1:{web.port}/ws/live{query}", max_size=None) as ws:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and len(deals) < 3:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                for table in frame["tables"]:
                    assert table["table"] == address
                    deals.add(_deal(table))
        # The same address shows deal after deal (the old address was one deal long).
        assert len(deals) >= 3, deals
        async with httpx.AsyncClient(base_url=web.url, timeout=5) as http:
            tables = (await http.get("/api/live", params={"game": "marias"})).json()
        # One entry per table, however many deals it has played.
        assert len(tables) == len({t["table"] for t in tables}) == 1, [t["table"] for t in tables]


def test_a_closed_table_is_not_live_and_finished_tables_drop_out() -> None:
    """``group_closed`` ends a table for good (``game_over`` only ends a deal); a finished
    table leaves the live list after ``finished_ttl``."""
    from herna.hall.events import EventBus

    bus = EventBus()
    hub = LiveHub(bus, LiveSettings(finished_ttl=0.0))
    hub._apply(_event(bus, "g1", "game_started", 1))
    hub._apply(_event(bus, "g1", "game_over", 1))
    assert hub.tables[("marias", "g1")].status == "over"
    hub._apply(_event(bus, "g1", "game_started", 2))
    assert hub.tables[("marias", "g1")].status == "live"  # the next deal, same table
    hub._apply(_event(bus, "g1", "game_over", 2))
    hub._apply(_event(bus, "g1", "group_closed", 2))
    assert hub.tables[("marias", "g1")].status == "closed"
    hub._dirty.clear()
    hub._expire()
    assert ("marias", "g1") not in hub.tables


def _event(bus: Any, table: str, kind: str, deal: int) -> Any:
    from herna.hall.events import GameEvent

    return GameEvent("marias", table, kind, {"game_no": deal}, ts=time.time() - 1)


@pytest.mark.browser
async def test_the_live_table_page_follows_the_table_across_deals(
    tmp_path: Path, browser: Browser
) -> None:
    async with serving(tmp_path, "marias,web", cgml_bot_delay=0.01) as hall:
        web, page = _web(hall), browser.page
        first = await _first_marias_table(web)
        await page.goto(f"{web.url}/live/marias/{first['table']}")
        await page.evaluate("window.hernaNoReload = 1")
        deal = page.locator('section.table[data-game="marias"] .marias[data-deal]')
        await deal.first.wait_for()
        start = int(await deal.first.get_attribute("data-deal") or "0")
        await page.wait_for_function(
            "n => { const d = document.querySelector('.marias[data-deal]');"
            " return d && Number(d.dataset.deal) >= n; }",
            arg=start + 2,
            timeout=30_000,
        )
        assert await page.evaluate("window.hernaNoReload") == 1  # no reload happened
        assert await page.locator("section.table").count() == 1
        headings = await page.locator("section.table h3 a").all_inner_texts()
        assert len(headings) == 1
        await page.screenshot(path=screenshot_path("follow-marias-1280"), full_page=True)
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.screenshot(path=screenshot_path("follow-marias-390"), full_page=True)
        assert browser.errors == []
