"""A hall with the Onitama server and the web hall, and a person's moves through the play page
(real Chromium), for the play-page tests."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from herna.core.rng import SeedSource
from herna.games.onitama.state import OnitamaState
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.servers.onitama import OnitamaService, OnitamaSettings, serve
from herna.web.live import LiveSettings
from herna.web.plugin import WebHall

PHASE = "document.getElementById('play')?.dataset.phase"
MY_TURN_OR_OVER = (
    "() => { const p = document.getElementById('play');"
    " return p.dataset.myTurn === '1' || p.dataset.phase === 'over'; }"
)


@dataclass
class PlayHall:
    hall: Hall
    onitama: OnitamaService
    web: WebHall

    @property
    def url(self) -> str:
        return self.web.url


@asynccontextmanager
async def play_hall(
    tmp_path: Path,
    house_bots: int = 1,
    initial_state: Callable[[], OnitamaState] | None = None,
    **settings: Any,
) -> AsyncIterator[PlayHall]:
    """Onitama (house bots playing ``greedy`` without delay unless told) and the web hall."""
    options: dict[str, Any] = {"house_bot_strategy": "greedy", "house_bot_delay": 0.02}
    options.update(settings)
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'play.db'}"))
    onitama = await serve(
        hall, "127.0.0.1", 0, OnitamaSettings(**options), house_bots, initial_state
    )
    hall.add(onitama)
    web = WebHall(hall, LiveSettings(interval=0.02))
    await web.start("127.0.0.1", 0)
    hall.add(web)
    try:
        yield PlayHall(hall, onitama, web)
    finally:
        await hall.stop()
        hall.records.close()


def seed_where_second_is_white(house_bots: int) -> int:
    """A fixed server seed whose first game seats the second player in the lobby (a person
    after a waiting house bot) as White: the house bots draw their seeds first."""
    for seed in range(100):
        source = SeedSource(seed)
        for _ in range(house_bots):
            source.next_seed()
        if source.next_seed() & 1:
            return seed
    raise AssertionError("no such seed")


@dataclass
class Frames:
    """Every WebSocket frame a page sent and received on /ws/onitama."""

    sent: list[str] = field(default_factory=list)
    received: list[str] = field(default_factory=list)

    def watch(self, page: Any) -> Frames:
        def on_socket(ws: Any) -> None:
            if "/ws/onitama" not in ws.url:
                return
            ws.on("framesent", lambda payload: self.sent.append(str(payload)))
            ws.on("framereceived", lambda payload: self.received.append(str(payload)))

        page.on("websocket", on_socket)
        return self


async def sit_down(page: Any, opponent: str = "anyone", fill: float = 0) -> None:
    """Choose the opponent on the play page (``anyone``, ``people``, ``bots:LEVEL``) and the
    fill wait, and sit down."""
    await page.wait_for_selector("#play-sit")
    await page.select_option("#play-opponent", opponent)
    if opponent == "anyone":
        await page.fill("#play-fill", f"{fill:g}")
    await page.click("#play-sit")


async def state(page: Any) -> dict[str, Any]:
    """What the page holds about its game (board, cards, colour, phase)."""
    result: dict[str, Any] = await page.evaluate(
        "() => { const s = window.HernaPlay.state; return {board: s.board, cards: s.cards,"
        " color: s.color, toMove: s.toMove, phase: s.phase, moves: s.moves.slice(),"
        " white: s.white, black: s.black}; }"
    )
    return result


async def play_one(page: Any, by_keyboard: bool = False, rnd: random.Random | None = None) -> None:
    """Make the person's move through the page: a pawn, then a highlighted target (and a card
    when both cards reach it), or give up a card when there is no move. With ``rnd`` the pawn
    and the target are chosen at random (two people playing the first move each could walk
    in circles for ever), else the first ones."""
    give_up = page.locator("button.play-give-up")
    if await give_up.count():
        await give_up.first.click()
        return
    before = len((await state(page))["moves"])
    pawn = page.locator("rect.oni-movable").first
    if by_keyboard:
        await pawn.focus()
        await page.keyboard.press("Enter")
        target = page.locator("rect.oni-target").first
        await target.focus()
        await page.keyboard.press("Enter")
    elif rnd is not None:
        # A random move among those the page highlights, but a capture whenever there is one:
        # random play alone can take hundreds of moves to end a game. (The page's own rules
        # say which moves it offers, in one call rather than a click on every pawn.)
        offered: list[list[str]] = await page.evaluate(
            "() => { const S = window.HernaPlay.state, P = window.Herna.page;"
            " const R = window.HernaOnitamaRules;"
            " return R.legalMoves(P.cards, S.board, S.cards, S.color).map((m) => m.concat("
            "[S.board[R.squareIndex(m[2])] !== '.' ? 'x' : '']));}"
        )
        captures = [m for m in offered if m[3]]
        card, start_at, target, _ = rnd.choice(captures or offered)
        await page.locator(f'rect[data-square="{start_at}"]').click()
        await page.locator(f'rect.oni-target[data-square="{target}"]').click()
        choice = page.locator(f'button.play-card-choice[data-card="{card}"]')
        if await choice.count():
            await choice.click()
    else:
        await pawn.click()
        await page.locator("rect.oni-target").first.click()
    choice = page.locator("button.play-card-choice")
    if await choice.count():
        await choice.first.click()
    # The click sets `pending` at once; the server's answer clears it.
    await page.wait_for_function(
        f"() => window.HernaPlay.state.moves.length > {before} || !window.HernaPlay.state.pending"
    )


async def wait_my_turn(page: Any) -> str:
    """Wait until it is the person's turn or the game is over; the phase."""
    await page.wait_for_function(MY_TURN_OR_OVER)
    return str(await page.evaluate(PHASE))


async def eventually(check: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)


async def in_viewport(page: Any, selector: str) -> bool:
    """Whether all of ``selector``'s box is on the screen (the page's viewport), to the pixel:
    layouts have fractional positions and scrolling goes by whole pixels, so a box brought
    into view may start a quarter of a pixel above the top."""
    box = await page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return bool(
        box["x"] >= -1
        and box["y"] >= -1
        and box["x"] + box["width"] <= size["width"] + 1
        and box["y"] + box["height"] <= size["height"] + 1
    )
