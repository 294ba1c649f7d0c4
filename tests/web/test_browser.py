"""The web hall in a real browser (headless Debian chromium driven by Playwright)."""

from __future__ import annotations

import httpx
import pytest

from herna.games.mia.dice import Dice
from herna.games.mia.text import reason_words
from herna.games.mia.words import dice_words
from herna.web.plugin import WebHall
from tests.web.conftest import Browser, screenshot_path
from tests.web.helpers import play_mia_round, publish_mia_round

pytestmark = pytest.mark.browser


async def test_live_view_updates_and_pages_load(web: WebHall, browser: Browser) -> None:
    page, bus = browser.page, web.hall.bus
    store = web.hall.records
    for i in range(3):
        store.save(play_mia_round(i + 1, ["alice", "bob", "carol"], seed=7 + i))

    scores: dict[str, int] = {}
    bus.emit("mia", "mia", "player_registered", name="alice", spectator=False)
    bus.emit("mia", "mia", "player_registered", name="bob", spectator=False)
    publish_mia_round(bus, 1, ["alice", "bob"], scores)

    await page.goto(web.url + "/live/mia/mia")
    card = page.locator('section.table[data-game="mia"]')
    await card.locator('.mia-round[data-round="1"]').wait_for()
    assert await page.locator("#live-status").inner_text() == "live"

    # A new round arrives over the WebSocket and is drawn without reloading.
    bus.emit("mia", "mia", "game_started", round=2, players=["bob", "alice"])
    bus.emit("mia", "mia", "player_rolls", round=2, name="bob")
    bus.emit("mia", "mia", "announced", round=2, name="bob", dice="6,6")
    current = card.locator('.mia-round[data-round="2"]')
    await current.wait_for()
    assert "announces" in await current.inner_text()
    assert "double 6s (pasch)" in await current.inner_text()  # dice in words
    assert await current.get_attribute("data-status") == "playing"
    previous = card.locator('.mia-round[data-round="1"]')
    assert "bob lost" in await previous.inner_text()
    assert "wanted to see, but the announcement was true" in await previous.inner_text()
    score_row = card.locator('.mia-scores tr[data-name="alice"]')
    assert "1" in await score_row.inner_text()
    await page.screenshot(path=screenshot_path("live-mia"), full_page=True)

    # A game without a renderer falls back to readable JSON; finished tables make way.
    for i in range(14):
        bus.emit("chess", f"old-{i}", "game_over", view={"fen": "done"}, result={})
    bus.emit("chess", "board-1", "move", view={"fen": "8/8/8/8/8/8/8/K6k w"})
    await page.goto(web.url + "/live")
    chess = page.locator('section.table[data-table="board-1"] .view[data-renderer="json"]')
    await chess.wait_for()
    assert "8/8/8/8/8/8/8/K6k w" in await chess.inner_text()
    await page.locator('section.table[data-game="mia"] .view[data-renderer="mia"]').wait_for()
    assert await page.locator("section.table").count() == 12
    await page.locator('section.table[data-table="old-13"]').wait_for()  # newest finished
    assert await page.locator('section.table[data-table="old-0"]').count() == 0

    # The other pages load without script errors.
    for path, name in [
        ("/", "home"),
        ("/history", "history"),
        ("/players?game=mia", "standings"),
        ("/players/alice", "player"),
        ("/docs", "api-docs"),
    ]:
        response = await page.goto(web.url + path)
        assert response is not None and response.status == 200, path
        await page.screenshot(path=screenshot_path(name), full_page=True)

    # History filters: game and player through the form.
    await page.goto(web.url + "/history")
    await page.select_option("select[name=game]", "mia")
    await page.fill("input[name=player]", "carol")
    await page.click("form.filters button[type=submit]")
    await page.wait_for_url("**/history?game=mia&player=carol*")
    # Mia rounds come grouped into sessions: carol's three rounds are one session.
    assert await page.locator("#history-mia tr[data-session]").count() == 1
    assert "3 rounds" in await page.locator("#history-mia tr[data-session]").inner_text()
    await page.fill("input[name=player]", "nobody")
    await page.click("form.filters button[type=submit]")
    await page.locator("#history-mia p.muted").wait_for()
    assert browser.errors == []


async def test_replay_stepper_steps_through_a_recorded_game(web: WebHall, browser: Browser) -> None:
    page = browser.page
    record = play_mia_round(42, ["alice", "bob", "carol"], seed=2024)
    match_id = web.hall.records.save(record)
    async with httpx.AsyncClient(base_url=web.url) as http:
        steps = (await http.get(f"/api/matches/{match_id}/replay")).json()["steps"]
    actions = [data for kind, data in record.events if kind == "action"]
    assert len(steps) == len(actions) + 1

    await page.goto(f"{web.url}/matches/{match_id}")
    box = page.locator("#replay")
    await page.locator("#replay[data-steps]").wait_for()
    assert await box.get_attribute("data-steps") == str(len(steps))
    label = page.locator("#replay-label")
    view = page.locator("#replay-view")
    for i, step in enumerate(steps):
        assert await label.inner_text() == step["label"]
        assert await page.locator("#replay-pos").inner_text() == f"step {i + 1} / {len(steps)}"
        assert await view.get_attribute("data-renderer") == "mia"
        order = await view.locator(".mia-order").inner_text()
        assert all(name in order for name in step["view"]["players"])
        announced = [d for _, d in step["view"]["announcements"]]
        text = await view.inner_text()
        assert all(dice_words(Dice.parse(d)) in text for d in announced)  # in words
        if i + 1 < len(steps):
            await page.click("button[data-step=next]")
    # The last step shows the recorded result.
    losers = [p.name for p in record.players if not p.winner]
    result = await view.locator(".mia-result").inner_text()
    assert all(name in result for name in losers)
    assert reason_words(record.result["reason"]) in result
    await page.screenshot(path=screenshot_path("replay-mia"), full_page=True)

    await page.keyboard.press("Home")
    assert await label.inner_text() == steps[0]["label"]
    await page.keyboard.press("ArrowRight")
    assert await label.inner_text() == steps[1]["label"]
    await page.keyboard.press("End")
    assert await label.inner_text() == steps[-1]["label"]
    await page.locator("#replay-steps li").nth(1).click()
    assert await label.inner_text() == steps[1]["label"]
    # Deep links open at a step.
    await page.goto(f"{web.url}/matches/{match_id}#step=2")
    await page.locator("#replay[data-steps]").wait_for()
    assert await label.inner_text() == steps[1]["label"]
    assert browser.errors == []
