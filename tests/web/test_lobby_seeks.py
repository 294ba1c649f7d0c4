"""What a person chooses on the lobby page survives live updates, and a seek ends when its page
is gone (after a short grace for a reload) — real Chromium, real sockets, the servers as
``herna serve`` starts them."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from herna.clients.onitama import run_bot
from herna.games.onitama.bots import make_strategy
from herna.hall.hall import Hall
from herna.servers.cgml import CgmlService
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.bot_helpers import sign_up_from_home
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import eventually

pytestmark = pytest.mark.browser

LIVE = "() => document.getElementById('lobby').dataset.state === 'live'"
PLAYING = "() => document.getElementById('play')?.dataset.status === 'playing'"


@asynccontextmanager
async def lobby_hall(tmp_path: Path, only: str, **options: Any) -> AsyncIterator[Hall]:
    """``herna serve --only <only>``: fast house bots, no standing house players, a short
    grace for seeks whose page is gone."""
    settings: dict[str, Any] = {"web_seek_grace": 2.0}
    if "marias" in only:
        settings.update(cgml_bot_delay=0.0, cgml_house_tables=0, cgml_fill_wait=0.05)
    if "onitama" in only:
        settings.update(
            onitama_house_bots=0,
            onitama_house_bot_strategy="greedy",
            onitama_house_bot_delay=0.0,
        )
    settings.update(options)
    async with serving(tmp_path, only, **settings) as hall:
        service = hall.service("marias")
        if isinstance(service, CgmlService):
            snap = service.login.lobby.snapshot
            await eventually(lambda: bool(snap()["game_servers"]) and snap()["bot_servers"], 10)
        yield hall


def url_of(hall: Hall) -> str:
    web = hall.service("web")
    assert isinstance(web, WebHall)
    return web.url


async def open_lobby(page: Any, url: str) -> str:
    """From the home page to the lobby by its button; the person's name there."""
    await page.goto(url + "/")
    await page.get_by_role("link", name="Lobby", exact=True).click()
    await page.wait_for_url("**/lobby")
    await page.wait_for_function(LIVE)
    return str(await page.locator("#lobby-name").inner_text())


async def new_person(browser: Browser) -> tuple[Any, Any]:
    """A second person: a browser context of its own (its own cookies)."""
    context = await browser.page.context.browser.new_context()
    page = await context.new_page()
    page.set_default_timeout(30_000)
    return context, page


async def test_the_game_chosen_in_the_lobby_survives_live_updates(
    tmp_path: Path, browser: Browser
) -> None:
    async with lobby_hall(tmp_path, "marias,onitama,web") as hall:
        page = browser.page
        me = await open_lobby(page, url_of(hall))
        assert await page.locator("#lobby-game").input_value() == "marias"  # the first game
        await page.select_option("#lobby-game", label="Onitama")
        await page.select_option("#lobby-opponent", label="People only")
        await page.fill("#lobby-challenge", "somebody")
        # live updates: a bot connects over TCP and waits; the list shows it without a reload
        service = hall.service("onitama")
        port = service.port  # type: ignore[union-attr]
        bot = asyncio.ensure_future(
            run_bot("127.0.0.1", port, "tcpbot", make_strategy("greedy"), games=1)
        )
        try:
            await page.locator('li.lobby-seek[data-owner="tcpbot"]').wait_for()
            await asyncio.sleep(0.3)
            assert await page.locator("#lobby-game").input_value() == "onitama"
            assert await page.locator("#lobby-opponent").input_value() == "people"
            assert await page.locator("#lobby-challenge").input_value() == "somebody"
            label = page.locator("label").filter(has=page.locator("#lobby-challenge"))
            assert "Challenge a player to Onitama" in await label.inner_text()
            await page.get_by_role("button", name="Sit down").click()
            await page.wait_for_url("**/play/onitama?seek=*")
            await eventually(lambda: any(s["owner"] == me for s in hall.lobby.snapshot()), 10)
            [seek] = [s for s in hall.lobby.snapshot() if s["owner"] == me]
            assert seek["game"] == "onitama" and seek["opponent"] == "people"
        finally:
            bot.cancel()
            await asyncio.gather(bot, return_exceptions=True)
        assert browser.errors == []


