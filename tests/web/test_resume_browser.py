"""A dropped WebSocket catches up without a reload (real ``herna serve``, real Chromium).

The watch page of a mariáš table (a group deals again and again at one address, so the game
goes on however long the test takes) loses its ``/ws/live`` socket twice: once for a few
events (the hub still keeps them: the page resumes and lists exactly the missed ones) and
once for more events than the hub keeps (the page gets a fresh snapshot of the table and
says events are missing). The Onitama seat page loses ``/ws/onitama`` while the house bot
moves: it logs in again with its seat secret and its move list ends complete and without
doubles. In every case the page was not reloaded (a marker set in the page survives, the
navigation count stays one).

Sockets are cut from inside the page: an init script wraps ``WebSocket`` so that the test
can close the live one and keep new ones from connecting (they ask for a path the hall
refuses) for as long as it wants the browser to be "offline".
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from herna.hall.hall import Hall
from herna.web.live import LiveTable
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import (
    Frames,
    play_hall,
    play_one,
    sit_down,
    state,
    wait_my_turn,
)

SOCKETS = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.__offline = false;
  class Watched extends Real {
    constructor(url, protocols) {
      // "offline": every new socket asks for a path the hall refuses, and fails at once
      super(window.__offline ? String(url).replace("/ws/", "/ws-offline/") : url, protocols);
      window.__sockets.push(this);
    }
  }
  window.WebSocket = Watched;
})();
"""

CUT = """(path) => {
  window.__offline = true;
  for (const ws of window.__sockets) if (ws.url.includes(path)) ws.close();
}"""

IN_GAME = "() => document.getElementById('play')?.dataset.phase === 'game'"
CONNECTS = "() => document.getElementById('live').dataset.connects === '{}'"

NOT_RELOADED = (
    "() => window.__marker === 'still here'"
    " && performance.getEntriesByType('navigation').length === 1"
)


def _web(hall: Hall) -> WebHall:
    web = hall.service("web")
    assert isinstance(web, WebHall)
    return web


