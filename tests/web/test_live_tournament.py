"""A live tournament in a real ``herna serve`` (Onitama and the web hall): created on the web
page with an admin token, a signed-in person enters at the play page and a bot over TCP under
its reserved name, the admin starts it, and the person plays the tournament game in Chromium.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import httpx
import pytest

from herna.hall.identity import ReservedNames
from herna.hall.tournament_store import TournamentStore
from tests.live_tournaments import entered, finished, onitama_entrant
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import Frames, play_one, wait_my_turn
from tests.web.test_people import ONITAMA, _onitama, _web

pytestmark = pytest.mark.browser


async def test_a_person_and_a_bot_play_a_tournament_made_on_the_web_page(
    tmp_path: Path, browser: Browser
) -> None:
    async with serving(tmp_path, "onitama,web", **ONITAMA) as hall:
        web, onitama, page = _web(hall), _onitama(hall), browser.page
        token = ReservedNames(hall.records.engine).add("robo")
        hall.identity.reload()

        # Anyone may make a tournament; its admin token is shown once.
        await page.goto(web.url + "/tournaments")
        await page.click("#new-tournament-link")
        await page.fill("#t-name", "Friday club")
        await page.select_option("#t-format", "round-robin")
        await page.fill("#t-start", "30")
        await page.click("#new-tournament button[type=submit]")
        admin = (await page.locator("#admin-token").inner_text()).strip()
        assert len(admin) >= 32
        await page.screenshot(path=screenshot_path("tournament-created-1280"), full_page=True)
        await page.click("#tournament-link")
        tid = int(page.url.rsplit("/", 1)[1])
        store = TournamentStore(hall.records.engine)
        tour = store.get(tid)
        assert tour is not None and tour.status == "entry"
        assert (
            "admin_digest"
            not in (await httpx.AsyncClient().get(f"{web.url}/tournaments/{tid}/table.json")).text
        )
        # A guest is asked to sign in: a seat belongs to a proven name.
        assert await page.locator("#sign-in-to-enter").count() == 1

        await page.click("#sign-in-to-enter a[href^='/signup']")
        await page.fill("#name", "Vendula")
        await page.fill("#password", "correct horse battery")
        await page.click("form.account button[type=submit]")
        await page.wait_for_url(f"{web.url}/tournaments/{tid}")
        frames = Frames().watch(page)
        # every sentence the tournament panel says, from the first (newest page on)
        await page.add_init_script(
            "setInterval(() => { const m = document.getElementById('tournament-message');"
            " const said = (window.tsSaid = window.tsSaid || []);"
            " if (m && said[said.length - 1] !== m.innerText) said.push(m.innerText); }, 20)"
        )
        await page.click("#join")
        await page.wait_for_url("**/play/onitama*")
        await page.wait_for_function(
            "() => window.HernaPlay && window.HernaPlay.state.phase === 'lobby'"
        )
        assert re.fullmatch(rf"LOGIN\|Vendula\|[\w-]+\|person,tournament={tid}", frames.sent[0])

        bot = onitama_entrant(onitama.port, "robo", token, tid, 3)
        director = hall.tournaments
        assert director is not None
        assert sorted(await entered(director, tid, 2)) == ["Vendula", "robo"]
        tour = store.get(tid)
        assert tour is not None and {e.name for e in tour.entrants} == {"Vendula", "robo"}
        # entering, the panel never said the person had not entered (a moment's news before)
        await page.wait_for_selector("#tournament-seat[data-kind=entry]")
        said = await page.evaluate("window.tsSaid")
        assert said[0] == "Entering Friday club…" or said[0].startswith("You are entered"), said
        assert not any("has not entered" in x for x in said), said

        # The admin, at another browser, starts it (a wrong token is refused first).
        other = browser.page.context.browser
        assert other is not None
        admin_page = await other.new_page(viewport={"width": 1280, "height": 900})
        await admin_page.goto(f"{web.url}/tournaments/{tid}")
        assert "Vendula" in await admin_page.locator("#waiting").inner_text()
        await admin_page.click("#admin summary")
        await admin_page.fill("#admin-token-input", "not-the-token")
        await admin_page.click("#admin-start")
        assert "Not allowed" in await admin_page.locator("h1").inner_text()
        await admin_page.goto(f"{web.url}/tournaments/{tid}")
        await admin_page.click("#admin summary")
        await admin_page.fill("#admin-token-input", admin)
        await admin_page.click("#admin-start")
        await admin_page.wait_for_url(f"{web.url}/tournaments/{tid}")

        # The person plays the tournament's game on the play page, move by move.
        moves = 0
        while await wait_my_turn(page) != "over":
            await play_one(page)
            moves += 1
            assert moves < 200
        await asyncio.wait_for(bot, 10)
        tour = await finished(store, tid)
        assert tour.status == "finished"
        (game,) = tour.games
        assert set(game.seats) == {"Vendula", "robo"} and game.forfeit is None
        assert sum(r.points for r in tour.standings()) == 1
        hall.records.flush()
        await admin_page.goto(f"{web.url}/tournaments/{tid}")
        await admin_page.wait_for_selector("#tournament-body[data-status=finished]")
        links = admin_page.locator("#tournament-body a[href^='/matches/']")
        hrefs = {await links.nth(i).get_attribute("href") for i in range(await links.count())}
        assert len(hrefs) == 1  # the one game, from the crosstable and the games list
        await admin_page.screenshot(
            path=screenshot_path("tournament-live-done-1280"), full_page=True
        )
        assert [x for x in browser.errors if "status of 403" not in x] == []
