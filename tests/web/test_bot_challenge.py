"""The ladder's standings and "Play this bot": a person signs up, finds a submitted bot in the
ladder standings on the Bots page (games, wins, a rating with its interval), opens its page
and plays a whole Onitama game against it, the bot running in the real sandbox and seated
by the hall's lobby as any challenge. Real browser, real sockets, a real SQLite file."""

from __future__ import annotations

import asyncio
import random
import shutil
from pathlib import Path

import pytest

from herna.hall.submissions import Submissions
from herna.servers.contest import SandboxedBots
from herna.servers.ladder import Ladder, LadderSettings
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.bot_helpers import fits, sign_up_from_home, starter_source
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import play_one, wait_my_turn

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is missing")


@pytest.mark.browser
async def test_a_person_finds_a_bot_on_the_ladder_and_plays_it_to_the_end(
    tmp_path: Path, browser: Browser
) -> None:
    async with serving(tmp_path, "onitama,web", onitama_house_bot_delay=0.02) as hall:
        web = hall.service("web")
        assert isinstance(web, WebHall)
        kit = starter_source()
        bots = Submissions(hall.records.engine, hall.identity)
        bots.submit("kit-bot", "onitama", "bot.py", kit, person="teacher")
        ladder = Ladder(hall, "127.0.0.1", LadderSettings(concurrency=1, pause=0.2))
        assert await ladder.start() is None
        hall.submitted = SandboxedBots(ladder)
        try:
            # The ladder rates it against the house bots first (a rating with an interval).
            for _ in range(300):
                rated = [s for s in hall.records.standings("onitama") if s.name == "kit-bot"]
                if rated and rated[0].sigma is not None and rated[0].games >= 2:
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("the ladder did not play kit-bot")

            page = browser.page
            await page.set_viewport_size({"width": 1280, "height": 800})
            await sign_up_from_home(page, web.url, "Ota")
            await page.get_by_role("link", name="Bots", exact=True).click()
            await page.get_by_role("heading", name="Onitama: ladder standings").wait_for()
            row = await page.locator("table.results tbody tr").first.inner_text()
            assert "kit-bot" in row and "teacher" in row and " to " in row, row
            assert "unrated" not in row
            await page.screenshot(path=screenshot_path("ladder-standings-1280"), full_page=True)
            await page.set_viewport_size({"width": 390, "height": 844})
            await page.screenshot(path=screenshot_path("ladder-standings-390"), full_page=True)
            await fits(page)
            await page.set_viewport_size({"width": 1280, "height": 800})

            await page.get_by_role("link", name="kit-bot").click()
            await page.get_by_role("heading", name="kit-bot").wait_for()
            standing = await page.locator("#bot-standing").inner_text()
            assert "Latest version: v1" in standing and "rating:" in standing, standing
            assert await page.get_by_role("link", name="replay").count() >= 2
            await page.screenshot(path=screenshot_path("bot-page-play-1280"), full_page=True)
            await page.get_by_role("button", name="Play this bot").click()
            await page.wait_for_url("**/play/onitama**")

            moves = 0
            while await wait_my_turn(page) != "over":
                if moves == 3:
                    await page.screenshot(path=screenshot_path("bot-challenge-game-1280"))
                await play_one(page, rnd=random.Random(moves))
                moves += 1
                assert moves < 200
            players = await page.evaluate(
                "() => [window.HernaPlay.state.white, window.HernaPlay.state.black]"
            )
            assert sorted(players) == ["Ota", "kit-bot"], players
            result = await page.locator("#play-result").inner_text()
            assert result.startswith(("You won", "You lost", "A draw")), result
            await page.screenshot(path=screenshot_path("bot-challenge-over-1280"))
            await page.set_viewport_size({"width": 390, "height": 844})
            await page.screenshot(path=screenshot_path("bot-challenge-over-390"))
            await fits(page)

            # The bot's page lists the game against the person, with its replay.
            await page.set_viewport_size({"width": 1280, "height": 800})
            for _ in range(50):
                runs = [r for r in bots.runs("kit-bot") if r.opponent == "Ota"]
                if runs:
                    break
                await asyncio.sleep(0.1)
            assert runs and runs[0].match_id is not None, runs
            await page.get_by_role("link", name="Bots", exact=True).click()
            await page.get_by_role("link", name="kit-bot").click()
            games = await page.locator("table.results").nth(1).inner_text()
            assert "Ota" in games, games
            assert browser.errors == []
        finally:
            await ladder.stop()
