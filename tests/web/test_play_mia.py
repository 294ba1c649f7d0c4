"""A person plays Mia in the browser (real Chromium): /play/mia talks JSON with the web hall
over /ws/mia, and the web hall's seat is a real UDP client of the hall's people's table
(herna.clients.mia_seat), where house bots play at a person's pace."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from herna.hall.hall import Hall
from herna.servers.mia import MiaService
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import in_viewport

pytestmark = pytest.mark.browser

STEP = "() => ['turn', 'announce'].includes(document.getElementById('play').dataset.step)"
KEYWORDS = re.compile(
    r"ANNOUNCED_LOSING_DICE|CAUGHT_BLUFFING|SEE_FAILED|LIED_ABOUT_MIA|DID_NOT_\w+|INVALID_TURN"
)
LOSS_WORDS = re.compile(
    r"caught bluffing|looked and lost|had Mia: everyone else lost|announced Mia without"
    r"|not higher than the announcement before|did not roll or look in time"
)


@asynccontextmanager
async def mia_hall(tmp_path: Path) -> AsyncIterator[Hall]:
    """`herna serve --only mia,web`: the people's table with a 15 s window, short pauses."""
    async with serving(
        tmp_path,
        "mia,web",
        mia_people_timeout=15.0,
        mia_people_round_pause=0.3,
        mia_people_think=0.2,
    ) as hall:
        yield hall


def url_of(hall: Hall) -> str:
    return str(hall.service("web").url)  # type: ignore[union-attr]


