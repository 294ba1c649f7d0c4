"""A Czech browser plays a whole tile game (issue 29): from the home page, the setup form,
the turns, the players and banks panel, the story of the game and the result in Czech, at
1280x800 and then 390x844 in the same game. The names of what Herna ships read in Czech too:
the rules (Zlatá horečka), its items on the tiles, in the panels and the story (zlato,
drahokam)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tests.chromium import Chromium
from tests.web.conftest import screenshot_path
from tests.web.test_play_tiles import MY_TURN_OR_OVER, PHASE, play_one, tiles_hall

pytestmark = pytest.mark.browser

ENGLISH = re.compile(
    r"\b(?:Your turn|Players|holds|Bank in|nothing yet|turned|Spare tile|Resign|You won|You lost"
    r"|A draw|Game over|Scores|Rematch|Play again|column|row|push|house bot|no progress"
    r"|round limit|every goal|eliminated|gold|gem|Gold rush)\b"
)
"""English words a Czech page must not show (the shipped rules' items and title among them)."""


async def test_a_czech_browser_plays_a_whole_tile_game(tmp_path: Path, chromium: Chromium) -> None:
    errors: list[str] = []
    async with (
        tiles_hall(tmp_path, max_rounds=40) as h,
        chromium.context(locale="cs-CZ", viewport={"width": 1280, "height": 800}) as context,
    ):
        page = await context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        await page.goto(h.url + "/")
        await page.get_by_role("link", name="Hrát hru s dlaždicemi").click()
        await page.wait_for_url("**/play/tiles")
        await page.wait_for_function(f"() => {PHASE} === 'setup'")
        assert await page.get_attribute("html", "lang") == "cs"
        assert await page.locator("h1").inner_text() == "Hrát hru s dlaždicemi"
        assert "Vyber soubor pravidel" in await page.locator("p.lead").inner_text()
        legends = await page.locator("#tp-setup legend").all_inner_texts()
        assert legends == ["Pravidla", "Soupeři", "Hodiny"], legends
        rules = await page.locator("#tp-rules option").all_inner_texts()
        assert "Zlatá horečka — 4 hráči, 5×5" in rules, rules  # the shipped title, Czech count
        await page.select_option("#tp-rules", "dungeon")
        about = await page.locator("#tp-about").inner_text()
        assert about.startswith("posuň, hoď kostkou") and "Každý tah: " in about, about
        await page.select_option("#tp-rules", "gold_rush")
        about = await page.locator("#tp-about").inner_text()
        assert "do své banky" in about and "pak táhnout figurkou" in about, about
        players = await page.locator("#tp-players option").all_inner_texts()
        assert players[0] == "2 (ty a další: 1)", players
        level = await page.locator("#tp-level option:checked").inner_text()
        assert level == "střední — jde za svým cílem, dívá se o tah dopředu", level
        await page.screenshot(path=screenshot_path("play-tiles-cs-setup-1280"), full_page=True)
        await page.select_option("#tp-players", "2")
        await page.get_by_role("button", name="Přisednout").click()
        await page.wait_for_function(f"() => {PHASE} === 'game' || {PHASE} === 'over'")

        rnd = random.Random(3)
        mine = 0
        seen_turn = seen_arrow = False
        while True:
            await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
            if await page.evaluate(PHASE) == "over":
                break
            status = await page.locator("#play-status").inner_text()
            assert status.startswith("Tvůj tah "), status
            if status.startswith("Tvůj tah 1: posuň řádek nebo sloupec"):
                seen_turn = True
            arrows = page.locator("polygon.tp-arrow")
            if await arrows.count():
                label = await arrows.first.get_attribute("aria-label")
                assert re.fullmatch(
                    r"posunout (řádek|sloupec) \d+ (zleva|zprava|shora|zdola)", label
                )
                seen_arrow = True
            if mine == 2:
                panel = await page.locator("#tp-players-box").inner_text()
                assert panel.startswith("Hráči") and "(ty)" in panel and "bot herny" in panel
                assert re.search(r"\b(nese: |nenese nic)", panel), panel
                banks = await page.locator("#tp-banks li").all_inner_texts()
                assert banks and all(b.startswith("Banka ve sloupci ") for b in banks), banks
                assert await page.get_by_role("button", name="Vzdát se").count() == 1
                # the items on the board's tiles by their Czech names ("zlato ×2")
                items = await page.locator("text.tiles-item").all_text_contents()
                assert items and all(re.fullmatch(r"((zlato|drahokam)( ×\d+)?)+", i) for i in items)
                await page.screenshot(path=screenshot_path("play-tiles-cs-1280"), full_page=True)
                # The rest of the same game on a phone.
                await page.set_viewport_size({"width": 390, "height": 844})
            await play_one(page, rnd)
            mine += 1
            assert mine < 300
        assert seen_turn and seen_arrow and mine > 3

        result = await page.locator("#play-result").inner_text()
        assert re.match(r"(Vyhrál\(a\) jsi|Prohra\. Vyhrává|Remíza: |Konec hry: )", result), result
        scores = await page.locator("#play-scores").inner_text()
        assert scores.startswith("Body: ") and "ty " in scores, scores
        assert await page.locator("#play-rematch").inner_text() == (
            "Odveta (stejná pravidla, stejní boti herny)"
        )
        assert await page.locator("#play-next").inner_text() == "Hrát znovu"
        # The server tells the story in the page's language too (the join's lang).
        story = await page.locator("#play-moves li").all_inner_texts()
        assert len(story) > mine and any(" posouvá řádek " in line for line in story), story
        assert any(re.search(r" (bere|ukládá do banky: )", line) for line in story), story
        assert any(re.search(r"\b(zlato|drahokam)\b", line) for line in story), story
        shown = await page.locator("main").inner_text()
        assert not ENGLISH.search(shown), ENGLISH.search(shown)
        assert not re.search(r"\b(pushed|moved|picked|the bank)\b", shown), shown
        width = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width
        await page.screenshot(path=screenshot_path("play-tiles-cs-over-390"), full_page=True)
    assert errors == []
