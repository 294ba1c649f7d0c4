"""How an Onitama game ends in the browser and what follows (real Chromium, from the home page):
no game the person did not ask for, resign, a draw offer, rematch and play again against a
house bot."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import (
    Frames,
    PlayHall,
    in_viewport,
    play_hall,
    play_one,
    sit_down,
    wait_my_turn,
)

pytestmark = pytest.mark.browser

IN_GAME = "() => document.getElementById('play')?.dataset.phase === 'game'"
OVER = "() => document.getElementById('play')?.dataset.phase === 'over'"
PHONE = {"width": 390, "height": 844}


async def from_home_page(page: Any, h: PlayHall, opponent: str = "bots:easy") -> str:
    """Home page, "Play Onitama", choose the opponent, sit down; the guest's name."""
    await page.goto(h.url + "/")
    await page.get_by_role("link", name="Play Onitama").click()
    await page.wait_for_url("**/play/onitama")
    guest = str(await page.locator("#play-name").inner_text())
    await sit_down(page, opponent)
    await page.wait_for_function(IN_GAME)
    return guest


def stored(h: PlayHall, guest: str) -> list[Any]:
    h.hall.records.flush()
    return list(h.hall.records.matches(player=guest, limit=50))


def playing(h: PlayHall, guest: str) -> bool:
    return any(guest in (p.name for p in t.players) for t in h.onitama.hub.tables.values())


async def players(page: Any) -> tuple[str, str]:
    got = await page.evaluate("() => [window.HernaPlay.state.white, window.HernaPlay.state.black]")
    return got[0], got[1]


async def test_after_a_game_no_new_game_starts_until_the_person_asks(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path, move_clock=3, reconnect_window=1) as h:
        page = browser.page
        await page.set_viewport_size({"width": 1280, "height": 800})
        frames = Frames().watch(page)
        guest = await from_home_page(page, h)
        moves = 0
        while await wait_my_turn(page) != "over":
            await play_one(page)
            moves += 1
            assert moves < 200
        # What to do next is on screen with the result (it was under the fold).
        assert await in_viewport(page, "#play-next")
        games = len(stored(h, guest))
        assert games == 1
        over_at = len(frames.received)
        # several seconds: longer than the move clock and its grace together
        await asyncio.sleep(6)
        assert await page.evaluate("document.getElementById('play').dataset.phase") == "over"
        assert not any(f.startswith("START|") for f in frames.received[over_at:]), frames.received
        assert not playing(h, guest)
        assert await page.locator("#play-clock").inner_text() == ""
        assert len(stored(h, guest)) == games
        await page.screenshot(path=screenshot_path("endings-over-1280"), full_page=True)
        # the person asks: a new game
        await page.locator("#play-next").click()
        await page.wait_for_function(IN_GAME)
        assert playing(h, guest)
        assert browser.errors == []


async def test_resign_then_rematch_then_play_again_at_phone_width(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path, move_clock=0) as h:
        page = browser.page
        await page.set_viewport_size(PHONE)
        guest = await from_home_page(page, h)
        first = await players(page)
        bot = next(n for n in first if n != guest)
        assert re.fullmatch(r"house-easy-\d+", bot)
        await page.locator("#play-resign").click()
        await page.screenshot(path=screenshot_path("endings-resign-confirm-390"), full_page=True)
        await page.locator("#play-resign-no").click()  # changed their mind
        assert await page.evaluate("document.getElementById('play').dataset.phase") == "game"
        await page.locator("#play-resign").click()
        await page.locator("#play-resign-yes").click()
        await page.wait_for_function(OVER)
        assert await page.locator("#play-result").inner_text() == "You resigned. The game is lost."
        await page.screenshot(path=screenshot_path("endings-over-390"), full_page=True)
        [record] = stored(h, guest)
        assert record.result["reason"] == "resigned"
        assert [p.name for p in record.players if p.winner] == [bot]
        # rematch: the same house bot at once, colours swapped
        await page.get_by_role("button", name=f"Rematch {bot}").click()
        await page.wait_for_function(IN_GAME)
        assert await players(page) == (first[1], first[0])
        await page.locator("#play-resign").click()
        await page.locator("#play-resign-yes").click()
        await page.wait_for_function(OVER)
        # play again: the same choice (a house bot of level easy), a new opponent
        await page.get_by_role("button", name="Play again").click()
        await page.wait_for_function(IN_GAME)
        third = await players(page)
        other = next(n for n in third if n != guest)
        assert re.fullmatch(r"house-easy-\d+", other) and other != bot
        assert len(stored(h, guest)) == 2
        assert browser.errors == []


