"""The browser renderer (herna/web/static/games/onitama.js) in headless chromium, alone and
inside the web hall with a live Onitama server and its replays."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from herna.games.onitama.board import parse_square
from herna.games.onitama.state import Move, OnitamaState
from tests.chromium import Chromium
from tests.onitama.helpers import blocked_state
from tests.serve import serving

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "herna" / "web" / "static"
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "onitama"


class Page:
    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)


@pytest.fixture
async def browser(chromium: Chromium) -> AsyncIterator[Page]:
    shared = await chromium.get()
    page = await shared.new_page(viewport={"width": 1100, "height": 900})
    page.set_default_timeout(15_000)
    try:
        yield Page(page)
    finally:
        await page.context.close()


def shot(name: str) -> str:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return str(SHOTS / f"{name}.png")


async def render(page: Any, view: dict[str, Any], event: dict[str, Any] | None = None) -> None:
    await page.evaluate(
        "([view, event]) => window.HernaGames.onitama.render("
        "document.getElementById('c'), view, event)",
        [view, event],
    )


async def test_renderer_draws_board_hands_spare_and_last_move(browser: Page) -> None:
    page = browser.page
    await page.set_content("<!doctype html><html><head></head><body><div id=c></div></body>")
    await page.add_script_tag(path=str(STATIC / "hall.js"))
    await page.add_script_tag(path=str(STATIC / "games" / "onitama.js"))
    state = OnitamaState.setup(["Ox", "Boar"], ["Horse", "Elephant"], "Crab")
    state = state.apply(Move("Ox", parse_square("c1"), parse_square("c2")))
    view = state.view(None)
    view["players"] = {"white": "ann", "black": "bob"}
    await render(page, json.loads(json.dumps(view)))
    assert await page.locator("#c rect.oni-square").count() == 25
    assert await page.locator("#c .oni-piece").count() == 10
    assert await page.locator("#c .oni-white.oni-master").count() == 1
    assert await page.locator("#c .oni-black.oni-student").count() == 4
    assert await page.locator('#c rect.oni-last-from[data-square="c1"]').count() == 1
    assert await page.locator('#c rect.oni-last-to[data-square="c2"]').count() == 1
    cards = page.locator("#c .oni-card")
    assert await cards.count() == 5
    roles = {
        await cards.nth(i).get_attribute("data-card"): await cards.nth(i).get_attribute("data-role")
        for i in range(5)
    }
    assert roles == {
        "Crab": "white",
        "Boar": "white",
        "Horse": "black",
        "Elephant": "black",
        "Ox": "spare",
    }
    assert await page.locator('#c .oni-card-played[data-card="Ox"]').count() == 1
    # Ox has three target squares in its grid
    assert await page.locator('#c .oni-card[data-card="Ox"] .oni-card-target').count() == 3
    text = await page.locator("#c").inner_text()
    assert "bob (black) to move" in text and "ann (white) played Ox c1→c2" in text
    await page.screenshot(path=shot("renderer"), full_page=True)

    # a finished game, and a stalemate swap
    over = OnitamaState.setup(
        ["Tiger", "Boar"], ["Horse", "Elephant"], "Crab", board="..B.........W.......w...."
    )
    over = over.apply(Move("Tiger", parse_square("c3"), parse_square("c5")))
    await render(page, over.view(None), {"data": {"white": "ann", "black": "bob"}})
    text = await page.locator("#c").inner_text()
    assert "ann wins by the Way of the Stone (captured the master)" in text
    assert await page.locator("#c .oni-black.oni-master").count() == 0
    blocked = blocked_state()
    pending = blocked.apply(blocked.legal_actions()[0])
    from herna.games.onitama.state import Draw

    swapped = pending.apply(Draw("Dragon"))
    await render(page, swapped.view(None))
    assert "swapped Tiger for Dragon" in await page.locator("#c").inner_text()
    assert await page.locator("#c rect.oni-last").count() == 0
    assert browser.errors == []


async def test_live_board_and_replay_in_the_web_hall(tmp_path: Path, browser: Page) -> None:
    async with serving(
        tmp_path,
        "onitama,web",
        config={"onitama": {"house_bot_depth": 1}},
        onitama_house_bots=2,
        onitama_house_bot_delay=0.05,
    ) as hall:
        web: Any = hall.service("web")
        page = browser.page
        await page.goto(web.url + "/live/onitama")
        board = page.locator('section.table[data-game="onitama"] .view[data-renderer="onitama"]')
        await board.first.wait_for()
        plies: set[str | None] = set()
        deadline = time.monotonic() + 20
        while len(plies) < 3 and time.monotonic() < deadline:
            ply = await page.locator(".onitama").first.get_attribute("data-ply")
            plies.add(ply)
            await asyncio.sleep(0.1)
        assert len(plies) >= 3, "the live board did not follow the game"
        assert await page.locator(".onitama").first.locator("rect.oni-square").count() == 25
        await page.screenshot(path=shot("live"), full_page=True)
        # wait for a finished game and step through its replay
        deadline = time.monotonic() + 30
        while hall.records.count("onitama") == 0 and time.monotonic() < deadline:
            hall.records.flush()
            await asyncio.sleep(0.2)
        [match] = hall.records.matches(game="onitama", limit=1)
        await page.goto(f"{web.url}/matches/{match.id}")
        await page.locator("#replay[data-steps]").wait_for()
        view = page.locator("#replay-view")
        assert await view.get_attribute("data-renderer") == "onitama"
        assert "cards dealt" in await page.locator("#replay-label").inner_text()
        await page.click("button[data-step=last]")
        assert "wins" in await page.locator("#replay-label").inner_text()
        assert await view.locator(".oni-winner").count() == 1
        await page.screenshot(path=shot("replay"), full_page=True)
        assert browser.errors == []