async def _until(check: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


async def _marias_table(web: WebHall) -> str:
    async with httpx.AsyncClient(base_url=web.url, timeout=5) as http:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            tables = (await http.get("/api/live", params={"game": "marias"})).json()
            if tables:
                return str(tables[0]["table"])
            await asyncio.sleep(0.05)
    raise AssertionError("no mariáš table went live")


async def _page_log(page: Any) -> list[tuple[int, str]]:
    """(version, kind) of every event the watch page lists, oldest first."""
    items: list[list[Any]] = await page.evaluate(
        "() => [...document.querySelectorAll('section.table ol.events li')]"
        ".map((li) => [Number(li.dataset.v), li.dataset.kind])"
    )
    return [(int(v), str(kind)) for v, kind in reversed(items)]


async def _check_log(page: Any, table: LiveTable) -> list[tuple[int, str]]:
    """The page lists every event once, consecutive, up to the hub's newest one, each the
    hub's own event of that version."""
    await _until(lambda: table.flushed == table.version, 5)
    newest = table.flushed
    await page.wait_for_function(
        f"() => Number(document.querySelector('section.table').dataset.version) >= {newest}"
    )
    log = await _page_log(page)
    versions = [v for v, _ in log]
    assert versions == list(range(versions[0], versions[0] + len(versions))), versions
    assert versions[-1] >= newest
    for v, kind in log:
        if v >= table.oldest:
            assert table.history[v - table.oldest].kind == kind, v
    return log


async def open_watch_page(page: Any, url: str) -> list[str]:
    """Open a watch page whose sockets the test can cut (:data:`SOCKETS`), wait for its first
    events and mark it (:data:`NOT_RELOADED`); the list fills with every ``/ws/live`` frame
    the page receives."""
    await page.add_init_script(SOCKETS)
    received: list[str] = []

    def on_socket(ws: Any) -> None:
        if "/ws/live" in ws.url:
            ws.on("framereceived", lambda payload: received.append(str(payload)))

    page.on("websocket", on_socket)
    await page.goto(url)
    await page.wait_for_selector("section.table ol.events li", state="attached")
    await page.evaluate("() => { window.__marker = 'still here'; }")
    return received


def _first_after_reconnect(received: list[str], connects: int) -> dict[str, Any]:
    """The first frame of the ``connects``-th /ws/live connection."""
    frames = [json.loads(f) for f in received]
    firsts = [f for f in frames if f["type"] in ("snapshot", "resume")]
    assert len(firsts) >= connects, [f["type"] for f in frames]
    return firsts[connects - 1]


async def test_a_watch_page_resumes_after_a_drop_and_gets_a_snapshot_after_a_long_one(
    tmp_path: Path, browser: Browser
) -> None:
    history = 60
    async with serving(
        tmp_path, "marias,web", cgml_bot_delay=0.08, web_history=history, web_interval=0.05
    ) as hall:
        web = _web(hall)
        address = await _marias_table(web)
        table = web.hub.tables[("marias", address)]
        page = browser.page
        received = await open_watch_page(page, f"{web.url}/live/marias/{address}")
        await _check_log(page, table)

        # 1. A short drop: the events missed are still kept, so the page resumes.
        await page.evaluate(CUT, "/ws/live")
        at_cut = table.version
        await _until(lambda: table.version >= at_cut + 3)
        assert table.version - at_cut < history // 2  # the gap is well within the history
        await page.evaluate("() => { window.__offline = false; }")
        await page.wait_for_function(CONNECTS.format(2))
        first = _first_after_reconnect(received, 2)
        assert first["type"] == "resume"
        [part] = first["tables"]
        assert part["mode"] == "resume"
        assert part["events"][0]["v"] <= at_cut + 1  # from just after what the page had
        log = await _check_log(page, table)
        assert log[0][0] < at_cut < log[-1][0]  # one list across the drop
        assert await page.evaluate(NOT_RELOADED)
        await page.screenshot(path=screenshot_path("resume-watch-page"), full_page=True)

        # 2. A long drop: more events than the hub keeps, so a fresh snapshot of the table.
        await page.evaluate(CUT, "/ws/live")
        at_cut = table.version
        await _until(lambda: table.version > at_cut + history + 5, 40)
        await page.evaluate("() => { window.__offline = false; }")
        await page.wait_for_function(CONNECTS.format(3), timeout=20_000)
        first = _first_after_reconnect(received, 3)
        assert first["type"] == "resume"
        [part] = first["tables"]
        assert part["mode"] == "snapshot"
        log = await _check_log(page, table)
        assert log[0][0] > at_cut + 1  # the page starts again after the gap …
        meta = await page.locator("section.table .meta").inner_text()
        assert "events not listed" in meta  # … and says so
        assert await page.evaluate(NOT_RELOADED)
        errors = [e for e in browser.errors if "/ws-offline/" not in e]
        assert errors == []


async def test_an_onitama_seat_page_catches_up_after_a_drop_without_a_reload(
    tmp_path: Path, browser: Browser
) -> None:
    # A fixed seed fixes the deal, the colours and the house bot's play, and with them a
    # game that goes on past the moves below (with a drawn one the house bot sometimes won
    # before its answer the test waits for: about one run in three).
    async with play_hall(tmp_path, house_bot_delay=0.3, seed=RESUME_SEED) as h:
        page = browser.page
        await page.add_init_script(SOCKETS)
        await page.goto(h.url + "/play/onitama")
        await sit_down(page)
        await page.wait_for_function(IN_GAME)
        await page.evaluate("() => { window.__marker = 'still here'; }")
        for _ in range(2):
            assert await wait_my_turn(page) == "game"
            await play_one(page)
        assert await wait_my_turn(page) == "game"
        frames = Frames().watch(page)
        tables = h.onitama.hub.tables
        for _ in range(2):
            # Move, and lose the connection before the house bot's answer arrives.
            before = len((await state(page))["moves"])
            await play_one(page)
            await page.evaluate(CUT, "/ws/onitama")
            plies = before + 1
            await _until(lambda p=plies: any(t.moves > p for t in tables.values()), 10)
            await page.evaluate("() => { window.__offline = false; }")
            await page.wait_for_function(
                f"() => window.HernaPlay.state.phase === 'game'"
                f" && window.HernaPlay.state.moves.length >= {plies + 1}",
                timeout=15_000,
            )
        after = await state(page)
        [table] = list(h.onitama.hub.tables.values())
        assert len(after["moves"]) == table.moves
        # a ply listed twice would sit next to itself (each line starts with its mover)
        assert _no_adjacent_doubles(after["moves"])
        assert after["board"] == table.state.board
        assert any(f.startswith("RECONNECT|") for f in frames.received)
        listed = await page.locator("#play-moves li").all_inner_texts()
        assert listed == after["moves"]
        assert await page.evaluate(NOT_RELOADED)
        errors = [e for e in browser.errors if "/ws-offline/" not in e]
        assert errors == []


RESUME_SEED = 1
"""The Onitama server seed of the resume test (see there)."""


def _no_adjacent_doubles(moves: list[str]) -> bool:
    return all(a != b for a, b in itertools.pairwise(moves))
