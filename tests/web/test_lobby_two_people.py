"""Two people meet in the lobby and play a whole game, for each game with people seats: each
in a browser context of their own (their own cookies), each starting at the home page and
clicking only what is on screen. A seeks from the lobby; B sees the seek live in the lobby and
takes it by clicking; both land on the play page of the same table and play to the end (real
Chromium, the servers as ``herna serve`` starts them)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from herna.hall.hall import Hall
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import play_one, state
from tests.web.test_lobby_seeks import lobby_hall, new_person, open_lobby, url_of
from tests.web.test_play_marias import MY_TURN, answer
from tests.web.test_play_tiles import PHASE as TILES_PHASE
from tests.web.test_play_tiles import play_one as play_tile

pytestmark = pytest.mark.browser

MY_TURN_NOW = (
    "() => document.getElementById('play')?.dataset.myTurn === '1'"
    " && !(window.HernaPlay || window.HernaTilesPlay || {state: {}}).state.pending"
)


async def seek_and_accept(
    a: Any, b: Any, url: str, game: str, opponent: str = "People only", **table: str
) -> tuple[str, str]:
    """A asks for a game of ``game`` from the lobby (a tile table: with its ``rules`` and
    ``players``); B takes A's seek from its lobby by clicking it. The two names."""
    ann = await open_lobby(a, url)
    bea = await open_lobby(b, url)
    await a.select_option("#lobby-game", label=game)
    for field, value in table.items():
        await a.select_option(f"#lobby-{field}", value)
    await a.select_option("#lobby-opponent", label=opponent)
    await a.get_by_role("button", name="Sit down").click()
    await a.wait_for_url("**/play/*?seek=*")
    return ann, bea


async def take(b: Any, ann: str) -> None:
    row = b.locator(f'li.lobby-seek[data-owner="{ann}"]')
    await row.wait_for()
    await b.screenshot(path=screenshot_path("lobby-two-people-1280"), full_page=True)
    await row.get_by_role("button", name=f"Play {ann}").click()
    await b.wait_for_url("**/play/*?seek=*accept=*")


async def rematch_if_offered(pages: list[Any], started: str) -> None:
    """The end-of-game flow is being built elsewhere: when a Rematch button is on screen,
    both press it and the same two sit at a new table."""
    buttons = [p.get_by_role("button", name="Rematch") for p in pages]
    if not all([await b.count() for b in buttons]):
        return
    for button in buttons:
        await button.first.click()
    for p in pages:
        await p.wait_for_function(started, timeout=20_000)


def finished(hall: Hall, game: str, names: set[str]) -> list[Any]:
    hall.records.flush()
    return [
        m
        for m in hall.records.matches(game=game)
        if names <= {p.name for p in m.players} and m.status == "finished"
    ]


async def test_two_people_play_mariáš_through_the_lobby(tmp_path: Path, browser: Browser) -> None:
    async with lobby_hall(tmp_path, "marias,web", web_marias_clock=0.0) as hall:
        ctx, b = await new_person(browser)
        a = browser.page
        a.set_default_timeout(30_000)  # a whole game on a busy CI machine
        ann, bea = await seek_and_accept(a, b, url_of(hall), "Mariáš")
        await take(b, ann)
        playing = "() => document.getElementById('play')?.dataset.status === 'playing'"
        for p in (a, b):
            await p.wait_for_function(playing, timeout=20_000)
            names = [x["name"] for x in await p.evaluate("window.HernaMarias.state.state.players")]
            assert {ann, bea} <= set(names) and len(names) == 3  # the third: a house bot
        # one deal, each answering its own questions by clicking
        deals = "() => Number(document.getElementById('play')?.dataset.deals) >= 1"
        answered = 0
        while not all([await p.evaluate(deals) for p in (a, b)]):
            for p in (a, b):
                if await p.evaluate(MY_TURN) and not await p.evaluate(deals):
                    await answer(p)
                    answered += 1
            await asyncio.sleep(0.02)
            assert answered < 200
        assert answered > 0
        for p in (a, b):
            await p.wait_for_function(
                "() => document.getElementById('mar-result').textContent.trim() !== ''"
            )
        await a.screenshot(path=screenshot_path("lobby-two-people-marias-1280"), full_page=True)
        [deal] = finished(hall, "marias", {ann, bea})[:1]
        assert {p.name for p in deal.players} >= {ann, bea}
        await rematch_if_offered([a, b], playing)
        await ctx.close()


