"""A live mariáš tournament in a real ``herna serve`` (the CGML servers and the web hall): made
on the web page, a signed-in person waits at the play page and two bots over CGML; the booked
table (a group of one deal) is played in Chromium, then the seat hears the tournament is
over."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from herna.hall.tournament_store import TournamentStore
from tests.live_tournaments import cgml_entrants, entered, finished, reserve, sign_up_and_create
from tests.web.conftest import Browser, screenshot_path
from tests.web.test_play_marias import marias_hall, play_until_deals

pytestmark = pytest.mark.browser
BOTS = ("mbot1", "mbot2")


async def test_a_person_plays_a_mariáš_tournament_table_with_two_bots(
    tmp_path: Path, browser: Browser
) -> None:
    async with marias_hall(tmp_path) as h:
        page, hall = browser.page, h.hall
        tokens = reserve(hall, *BOTS)
        fields = {"name": "Mariášový večer", "game": "marias", "deals": "1", "format": "swiss"}
        tid = await sign_up_and_create(page, h.url, {**fields, "rounds": "1"})
        await page.click("#join")
        await page.wait_for_url("**/play/marias*")
        await page.wait_for_function(
            "() => document.getElementById('play')?.dataset.status === 'waiting'"
        )
        assert f"tournament {tid}" in await page.locator("#play-status").inner_text()

        host, port = h.marias.login.player_address[:2]
        bots = cgml_entrants(host, port, tokens, tid)
        director = hall.tournaments
        assert director is not None
        assert sorted(await entered(director, tid, 3)) == sorted(("Vendula", *BOTS))
        director.begin(tid)
        await play_until_deals(page, 1)
        await page.wait_for_function(
            "() => document.getElementById('play-status').textContent"
            ".includes('tournament is over')"
        )
        await page.screenshot(path=screenshot_path("tournament-marias-over-1280"), full_page=True)
        await asyncio.wait_for(asyncio.gather(*bots), 15)
        tour = await finished(TournamentStore(hall.records.engine), tid)
        assert tour.status == "finished"
        (game,) = tour.games
        assert sorted(game.seats) == sorted(("Vendula", *BOTS)) and game.forfeit is None
        assert sum(game.ranks) == 0
        assert browser.errors == []