async def test_back_from_a_play_page_the_lobby_says_the_game_it_shows(
    tmp_path: Path, browser: Browser
) -> None:
    """The back button brings the menus' last choice back (the browser restores it without a
    change event): the challenge form names that game and the fill wait follows the opponent,
    at 390 px as at 1280."""
    async with lobby_hall(tmp_path, "marias,onitama,web") as hall:
        page = browser.page
        await page.set_viewport_size({"width": 390, "height": 844})
        await open_lobby(page, url_of(hall))
        await page.select_option("#lobby-game", label="Onitama")
        await page.select_option("#lobby-opponent", label="People only")
        await page.get_by_role("button", name="Sit down").click()
        await page.wait_for_url("**/play/onitama*")
        await page.go_back()
        await page.wait_for_url("**/lobby")
        await page.wait_for_function(LIVE)
        await page.wait_for_load_state("load")
        assert await page.locator("#lobby-game").input_value() == "onitama"
        label = page.locator("label").filter(has=page.locator("#lobby-challenge"))
        assert "Challenge a player to Onitama" in await label.inner_text()
        assert await page.locator("#lobby-fill").is_disabled()  # people only: no fill wait
        await page.screenshot(path=screenshot_path("lobby-back-from-play-390"))
        assert browser.errors == []


async def test_a_mariáš_seek_ends_when_its_page_is_gone_but_not_on_a_reload(
    tmp_path: Path, browser: Browser
) -> None:
    async with lobby_hall(tmp_path, "marias,web") as hall:
        url = url_of(hall)
        ctx_a, ann = await new_person(browser)
        bea = browser.page
        ann_name = await open_lobby(ann, url)
        await open_lobby(bea, url)
        await ann.select_option("#lobby-opponent", label="People only")
        await ann.get_by_role("button", name="Sit down").click()
        await ann.wait_for_url("**/play/marias?seek=*")
        row = bea.locator(f'li.lobby-seek[data-owner="{ann_name}"]')
        await row.wait_for()
        [seek] = hall.lobby.snapshot("marias")
        # a reload within the grace keeps the seek (the page takes its seat back)
        await ann.reload()
        await ann.locator("#play-status").filter(has_text=re.compile("[Ww]ait")).wait_for()
        await asyncio.sleep(2.5)  # longer than the grace
        assert [s["id"] for s in hall.lobby.snapshot("marias")] == [seek["id"]]
        # the page is gone: after the grace the seek leaves bea's lobby, live
        await ann.close()
        await asyncio.sleep(1.0)
        assert await row.count() == 1  # still within the grace
        await row.wait_for(state="detached", timeout=5_000)
        assert hall.lobby.snapshot("marias") == []
        # and it cannot be accepted any more: the lobby says so in words
        await bea.evaluate(f"window.HernaLobby.send({{type: 'accept', seek: '{seek['id']}'}})")
        error = bea.locator("#lobby-error")
        await error.filter(has_text="That seek is no longer open").wait_for()
        assert await error.get_attribute("data-code") == "NO_SUCH_SEEK"
        await bea.screenshot(path=screenshot_path("lobby-seek-gone-1280"), full_page=True)
        await ctx_a.close()
        hall.records.flush()
        assert hall.records.matches(game="marias") == []


async def test_nobody_sits_down_with_a_person_who_left_before_the_table_started(
    tmp_path: Path, browser: Browser
) -> None:
    """Within the grace the seek is still listed; taking it then gives no table with an empty
    seat: the table is called off before its first deal, the person who took the seek is told
    so in words and waits for people again, and nothing is recorded."""
    async with lobby_hall(tmp_path, "marias,web", web_seek_grace=30.0) as hall:
        url = url_of(hall)
        ctx_a, ann = await new_person(browser)
        bea = browser.page
        ann_name = await open_lobby(ann, url)
        bea_name = await open_lobby(bea, url)
        await ann.select_option("#lobby-opponent", label="People only")
        await ann.get_by_role("button", name="Sit down").click()
        await ann.wait_for_url("**/play/marias?seek=*")
        row = bea.locator(f'li.lobby-seek[data-owner="{ann_name}"]')
        await row.wait_for()
        await ctx_a.close()  # ann leaves; the seek stays for the grace
        await asyncio.sleep(0.5)
        await row.get_by_role("button", name=f"Play {ann_name}").click()
        await bea.wait_for_url("**/play/marias?seek=*accept=*")
        status = bea.locator("#play-status")
        await status.filter(has_text="did not start").wait_for(timeout=15_000)
        assert "waiting for another table" in await status.inner_text()
        assert await bea.evaluate("document.getElementById('play').dataset.status") == "waiting"
        await bea.screenshot(path=screenshot_path("lobby-left-before-start-1280"), full_page=True)
        # bea waits again, for people; ann's seek is gone
        await eventually(
            lambda: (
                [(s["owner"], s["opponent"]) for s in hall.lobby.snapshot("marias")]
                == [(bea_name, "people")]
            ),
            10,
        )
        hall.records.flush()
        assert hall.records.matches(game="marias") == []
        assert browser.errors == []


