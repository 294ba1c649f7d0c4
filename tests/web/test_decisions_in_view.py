"""The decision in front of a person is on the screen when it is asked (issue 26): Onitama's
"which card?" when both cards reach the clicked square, at 1280x800 and at 390x844, reached by
clicks from the home page in real Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from herna.games.onitama.state import OnitamaState
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import play_hall, seed_where_second_is_white, sit_down, state

pytestmark = pytest.mark.browser

WIDTHS = [(1280, 800), (390, 844)]


def both_cards_forward() -> OnitamaState:
    """The usual set-up, but White holds Boar and Crab: both move a pawn one square forward."""
    return OnitamaState.setup(["Boar", "Crab"], ["Tiger", "Horse"], "Eel")


async def in_viewport(page: Any, selector: str) -> bool:
    box = await page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return bool(
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


@pytest.mark.parametrize(("width", "height"), WIDTHS)
async def test_onitama_two_card_choice_opens_in_view(
    tmp_path: Path, browser: Browser, width: int, height: int
) -> None:
    seed = seed_where_second_is_white(1)
    async with play_hall(tmp_path, initial_state=both_cards_forward, seed=seed) as h:
        page = browser.page
        await page.set_viewport_size({"width": width, "height": height})
        await page.goto(h.url + "/")
        await page.get_by_role("link", name="Play Onitama").click()
        await sit_down(page)
        await page.wait_for_function("() => window.HernaPlay.state.phase === 'game'")
        assert (await state(page))["color"] == "white"
        await page.locator('rect.oni-movable[data-square="a1"]').click()
        await page.locator('rect.oni-target[data-square="a2"]').click()
        choice = page.locator(".play-choice")
        await choice.wait_for()
        text = await choice.inner_text()
        assert "a1" in text and "a2" in text, text
        assert sorted(await page.locator("button.play-card-choice").all_inner_texts()) == [
            "Boar",
            "Crab",
        ]
        assert await in_viewport(page, ".play-choice")
        await page.screenshot(path=f"/tmp/words-onitama-choice-{width}.png")
        await page.screenshot(path=screenshot_path(f"onitama-choice-{width}"))
        await page.locator('button.play-card-choice[data-card="Crab"]').click()
        await page.wait_for_function("() => window.HernaPlay.state.moves.length >= 1")
        assert await page.locator(".play-choice").count() == 0
        assert browser.errors == []