async def seat_state(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = await page.evaluate("() => window.HernaMia.state.state")
    return result


def fresh_question(rounds: int) -> str:
    """A question not answered yet (the page puts the focus on its first choice, enabled; the
    one just answered may be drawn again for a moment), or ``rounds`` rounds played."""
    return (
        "() => { const a = document.activeElement;"
        f" return (!!a && a.classList.contains('mia-act') && !a.disabled && {STEP[6:]})"
        f" || Number(document.getElementById('play').dataset.rounds) >= {rounds}; }}"
    )


async def play_turn(page: Any, n: int, check_view: bool = False, rounds: int = 1 << 30) -> str:
    """Take the turn on the screen by clicking: roll (or see every third turn when there is
    something to see); announce the truth on odd turns when it is offered, else a bluff.
    ``check_view``: every choice of the question is on the screen (the clock runs). Nothing
    once ``rounds`` rounds are played ("done")."""
    await page.wait_for_function(fresh_question(rounds), timeout=40_000)
    if (await seat_state(page))["rounds"] >= rounds:
        return "done"
    step: str = await page.evaluate("document.getElementById('play').dataset.step")
    if check_view:
        choices = page.locator("#play button.mia-act")
        for i in range(await choices.count()):
            assert await in_viewport(page, f"#play button.mia-act >> nth={i}"), (step, i)
    if step == "turn":
        see = page.locator("button.mia-see")
        # the question offers what the buttons do: nothing to see before the first announcement
        status = await page.locator("#play-status").inner_text()
        if await see.count():
            assert status == "Your turn: roll the dice, or see the last announcement.", status
        else:
            assert status == "Your turn: roll the dice.", status
        if n % 3 == 2 and await see.count():
            await see.click()
            return "see"
        await page.get_by_role("button", name="Roll the dice").click()
        return "roll"
    truth = page.locator("button.mia-truth")
    if n % 2 and await truth.count():
        await truth.click()
        return "truth"
    # after a high announcement only one bluff may be left (Mia after 6-6)
    bluffs = page.locator("button.mia-bluff")
    await bluffs.nth(min(n % 2, await bluffs.count() - 1)).click()
    return "bluff"


async def play_rounds(
    page: Any, rounds: int, start: int = 0, check_view: bool = False
) -> list[str]:
    """Play until the seat has played ``rounds`` rounds; the results shown in between."""
    results: list[str] = []
    n = start
    while True:
        st = await seat_state(page)
        if st and st["rounds"] >= rounds:
            return results
        await page.wait_for_function(
            f"() => {STEP[6:]} || Number(document.getElementById('play').dataset.rounds) >= "
            f"{rounds}",
            timeout=60_000,
        )
        st = await seat_state(page)
        if st["rounds"] >= rounds:
            results.append(await page.locator("#mia-result").inner_text())
            return results
        await play_turn(page, n, check_view, rounds)
        n += 1
        text = await page.locator("#mia-result").inner_text()
        if text and (not results or results[-1] != text):
            results.append(text)


async def test_play_mia_from_the_home_page_reload_mid_round_and_keep_the_seat(
    tmp_path: Path, browser: Browser
) -> None:
    async with mia_hall(tmp_path) as hall:
        service = hall.service("mia")
        assert isinstance(service, MiaService) and service.people is not None
        page = browser.page
        await page.set_viewport_size({"width": 1280, "height": 800})
        received: list[dict[str, Any]] = []
        page.on(
            "websocket",
            lambda ws: (
                ws.on("framereceived", lambda p: received.append(json.loads(p)))
                if ws.url.endswith("/ws/mia")
                else None
            ),
        )
        await page.goto(url_of(hall) + "/")
        await page.get_by_role("link", name="Play Mia").click()
        await page.wait_for_url("**/play/mia")
        guest = await page.locator("#play-name").inner_text()
        # before sitting down: no empty "Scores" and "At the table" headings beside the choice
        await page.locator("#mia-sit").wait_for()
        assert not await page.get_by_role("heading", name="Scores").is_visible()
        await page.get_by_role("button", name="Sit down at the table").click()
        await page.get_by_role("heading", name="Scores").wait_for()
        results = await play_rounds(page, 3)
        await page.screenshot(path=screenshot_path("play-mia-1280"), full_page=True)

        # Reload in the middle of a round, holding dice: the same seat, dice and score.
        await page.wait_for_function(STEP, timeout=60_000)
        if await page.evaluate("document.getElementById('play').dataset.step") == "turn":
            await page.get_by_role("button", name="Roll the dice").click()
        await page.wait_for_function(
            "() => document.getElementById('play').dataset.step === 'announce'"
        )
        before = await seat_state(page)
        assert before["my_dice"] is not None and before["step"] == "announce"
        await page.reload()
        await page.wait_for_function(
            "() => document.getElementById('play').dataset.step === 'announce'"
        )
        after = await seat_state(page)
        for key in ("round", "my_dice", "announcements", "scores", "rounds", "lost", "players"):
            assert after[key] == before[key], key
        assert guest in after["players"]
        cup = await page.locator("#mia-cup").inner_text()
        assert f"You rolled {before['my_dice']['words']}" in cup
        # the person's points are on the scoreboard with the house bots'
        board = await page.locator("#mia-scores").inner_text()
        assert guest in board and "Petra-bot" in board and "Ota-bot" in board
        results += await play_rounds(page, before["rounds"] + 3, start=1)

        body = await page.locator("body").inner_text()
        assert not KEYWORDS.search(body), body
        assert any(LOSS_WORDS.search(r) for r in results), results
        assert await page.locator("#mia-chart svg polyline").count() >= 3  # a line per player
        assert any(f.get("type") == "state" for f in received)
        # Bad frames get errors in words; the seat plays on.
        errors = await page.evaluate(
            """() => new Promise((done) => {
                const ws = new WebSocket(`ws://${location.host}/ws/mia`);
                const got = [];
                ws.onmessage = (e) => { got.push(JSON.parse(e.data));
                  if (got.length === 4) { ws.close(); done(got); } };
                ws.onopen = () => { ws.send("nonsense"); ws.send('{"type": "fly"}');
                  ws.send('{"type": "act", "action": "roll"}'); ws.send('{"type": "hello"}'); };
            })"""
        )
        codes = [e.get("code") for e in errors if e["type"] == "error"]
        assert codes[:3] == ["BAD_MESSAGE", "BAD_MESSAGE", "NO_SEAT"], errors
        assert errors[3]["type"] == "state"  # hello: the same session's seat
        assert browser.errors == []


async def test_play_mia_on_a_phone_joined_from_the_lobby(tmp_path: Path, browser: Browser) -> None:
    async with mia_hall(tmp_path) as hall:
        page = browser.page
        await page.set_viewport_size({"width": 390, "height": 844})
        # From the home page through the lobby, which lists the people's table.
        await page.goto(url_of(hall) + "/")
        await page.get_by_role("link", name="Lobby", exact=True).click()
        await page.wait_for_url("**/lobby")
        await page.screenshot(path=screenshot_path("lobby-mia-390"), full_page=True)
        await page.get_by_role("link", name="Join the Mia table").click()
        await page.wait_for_url("**/play/mia")
        await page.get_by_role("button", name="Sit down at the table").click()
        await page.wait_for_function(STEP, timeout=40_000)
        results = await play_rounds(page, 2, check_view=True)
        # The keyboard way: the next question has the focus on its first choice; Enter. (A
        # step seen right after the last click may be that answered one, drawn again.)
        await page.wait_for_function(
            "() => document.activeElement?.classList.contains('mia-act') && " + STEP[6:],
            timeout=40_000,
        )
        before = await seat_state(page)
        await page.keyboard.press("Enter")
        await page.wait_for_function(
            "(s) => { const st = window.HernaMia.state.state;"
            " return st.step !== s.step || st.round !== s.round; }",
            arg={"step": before["step"], "round": before["round"]},
        )
        await page.wait_for_function(STEP, timeout=40_000)
        width = await page.evaluate(
            "() => [document.documentElement.scrollWidth, window.innerWidth]"
        )
        assert width[0] <= width[1], width
        await page.screenshot(path=screenshot_path("play-mia-390"), full_page=True)
        st = await seat_state(page)
        assert st["rounds"] >= 2 and results
        # The reload keeps the seat on a phone too.
        await page.reload()
        await page.wait_for_function("() => window.HernaMia.state.phase === 'seated'")
        again = await seat_state(page)
        assert again["rounds"] == st["rounds"] and again["scores"] == st["scores"]
        assert browser.errors == []


async def test_the_seat_is_the_sessions_and_a_name_in_use_is_refused_in_words(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.async_api import Browser as Chromium

    from tests.mia.helpers import RawPeer

    async with mia_hall(tmp_path) as hall:
        service = hall.service("mia")
        assert isinstance(service, MiaService) and service.people is not None
        page = browser.page
        await page.goto(url_of(hall) + "/")
        await page.get_by_role("link", name="Play Mia").click()
        guest = await page.locator("#play-name").inner_text()
        # Somebody on another machine plays under this guest's name at the table already.
        impostor = RawPeer(service.people.port, ip="127.0.0.2")
        try:
            assert await impostor.ask(f"REGISTER;{guest}") == "REGISTERED"
            await page.get_by_role("button", name="Sit down at the table").click()
            status = page.locator("#play-status")
            await page.wait_for_function(
                "() => document.getElementById('play-status').textContent.includes('refused')"
            )
            assert "somebody else plays under this name" in await status.inner_text()
            assert "NAME_ALREADY_TAKEN" not in await page.locator("body").inner_text()
            assert await impostor.ask("UNREGISTER") == "UNREGISTERED"
        finally:
            impostor.close()
        # Once the name is free, the person sits down after all (the other registration's
        # missed JOIN is not charged to the person's: the person is dealt in).
        await page.get_by_role("button", name="Sit down at the table").click()
        await page.wait_for_function(STEP, timeout=40_000)
        # Another program on the web hall's own host cannot take the seat by the name.
        local = RawPeer(service.people.port)
        try:
            assert await local.ask(f"REGISTER;{guest}") == "REJECTED;NAME_ALREADY_TAKEN"
        finally:
            local.close()
        # Another browser is another person: its own name and seat, never this one.
        chromium: Chromium = page.context.browser
        other = await (await chromium.new_context()).new_page()
        await other.goto(url_of(hall) + "/")
        await other.get_by_role("link", name="Play Mia").click()
        await other.wait_for_function("() => window.HernaMia?.state.phase === 'away'")
        second = await other.locator("#play-name").inner_text()
        assert second != guest
        await other.get_by_role("button", name="Sit down at the table").click()
        await other.wait_for_function("() => window.HernaMia.state.phase === 'seated'")
        st = await other.evaluate("() => window.HernaMia.state.state")
        assert st["name"] == second
        mine = await seat_state(page)
        assert mine["name"] == guest and mine["step"] in ("turn", "announce")
        assert browser.errors == []


async def test_choose_the_bots_level_and_leave_the_table_from_the_home_page(
    tmp_path: Path, browser: Browser
) -> None:
    async with mia_hall(tmp_path) as hall:
        service = hall.service("mia")
        assert isinstance(service, MiaService) and service.people is not None
        page = browser.page
        for width, height in ((1280, 800), (390, 844)):
            await page.set_viewport_size({"width": width, "height": height})
            await page.goto(url_of(hall) + "/")
            await page.get_by_role("link", name="Play Mia").click()
            # (the home page may still be there when the wait starts: no HernaMia on it)
            await page.wait_for_function("() => window.HernaMia?.state.phase === 'away'")
            guest = await page.locator("#play-name").inner_text()
            await page.select_option("#mia-bots", "easy")
            await page.get_by_role("button", name="Sit down at the table").click()
            await page.wait_for_function(STEP, timeout=40_000)
            order = await page.locator("#mia-order").inner_text()
            assert "Bara-bot" in order and "Petra-bot" not in order, order
            await page.get_by_role("button", name="Leave the table").click()
            assert await in_viewport(page, "#mia-leave-confirm")
            await page.screenshot(path=screenshot_path(f"play-mia-leave-{width}"))
            await page.get_by_role("button", name="Stay").click()
            assert guest in service.people.table.clients
            await page.get_by_role("button", name="Leave the table").click()
            await page.get_by_role("button", name="Yes, leave the table").click()
            await page.wait_for_function("() => window.HernaMia.state.phase === 'away'")
            assert guest not in service.people.table.clients  # freed at once
            assert "points stay" in await page.locator("#play-status").inner_text()
            await page.screenshot(path=screenshot_path(f"play-mia-left-{width}"))
            await page.context.clear_cookies()  # the next width is another guest
        assert browser.errors == []