async def test_the_lobby_with_seeks_of_every_game_at_both_widths(
    tmp_path: Path, browser: Browser
) -> None:
    async with lobby_hall(
        tmp_path, "marias,onitama,tiles,web", tiles_no_showcase=True, tiles_bot_delay=0.0
    ) as hall:
        url = url_of(hall)
        ctx, ann = await new_person(browser)
        ann_name = await open_lobby(ann, url)
        tabs = [ann, await ctx.new_page(), await ctx.new_page()]
        for tab, game in zip(tabs, ("Mariáš", "Onitama", "Tile games"), strict=True):
            if tab is not ann:
                await open_lobby(tab, url)
            await tab.select_option("#lobby-game", label=game)
            if game == "Tile games":  # a tile table's rules are asked for with the seek
                await tab.select_option("#lobby-rules", "tsuro")
                await tab.select_option("#lobby-players", "3")
            await tab.select_option("#lobby-opponent", label="People only")
            await tab.get_by_role("button", name="Sit down").click()
            await tab.wait_for_url("**/play/*?seek=*")
        await eventually(lambda: len(hall.lobby.snapshot()) == 3, 10)
        bea = browser.page
        for width, height in ((1280, 800), (390, 844)):
            await bea.set_viewport_size({"width": width, "height": height})
            await open_lobby(bea, url)
            rows = bea.locator(f'li.lobby-seek[data-owner="{ann_name}"]')
            await rows.nth(2).wait_for()
            assert await rows.count() == 3
            tiles = bea.locator('div.lobby-game[data-game="tiles"]')
            said = await tiles.inner_text()  # the game's one name, the seek's rules and players
            assert said.startswith("Tile games"), said
            assert "Tsuro · people only · players at the table: 3" in said, said
            sizes = await bea.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert sizes[0] <= sizes[1], sizes
            for i in range(3):
                box = (
                    await rows.nth(i).get_by_role("button", name=f"Play {ann_name}").bounding_box()
                )
                assert box is not None and box["x"] + box["width"] <= width, box
            await bea.screenshot(path=screenshot_path(f"lobby-seeks-{width}"), full_page=True)
        # a tile seek's rules are Herna's examples, its players as many as they seat
        got = await bea.evaluate(
            """async () => {
                const ws = new WebSocket(`ws://${location.host}/ws/lobby`);
                const got = [];
                ws.onmessage = (ev) => got.push(JSON.parse(ev.data));
                await new Promise((ok) => { ws.onopen = ok; });
                for (const table of [{rules: 'chess'}, {rules: 'tsuro', players: 9}])
                    ws.send(JSON.stringify({type: 'seek', game: 'tiles', opponent: 'people',
                                            ...table}));
                await new Promise((ok) => setTimeout(ok, 300));
                ws.close();
                return got.slice(1);
            }"""
        )
        assert [(m["code"], m["reason"]) for m in got] == [
            ("BAD_SEEK", "rules is one of Herna's examples: dungeon, gold_rush, labyrinth, tsuro"),
            ("BAD_SEEK", "players is a number from 2 to 4 for tsuro"),
        ], got
        # at phone width: take the Onitama seek and play
        onitama = bea.locator('div.lobby-game[data-game="onitama"] li.lobby-seek')
        await onitama.get_by_role("button", name=f"Play {ann_name}").click()
        await bea.wait_for_function(
            "() => document.getElementById('play')?.dataset.phase === 'game'", timeout=20_000
        )
        await bea.screenshot(path=screenshot_path("lobby-took-onitama-390"), full_page=True)
        await ctx.close()
        assert browser.errors == []


