"""A person uploads the starter kit on the web hall and sees it play: sign up, download the
starter kit from /bots, upload it, and the ladder (herna.servers.ladder) plays it in the real
sandbox against a house bot; its page shows the game, the replay link and, to its author
only, its log. Real browser, real sockets, a real SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from herna.hall.submissions import GAMES
from herna.servers.ladder import Ladder, LadderSettings
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path


@pytest.mark.browser
async def test_a_person_uploads_the_starter_kit_and_sees_it_play(
    tmp_path: Path, browser: Browser
) -> None:
    async with serving(tmp_path, "onitama,web", onitama_house_bot_delay=0.02) as hall:
        web = hall.service("web")
        assert isinstance(web, WebHall)
        ladder = Ladder(hall, "127.0.0.1", LadderSettings(concurrency=1, pause=0.2))
        assert await ladder.start() is None
        try:
            page = browser.page
            await page.goto(web.url + "/")
            await page.get_by_role("link", name="Sign in", exact=True).click()
            await page.get_by_role("link", name="Sign up", exact=True).click()
            await page.get_by_label("Name", exact=True).fill("Ludmila")
            await page.get_by_label("Password", exact=True).fill("a long password")
            await page.get_by_role("button", name="Sign up").click()
            await page.get_by_role("link", name="Bots", exact=True).click()
            await page.get_by_role("heading", name="Submitted bots").wait_for()
            # every game's standings, each empty
            assert await page.get_by_text("No bot uploaded yet.").count() == len(GAMES)
            async with page.expect_download() as download:
                await page.get_by_role("link", name="Onitama in Python 3").click()
            kit = tmp_path / (await download.value).suggested_filename
            await (await download.value).save_as(kit)
            assert kit.name == "onitama-starter.py" and b"MAKE_MOVE" in kit.read_bytes()
            await page.screenshot(path=screenshot_path("bots-upload-1280"), full_page=True)

            # A file the hall cannot run is refused with the reason, on the same form.
            wrong = tmp_path / "bot.rb"
            wrong.write_text("puts 1\n")
            await page.get_by_label("Bot name").fill("ludmila-kit")
            await page.get_by_label("Program").set_input_files(str(wrong))
            await page.get_by_role("button", name="Upload").click()
            alert = await page.get_by_role("alert").inner_text()
            assert "'bot.rb' is not a language the hall runs" in alert, alert
            await page.get_by_label("Bot name").fill("ludmila-kit")
            await page.get_by_label("Program").set_input_files(str(kit))
            await page.get_by_role("button", name="Upload").click()
            await page.get_by_role("heading", name="ludmila-kit").wait_for()
            status = await page.get_by_role("status").inner_text()
            assert "herna submit onitama FILE --name ludmila-kit --token" in status
            assert "Python 3" in await page.locator("table").first.inner_text()

            # The ladder plays it within seconds; the author reloads the page to see it.
            for _ in range(60):
                await page.reload()
                if await page.get_by_role("link", name="replay").count():
                    break
                await asyncio.sleep(0.5)
            games = await page.locator("table").nth(1).inner_text()
            assert "house-" in games and ("won" in games or "lost" in games), games
            await page.get_by_text("log", exact=True).first.click()
            log = await page.locator("details pre").first.inner_text()
            assert "playing house-" in log
            await page.screenshot(path=screenshot_path("bots-page-1280"), full_page=True)
            await page.set_viewport_size({"width": 390, "height": 844})
            await page.screenshot(path=screenshot_path("bots-page-390"), full_page=True)
            wide = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert wide[0] <= wide[1], wide

            await page.get_by_role("link", name="All submitted bots").click()
            await page.get_by_role("link", name="ludmila-kit").wait_for()
            await page.get_by_role("link", name="How to write one").click()
            await page.get_by_role(
                "heading", name="Submitted bots: the hall runs your program"
            ).wait_for()
            await page.go_back()
            await page.screenshot(path=screenshot_path("bots-index-390"), full_page=True)
            wide = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert wide[0] <= wide[1], wide
            await page.get_by_role("link", name="ludmila-kit").click()
            await page.get_by_role("link", name="replay").first.click()
            await page.wait_for_url("**/matches/*")
            assert "ludmila-kit" in await page.content()

            # Anyone else sees the games, not the log.
            async with httpx.AsyncClient(base_url=web.url, timeout=10) as http:
                other = (await http.get("/bots/ludmila-kit")).text
            assert "house-" in other and "playing house-" not in other
            assert "author only" in other, other
            # the refused upload is answered 400, which the console reports
            assert [x for x in browser.errors if "status of 400" not in x] == []
        finally:
            await ladder.stop()
