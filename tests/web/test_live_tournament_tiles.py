"""A live tile tournament in a real ``herna serve`` (the tile server and the web hall): made on
the web page with its rules file, a signed-in person waits at the play page and three bots
over TCP; the booked table plays in Chromium, then the page hears the tournament is over."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from herna.hall.tournament_store import TournamentStore
from herna.servers.tiles import TilesService
from tests.live_tournaments import entered, reserve, sign_up_and_create, tiles_entrants
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path
from tests.web.test_people import _web
from tests.web.test_play_tiles import PHASE, play_to_the_end

pytestmark = pytest.mark.browser
BOTS = ("tbot1", "tbot2", "tbot3")


async def test_a_person_plays_a_tile_tournament_table_with_three_bots(
    tmp_path: Path, browser: Browser
) -> None:
    async with serving(tmp_path, "tiles,web", tiles_no_showcase=True, tiles_bot_delay=0.0) as hall:
        web, page = _web(hall), browser.page
        tiles = hall.service("tiles")
        assert isinstance(tiles, TilesService)
        tokens = reserve(hall, *BOTS)

        fields = {"name": "Tsuro evening", "game": "tiles", "rules": "tsuro", "format": "swiss"}
        tid = await sign_up_and_create(page, web.url, {**fields, "rounds": "1"})
        await page.click("#join")
        await page.wait_for_url("**/play/tiles*")
        await page.wait_for_function(f"() => {PHASE} === 'waiting'")
        assert "tournament" in await page.locator("#play-status").inner_text()

        bots = tiles_entrants(tiles.port, tokens, tid)
        director = hall.tournaments
        assert director is not None
        assert sorted(await entered(director, tid, 4)) == sorted(("Vendula", *BOTS))
        director.begin(tid)

        await play_to_the_end(page, random.Random(5))
        await page.screenshot(path=screenshot_path("tournament-tiles-over-1280"), full_page=True)
        await asyncio.wait_for(asyncio.gather(*bots), 30)
        await page.wait_for_function(
            "() => window.HernaTilesPlay.state.note.includes('tournament is over')"
        )
        store = TournamentStore(hall.records.engine)
        tour = store.get(tid)
        assert tour is not None and tour.status == "finished"
        assert tour.settings["rules"] == "tsuro"
        (game,) = tour.games
        assert sorted(game.seats) == sorted(("Vendula", *BOTS)) and game.forfeit is None
        assert browser.errors == []
