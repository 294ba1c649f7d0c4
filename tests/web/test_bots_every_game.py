"""A person uploads the starter kit of mariáš, Mia or a tile game on the web hall and sees it
play: sign up from the home page, open Bots, download that game's starter kit (and the C kit
beside it, under its own name), upload the Python kit for that game, and the ladder plays it
in the real sandbox over the game's real server (CGML, UDP, tile JSON lines); its page shows
the game and, to its author only, its log. Real browser, real sockets, a real SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from herna.servers.ladder import Ladder, LadderSettings
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.bot_helpers import fits, sign_up_from_home
from tests.web.conftest import Browser, screenshot_path

# game: (its title on the page, a line its starter kit logs during a game, a word the
# server's kit protocol carries that the kit file must hold)
GAMES = {
    "marias": ("Mariáš", "I am marias-kit playing with", b"</cgml>"),
    "mia": ("Mia", "order ", b"ANNOUNCE"),
    "tiles": ("Tile games", "the game begins: tiles-kit", b'"act"'),
}


@pytest.mark.browser
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_person_uploads_a_starter_kit_of_each_game_and_sees_it_play(
    tmp_path: Path, browser: Browser, game: str
) -> None:
    title, logged, wire = GAMES[game]
    bot = f"{game}-kit"
    async with serving(tmp_path, f"{game},web", tiles_no_showcase=True) as hall:
        web = hall.service("web")
        assert isinstance(web, WebHall)
        ladder = Ladder(hall, "127.0.0.1", LadderSettings(concurrency=1, pause=0.2))
        assert await ladder.start() is None
        try:
            page = browser.page
            await sign_up_from_home(page, web.url, "Ludmila")
            await page.get_by_role("link", name="Bots", exact=True).click()
            await page.get_by_role("heading", name="Submitted bots").wait_for()
            async with page.expect_download() as download:
                await page.get_by_role("link", name=f"{title} in Python 3", exact=True).click()
            kit = tmp_path / (await download.value).suggested_filename
            await (await download.value).save_as(kit)
            assert kit.name == f"{game}-starter.py" and wire in kit.read_bytes()
            # The C kit beside it (test_every_game.py plays it).
            async with page.expect_download() as download:
                await page.get_by_role("link", name=f"{title} in C", exact=True).click()
            c_kit = await (await download.value).path()
            assert (await download.value).suggested_filename == f"{game}-starter.c"
            assert b"int main(void)" in c_kit.read_bytes()

            await page.get_by_label("Bot name").fill(bot)
            await page.get_by_label("Game").select_option(label=title)
            await page.get_by_label("Program").set_input_files(str(kit))
            await page.get_by_role("button", name="Upload").click()
            await page.get_by_role("heading", name=bot).wait_for()
            assert f"A submitted {title} bot by Ludmila" in await page.content()

            # The ladder plays it within seconds; the author reloads the page to see it.
            for _ in range(120):
                await page.reload()
                if await page.get_by_text("log", exact=True).count():
                    break
                await asyncio.sleep(0.5)
            games = await page.locator("table").nth(1).inner_text()
            assert "house-" in games and any(w in games for w in ("won", "lost", "draw")), games
            await page.get_by_text("log", exact=True).first.click()
            log = await page.locator("details pre").first.inner_text()
            assert logged in log, log
            await page.screenshot(path=screenshot_path(f"bots-{game}-1280"), full_page=True)
            await page.set_viewport_size({"width": 390, "height": 844})
            await page.screenshot(path=screenshot_path(f"bots-{game}-390"), full_page=True)
            await fits(page)
            if game != "mia":  # a Mia session is many rounds: no one replay
                await page.get_by_role("link", name="replay").first.click()
                await page.wait_for_url("**/matches/*")
                assert bot in await page.content()

            # Anyone else sees the games, not the log.
            async with httpx.AsyncClient(base_url=web.url, timeout=10) as http:
                other = (await http.get(f"/bots/{bot}")).text
            assert "house-" in other and logged not in other
            assert "author only" in other, other
            assert browser.errors == []
        finally:
            await ladder.stop()