PIECES = """() => { const s = window.HernaPlay.state;
  const n = (re) => (s.board.match(re) || []).length;
  const white = n(/[Ww]/g), black = n(/[Bb]/g);
  return s.color === 'white' ? [white, black] : [black, white]; }"""

BEST_MOVE = """() => { const s = window.HernaPlay.state;
  const cards = JSON.parse(document.getElementById('herna-page').textContent).cards;
  const all = window.HernaOnitamaRules.legalMoves(cards, s.board, s.cards, s.color);
  const rules = window.HernaOnitamaRules;
  const capture = all.find((m) => s.board[rules.squareIndex(m[2])] !== '.');
  return capture || all[0] || null; }"""


async def capture_when_possible(page: Any) -> None:
    """The person's move: a capture if there is one, else the first legal move."""
    move = await page.evaluate(BEST_MOVE)
    if move is None:
        await page.locator("button.play-give-up").first.click()
        return
    card, frm, to = move
    await page.locator(f'rect[data-square="{frm}"]').click(force=True)
    await page.locator(f'rect[data-square="{to}"]').click(force=True)
    choice = page.locator(f'button.play-card-choice[data-card="{card}"]')
    if await choice.count():
        await choice.click()
    await page.wait_for_function("() => !window.HernaPlay.state.pending")


async def test_a_draw_offer_declined_by_a_house_bot_that_is_not_behind(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path, move_clock=0, house_bot_delay=3) as h:
        page = browser.page
        guest = await from_home_page(page, h)
        await page.locator("#play-draw").click()
        await page.wait_for_function(
            "() => document.getElementById('play-note').textContent.includes('declined')"
        )
        note = await page.locator("#play-note").inner_text()
        assert re.fullmatch(r"house-easy-\d+ declined your draw offer\.", note)
        assert await page.evaluate("document.getElementById('play').dataset.phase") == "game"
        assert stored(h, guest) == []


async def test_a_draw_offer_accepted_by_a_house_bot_that_is_behind(
    tmp_path: Path, browser: Browser
) -> None:
    # A house bot that plays at random loses pieces soon; the person captures when it can.
    async with play_hall(tmp_path, house_bot_strategy="random", move_clock=0, seed=3) as h:
        page = browser.page
        await page.set_viewport_size(PHONE)
        guest = await from_home_page(page, h)
        for _ in range(60):
            assert await wait_my_turn(page) == "game", "the game ended before a capture"
            mine, theirs = await page.evaluate(PIECES)
            if theirs < mine:
                break
            await capture_when_possible(page)
        else:
            raise AssertionError("the house bot never fell behind")
        await page.locator("#play-draw").click()
        await page.wait_for_function(OVER)
        assert (
            await page.locator("#play-result").inner_text()
            == "A draw: you both agreed to end the game."
        )
        await page.screenshot(path=screenshot_path("endings-draw-390"), full_page=True)
        assert await page.locator("#play-note").inner_text() == ""
        [record] = stored(h, guest)
        assert record.result["reason"] == "draw agreed"
        assert not any(p.winner for p in record.players)
        assert browser.errors == []


async def test_a_game_clock_chosen_at_the_table_and_a_loss_on_time(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path, time_controls=("0.1+2", "5+3")) as h:
        page = browser.page
        frames = Frames().watch(page)
        await page.goto(h.url + "/")
        await page.get_by_role("link", name="Play Onitama").click()
        await page.wait_for_url("**/play/onitama")
        guest = str(await page.locator("#play-name").inner_text())
        await page.wait_for_selector("#play-sit")
        await page.select_option("#play-opponent", "bots:easy")
        options = await page.locator("#play-clock-choice option").all_inner_texts()
        assert options == [
            "60 s a move",
            "0.1 min + 2 s a move (0.1+2)",
            "5 min + 3 s a move (5+3)",
        ]
        await page.select_option("#play-clock-choice", "0.1+2")
        await page.click("#play-sit")
        await page.wait_for_function(IN_GAME)
        assert frames.sent[0].endswith(",clock=0.1+2,once")
        clock = await page.locator("#play-clock").inner_text()
        assert clock.startswith("Clock: ") and "(white) 0:0" in clock and "(black) 0:0" in clock
        await page.screenshot(path=screenshot_path("endings-game-clock-1280"), full_page=True)
        # the person does not move: 6 s, then the loss on time
        await page.wait_for_function(OVER, timeout=20_000)
        result = await page.locator("#play-result").inner_text()
        assert re.fullmatch(r"You lost\. house-easy-\d+ won: you ran out of time\.", result)
        [record] = stored(h, guest)
        assert record.result["reason"] == "out_of_time"
        assert record.meta["time_control"] == "0.1+2"
        assert browser.errors == []