async def test_a_challenge_to_a_name_not_in_the_lobby_is_refused_at_once(
    tmp_path: Path, browser: Browser
) -> None:
    async with lobby_hall(tmp_path, "onitama,web") as hall:
        url = url_of(hall)
        ann = browser.page
        await ann.set_viewport_size({"width": 390, "height": 844})
        ann_name = await open_lobby(ann, url)
        await ann.select_option("#lobby-game", label="Onitama")
        await ann.fill("#lobby-challenge", "eva")
        await ann.get_by_role("button", name="Challenge").click()
        error = ann.locator("#lobby-error")
        await error.filter(has_text="Nobody called eva is in the lobby now").wait_for(timeout=3000)
        text = await error.inner_text()
        assert "Onitama" in text and "_" not in text, text
        assert ann.url.endswith("/lobby") and hall.lobby.snapshot() == []
        # the name is selected where it was typed, to correct it: bea opens the lobby
        assert await ann.evaluate("document.activeElement.id") == "lobby-challenge"
        assert await ann.evaluate("getSelection().toString() || document.activeElement.value")
        await ann.screenshot(path=screenshot_path("lobby-challenge-nobody-390"))
        ctx, b = await new_person(browser)
        bea = await open_lobby(b, url)
        await ann.fill("#lobby-challenge", bea)
        await ann.press("#lobby-challenge", "Enter")
        await ann.wait_for_url("**/play/onitama?seek=*")
        # bea sees the challenge and can take it
        row = b.locator(f'li.lobby-seek[data-owner="{ann_name}"]')
        await row.get_by_role("button", name=f"Play {ann_name}").wait_for()
        [seek] = hall.lobby.snapshot()
        assert seek["challenge"] == bea
        await ctx.close()
        assert browser.errors == []


async def test_a_new_mariáš_seek_replaces_the_one_left_waiting(
    tmp_path: Path, browser: Browser
) -> None:
    """A person who asked for people, went back to the lobby and now asks for house bots sits
    at a table with house bots: their earlier seek ends, and the page does not resume the old
    wait instead. The same person in another browser, while that table plays, is brought back
    to it (never told that their name is "in use" at the login server)."""
    async with lobby_hall(tmp_path, "marias,web", web_seek_grace=30.0) as hall:
        url = url_of(hall)
        page = browser.page
        await sign_up_from_home(page, url, "walker")
        assert await open_lobby(page, url) == "walker"
        await page.select_option("#lobby-opponent", label="People only")
        await page.get_by_role("button", name="Sit down").click()
        await page.wait_for_url("**/play/marias*")
        await page.locator("#play-status").filter(has_text=re.compile("[Ww]ait")).wait_for()

        def mine() -> list[str]:
            return [s["opponent"] for s in hall.lobby.snapshot("marias")]

        await eventually(lambda: mine() == ["people"], 10)
        await page.go_back()
        await page.wait_for_url("**/lobby")
        await page.wait_for_function(LIVE)
        await page.select_option("#lobby-game", label="Mariáš")
        await page.select_option("#lobby-opponent", label="House bot: easy")
        await page.get_by_role("button", name="Sit down").click()
        await page.wait_for_function(PLAYING, timeout=20_000)
        assert mine() == []  # the people-only seek ended with the new one
        await page.screenshot(path=screenshot_path("lobby-new-seek-replaces-1280"))
        # the person leaves the page for the home page and comes back in another browser
        await page.get_by_role("link", name="Home", exact=True).click()
        ctx, other = await new_person(browser)
        await other.goto(url + "/")
        await other.get_by_role("link", name="Sign in", exact=True).first.click()
        await other.get_by_label("Name", exact=True).fill("walker")
        await other.get_by_label("Password", exact=True).fill("a long password")
        await other.get_by_role("button", name="Sign in").click()
        await open_lobby(other, url)
        await other.select_option("#lobby-opponent", label="House bot: hard")
        await other.get_by_role("button", name="Sit down").click()
        await other.wait_for_function(PLAYING, timeout=20_000)
        status = await other.locator("#play-status").inner_text()
        assert "in use" not in status and "refused" not in status, status
        await other.locator("#mar-hand > *").nth(9).wait_for()  # their ten cards
        # the table they left, with the easy house bots, not a new one
        assert "house-easy-bot" in await other.locator("#mar-players").inner_text()
        await other.screenshot(path=screenshot_path("lobby-back-at-the-table-1280"))
        await ctx.close()
        hall.records.flush()
        assert [m.status for m in hall.records.matches(game="marias")] in ([], ["finished"])
        assert browser.errors == []
