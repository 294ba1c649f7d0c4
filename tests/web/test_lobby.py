"""The lobby in the browser (real Chromium, real sockets): play now against a house bot of a
chosen level, wait for people, fill after a wait, take a bot's seat from the lobby page and
the reverse with ``herna bot onitama`` over TCP, challenges, the live list in a second
browser, leaving and claiming the win, coming back within grace, forged lobby frames, and the
phone width."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from herna.clients.onitama import run_bot
from herna.games.onitama.bots import make_strategy
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import (
    PlayHall,
    eventually,
    play_hall,
    sit_down,
    state,
)

pytestmark = pytest.mark.browser

IN_GAME = "() => document.getElementById('play')?.dataset.phase === 'game'"
ROOT = Path(__file__).resolve().parents[2]


def seeks(h: PlayHall) -> list[dict[str, Any]]:
    return h.hall.lobby.snapshot("onitama")


async def opponent(page: Any) -> str:
    st = await state(page)
    me = await page.locator("#play-name").inner_text()
    return str(st["black"] if st["white"] == me else st["white"])


async def new_page(browser: Browser) -> tuple[Any, Any]:
    context = await browser.page.context.browser.new_context()
    page = await context.new_page()
    page.set_default_timeout(10_000)
    return context, page


async def test_play_now_against_a_house_bot_of_the_chosen_level(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path, house_bots=1) as h:
        page = browser.page
        await page.goto(h.url + "/play/onitama")
        await page.screenshot(path=screenshot_path("play-onitama-choose-1280"), full_page=True)
        await sit_down(page, "bots:easy")
        await page.wait_for_function(IN_GAME)
        assert await opponent(page) == "house-easy-1"
        [bot] = h.onitama.summoned
        assert bot.seek and bot.seek.startswith("accept=s")
        # the standing house bot is still waiting for others
        assert [s["owner"] for s in seeks(h)] == ["house-1"]
        assert browser.errors == []


async def test_wait_for_people_and_take_the_seat_from_a_second_browsers_lobby(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path, house_bots=1) as h:
        first = browser.page
        context, lobby = await new_page(browser)
        await lobby.goto(h.url + "/lobby")
        await lobby.wait_for_function(
            "() => document.getElementById('lobby').dataset.state === 'live'"
        )
        await first.goto(h.url + "/play/onitama")
        me = await first.locator("#play-name").inner_text()
        await sit_down(first, "people")
        await first.wait_for_function("() => window.HernaPlay.state.seek !== null")
        # the second browser's lobby shows the new seek without a reload
        row = lobby.locator(f'li.lobby-seek[data-owner="{me}"]')
        await row.wait_for()
        assert "people only" in await row.inner_text()
        # a house bot never takes a people-only seat
        assert [s["owner"] for s in seeks(h)] == ["house-1", me]
        await lobby.screenshot(path=screenshot_path("lobby-1280"), full_page=True)
        await row.locator("button.lobby-accept").click()
        await lobby.wait_for_url("**/play/onitama?seek=*")
        await lobby.wait_for_function(IN_GAME)
        await first.wait_for_function(IN_GAME)
        second = await lobby.locator("#play-name").inner_text()
        assert await opponent(first) == second and await opponent(lobby) == me
        # the move clock of people is shown and counts down
        clock = first.locator("#play-clock")
        await clock.wait_for()
        text = await clock.inner_text()
        assert "s for this move" in text
        await first.screenshot(path=screenshot_path("play-onitama-clock-1280"), full_page=True)
        await context.close()


async def test_fill_with_house_bots_after_the_wait(tmp_path: Path, browser: Browser) -> None:
    async with play_hall(tmp_path, house_bots=1) as h:
        page = browser.page
        await page.goto(h.url + "/play/onitama")
        await sit_down(page, "anyone", fill=1.5)
        await page.wait_for_function("() => window.HernaPlay.state.seek !== null")
        await asyncio.sleep(0.7)
        assert (await state(page))["phase"] == "lobby"
        await page.wait_for_function(IN_GAME)
        assert await opponent(page) == "house-1"


async def test_a_browser_seek_is_taken_by_herna_bot_over_tcp(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path, house_bots=0) as h:
        page = browser.page
        await page.goto(h.url + "/play/onitama")
        await sit_down(page, "anyone", fill=600)
        await page.wait_for_function("() => window.HernaPlay.state.seek !== null")
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        port = h.onitama.port
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "herna.cli", "bot", "onitama", "--strategy", "greedy",
            "--name", "tcpbot", "--port", str(port), "--games", "1", "--quiet", "--no-reconnect",
            env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            await page.wait_for_function(IN_GAME, timeout=20_000)
            assert await opponent(page) == "tcpbot"
        finally:
            if proc.returncode is None:
                proc.kill()
            await proc.wait()


async def test_a_tcp_bot_waiting_is_taken_from_the_lobby_page(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path, house_bots=0) as h:
        task = asyncio.ensure_future(
            run_bot("127.0.0.1", h.onitama.port, "tcpbot", make_strategy("greedy"), games=1)
        )
        try:
            await eventually(lambda: [s["owner"] for s in seeks(h)] == ["tcpbot"])
            page = browser.page
            await page.goto(h.url + "/lobby")
            row = page.locator('li.lobby-seek[data-owner="tcpbot"]')
            await row.wait_for()
            assert "bot" in await row.locator(".lobby-kind").inner_text()
            # by keyboard: Tab to the button, Enter
            button = row.locator("button.lobby-accept")
            await button.focus()
            await page.keyboard.press("Enter")
            await page.wait_for_function(IN_GAME)
            assert await opponent(page) == "tcpbot"
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


async def test_a_challenge_only_its_target_can_accept(tmp_path: Path, browser: Browser) -> None:
    async with play_hall(tmp_path, house_bots=0) as h:
        ctx_b, bob = await new_page(browser)
        ctx_c, carl = await new_page(browser)
        for p in (bob, carl):
            await p.goto(h.url + "/lobby")
        bob_name = await bob.locator("#lobby-name").inner_text()
        ann = browser.page
        await ann.goto(h.url + "/lobby")
        ann_name = await ann.locator("#lobby-name").inner_text()
        await ann.fill("#lobby-challenge", bob_name)
        await ann.press("#lobby-challenge", "Enter")
        await ann.wait_for_url("**/play/onitama?seek=*")
        await ann.wait_for_function("() => window.HernaPlay.state.seek !== null")
        [seek] = seeks(h)
        assert seek["owner"] == ann_name and seek["challenge"] == bob_name
        # carl sees the challenge but gets no button; a forged accept is refused
        row_c = carl.locator(f'li.lobby-seek[data-owner="{ann_name}"]')
        await row_c.wait_for()
        assert f"challenges {bob_name}" in await row_c.inner_text()
        assert await row_c.locator("button").count() == 0
        await carl.evaluate(f"window.HernaLobby.send({{type: 'accept', seek: '{seek['id']}'}})")
        await carl.wait_for_function(
            "() => document.getElementById('lobby-error').dataset.code === 'NOT_FOR_YOU'"
        )
        assert seeks(h) == [seek]
        row_b = bob.locator(f'li.lobby-seek[data-owner="{ann_name}"]')
        # bob reads that the challenge is his, not his own name as if it were someone's
        assert await row_b.locator(".lobby-wants").inner_text() == "challenges you"
        await row_b.locator("button.lobby-accept").click()
        await bob.wait_for_url("**/play/onitama*")
        await bob.wait_for_function(IN_GAME)
        await ann.wait_for_function(IN_GAME)
        assert await opponent(ann) == bob_name
        await ctx_b.close()
        await ctx_c.close()


async def test_closing_the_tab_then_the_opponent_claims_and_the_record_says_so(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path, house_bots=0, reconnect_window=1.0) as h:
        ctx, leaver = await new_page(browser)
        stayer = browser.page
        for p in (stayer, leaver):
            await p.goto(h.url + "/play/onitama")
            await sit_down(p, "people")
        for p in (stayer, leaver):
            await p.wait_for_function(IN_GAME)
        gone = await leaver.locator("#play-name").inner_text()
        # closing the tab and coming back within grace: the same seat
        await leaver.close()
        await stayer.wait_for_function("() => window.HernaPlay.state.away !== null")
        leaver = await ctx.new_page()
        await leaver.goto(h.url + "/play/onitama")
        await leaver.wait_for_function(IN_GAME)
        assert await leaver.locator("#play-name").inner_text() == gone
        assert h.onitama.hub.stats.reconnects == 1
        await stayer.wait_for_function("() => window.HernaPlay.state.away === null")
        # gone for good this time: after the grace period the opponent may claim the win
        await ctx.close()
        claim = stayer.locator("#play-claim")
        await claim.wait_for(timeout=10_000)
        await stayer.screenshot(path=screenshot_path("play-onitama-claim-1280"), full_page=True)
        await claim.click()
        await stayer.wait_for_function("() => window.HernaPlay.state.phase === 'over'")
        result = await stayer.locator("#play-result").inner_text()
        assert "did not come back in time" in result
        h.hall.records.flush()
        [match] = h.hall.records.matches(game="onitama")
        assert match.result["ended"] == "abandoned" and match.result["claimed"] is True
        assert [p.name for p in match.players if not p.winner] == [gone]


async def test_forged_lobby_frames_get_a_clear_error_and_change_nothing(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path, house_bots=1) as h:
        page = browser.page
        await page.goto(h.url + "/lobby")
        before = seeks(h)
        [house] = before
        got = await page.evaluate(
            """async (house) => {
                const ws = new WebSocket(`ws://${location.host}/ws/lobby`);
                const got = [];
                ws.onmessage = (ev) => got.push(JSON.parse(ev.data));
                await new Promise((ok) => { ws.onopen = ok; });
                for (const frame of [
                    {type: 'accept', seek: 's999'},
                    {type: 'cancel', seek: house},
                    {type: 'challenge', game: 'onitama', opponent: 'bob', as: 'house-1'},
                    {type: 'seek', game: 'onitama', opponent: 'martians'},
                    {type: 'seek', game: 'chess', opponent: 'anyone'},
                    {type: 'seek', game: 'onitama', opponent: 'anyone', fill: -1},
                    {type: 'launch'},
                ]) ws.send(JSON.stringify(frame));
                ws.send('not json');
                ws.send('x'.repeat(5000));
                await new Promise((ok) => setTimeout(ok, 500));
                ws.close();
                return got;
            }""",
            house["id"],
        )
        assert got[0]["type"] == "hello"
        codes = [m.get("code") for m in got[1:]]
        assert codes == [
            "NO_SUCH_SEEK",
            "NOT_YOURS",
            "NOT_YOU",
            "BAD_SEEK",
            "NO_PLAY_PAGE",
            "BAD_SEEK",
            "BAD_FRAME",
            "BAD_FRAME",
            "BAD_FRAME",
        ], got
        assert all(m["type"] == "error" and m["reason"] for m in got[1:])
        assert seeks(h) == before


async def test_the_lobby_at_phone_width(tmp_path: Path, browser: Browser) -> None:
    # No house bots: one of them could take the bot's seek before the page lists it.
    async with play_hall(tmp_path, house_bots=0) as h:
        task = asyncio.ensure_future(
            run_bot(
                "127.0.0.1",
                h.onitama.port,
                "a-bot-with-a-rather-long-name",
                make_strategy("greedy"),
                games=1,
            )
        )
        try:
            page = browser.page
            await page.set_viewport_size({"width": 390, "height": 844})
            await page.goto(h.url + "/")
            await page.locator("main a.play-button[href='/lobby']").click()
            await page.wait_for_url("**/lobby")
            await page.locator("li.lobby-seek").first.wait_for()
            wide = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert wide[0] <= wide[1], wide
            await page.screenshot(path=screenshot_path("lobby-390"), full_page=True)
            await page.goto(h.url + "/play/onitama")
            await page.locator("#play-sit").wait_for()
            wide = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert wide[0] <= wide[1], wide
            await page.screenshot(path=screenshot_path("play-onitama-choose-390"), full_page=True)
            assert browser.errors == []
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