async def test_two_people_play_onitama_through_the_lobby(tmp_path: Path, browser: Browser) -> None:
    async with lobby_hall(tmp_path, "onitama,web") as hall:
        ctx, b = await new_person(browser)
        a = browser.page
        a.set_default_timeout(30_000)  # a whole game on a busy CI machine
        ann, bea = await seek_and_accept(a, b, url_of(hall), "Onitama")
        await take(b, ann)
        in_game = "() => document.getElementById('play')?.dataset.phase === 'game'"
        for p in (a, b):
            await p.wait_for_function(in_game, timeout=20_000)
        st = await state(a)
        assert {st["white"], st["black"]} == {ann, bea}
        rnd = random.Random(5)
        over = "() => document.getElementById('play')?.dataset.phase === 'over'"
        moves = 0
        while not all([await p.evaluate(over) for p in (a, b)]):
            for p in (a, b):
                if await p.evaluate(MY_TURN_NOW) and not await p.evaluate(over):
                    await play_one(p, rnd=rnd)
                    moves += 1
            await asyncio.sleep(0.02)
            assert moves < 400
        for p in (a, b):
            assert (await p.locator("#play-result").inner_text()).strip()
        await b.screenshot(path=screenshot_path("lobby-two-people-onitama-1280"), full_page=True)
        assert len(finished(hall, "onitama", {ann, bea})) == 1
        # The seek was answered: the address forgets it, so a reload after the game does not
        # open the same seek again.
        assert "seek=" not in a.url and "seek=" not in b.url, (a.url, b.url)
        await rematch_if_offered([a, b], in_game)
        await ctx.close()


async def test_two_people_play_tiles_through_the_lobby(tmp_path: Path, browser: Browser) -> None:
    async with lobby_hall(
        tmp_path, "tiles,web", tiles_no_showcase=True, tiles_bot_delay=0.0, tiles_max_rounds=3
    ) as hall:
        ctx, b = await new_person(browser)
        a = browser.page
        a.set_default_timeout(30_000)  # a whole game on a busy CI machine
        ann, bea = await seek_and_accept(
            a, b, url_of(hall), "Tile games", rules="labyrinth", players="2"
        )
        # the lobby asked for the rules and players too: seated at once, listed at once
        await a.wait_for_function(f"() => {TILES_PHASE} === 'seated'")
        status = await a.locator("#play-status").inner_text()
        assert "Labyrinth: waiting for more players (empty seats: 1)" in status, status
        assert await a.locator("#tp-setup").is_hidden()
        await take(b, ann)
        for p in (a, b):
            await p.wait_for_function(f"() => {TILES_PHASE} === 'game'", timeout=20_000)
        rnd = random.Random(3)
        over = f"() => {TILES_PHASE} === 'over'"
        actions = 0
        while not all([await p.evaluate(over) for p in (a, b)]):
            for p in (a, b):
                if await p.evaluate(MY_TURN_NOW) and not await p.evaluate(over):
                    await play_tile(p, rnd)
                    actions += 1
            await asyncio.sleep(0.02)
            assert actions < 400
        await a.screenshot(path=screenshot_path("lobby-two-people-tiles-1280"), full_page=True)
        assert len(finished(hall, "tiles", {ann, bea})) == 1
        assert "seek=" not in a.url and "seek=" not in b.url, (a.url, b.url)
        await rematch_if_offered([a, b], f"() => {TILES_PHASE} === 'game'")
        await ctx.close()
