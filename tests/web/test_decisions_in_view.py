"""The decision in front of a person is on the screen when it is asked (issue 26): Onitama's
"which card?" when both cards reach the clicked square, at 1280x800 and at 390x844, reached by
clicks from the home page in real Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from herna.games.onitama.state import OnitamaState
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import (
    in_viewport,
    play_hall,
    seed_where_second_is_white,
    sit_down,
    state,
)

pytestmark = pytest.mark.browser

WIDTHS = [(1280, 800), (390, 844)]


def both_cards_forward() -> OnitamaState:
    """The usual set-up, but White holds Boar and Crab: both move a pawn one square forward."""
    return OnitamaState.setup(["Boar", "Crab"], ["Tiger", "Horse"], "Eel")


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


async def to_the_announcement(page: Any, deals: int = 12) -> dict[str, Any]:
    """Bid the lowest game (or say mám) until this seat wins a licitace, answering everything
    else with the first choice; the state at the announcement question."""
    from tests.web.test_play_marias import MY_TURN, answer, page_state

    for _ in range(400):
        await page.wait_for_function(MY_TURN, timeout=30_000)
        st = await page_state(page)
        d = st["decision"]
        if d["kind"] == "gametype":
            return st
        assert st["deals"] < deals, "never the aktér"
        if d["kind"] == "licite":
            options = d["options"]
            pick = next((o for o in options if o["kind"] == "answer" and "mám" in o["label"]), None)
            bids = [o for o in options if o["kind"] == "bid" and o["label"] != "pass"]
            pick = pick or (bids[0] if bids else options[0])
            seq = st["seq"]
            await page.locator(f'#mar-prompt button[data-choice="{pick["id"]}"]').click()
            await page.wait_for_function(
                f"() => Number(document.getElementById('play')?.dataset.seq) > {seq}"
            )
        elif d["kind"] == "discard":
            # two cards that leave every game open (no eso or 10 in the talon)
            pair = next(
                (
                    o["cards"]
                    for o in d["options"]
                    if not any(c[1:] in ("0A", "10") for c in o["cards"])
                ),
                d["options"][0]["cards"],
            )
            seq = st["seq"]
            for code in pair:
                await page.locator(f'#mar-hand button[data-code="{code}"]').click()
            await page.locator("button.mar-discard").click()
            await page.wait_for_function(
                f"() => Number(document.getElementById('play')?.dataset.seq) > {seq}"
            )
        else:
            await answer(page)
    raise AssertionError("no announcement question")


@pytest.mark.parametrize(("width", "height"), WIDTHS)
async def test_marias_announcement_in_steps_in_view_talon_readable_points_shown(
    tmp_path: Path, browser: Browser, width: int, height: int
) -> None:
    from tests.web.test_play_marias import MY_TURN, answer, marias_hall, sit

    async with marias_hall(tmp_path) as h:
        page = browser.page
        await page.set_viewport_size({"width": width, "height": height})
        await sit(page, h.url, level="easy")
        st = await to_the_announcement(page)
        prompt = page.locator("#mar-prompt")
        # step 1: the game, a handful of buttons, on the screen
        steps = prompt.locator("button.mar-step")
        kinds = await steps.all_inner_texts()
        assert 1 <= len(kinds) <= 5 and set(kinds) <= {"hra", "kilo", "betl", "durch", "dvě sedmy"}
        assert await prompt.locator("button").count() <= 6
        assert await in_viewport(page, "#mar-prompt .mar-steps")
        # the talon the person laid away is readable: drawn as large as the hand's cards
        talon = page.locator(".mar-talon img")
        assert await talon.count() == 2
        for i in range(2):
            box = await talon.nth(i).bounding_box()
            assert box is not None and box["width"] >= 44, box
        trick_before = await page.locator("#mar-trick").bounding_box()
        await page.screenshot(path=f"/tmp/words-marias-step1-{width}.png")
        # step 2: trumps (a trump game), then what may be added, then the announcement
        if "hra" in kinds:
            await steps.filter(has_text="hra").first.click()
            await prompt.locator("button.mar-step").first.wait_for()
            suits = prompt.locator("button.mar-step[data-suit]")
            assert 1 <= await suits.count() <= 4
            assert await in_viewport(page, "#mar-prompt .mar-steps")
            await page.screenshot(path=f"/tmp/words-marias-step2-{width}.png")
            hand = {c["code"] for c in st["hand"]}
            # a suit whose seven the person does not hold, when there is one: the warning
            codes = await suits.evaluate_all("bs => bs.map(b => b.dataset.suit)")
            missing = [s for s in codes if f"{s}07" not in hand]
            suit = missing[0] if missing else codes[0]
            await prompt.locator(f'button.mar-step[data-suit="{suit}"]').click()
            extra = prompt.locator('button.mar-step[data-extra="sedma"]')
            if await extra.count():
                await extra.click()
                if suit in missing:
                    warning = await prompt.locator(".mar-warning").inner_text()
                    assert "trump seven" in warning
                    assert (await prompt.locator("button.mar-choice").inner_text()).startswith(
                        "Announce anyway"
                    )
                await extra.click()  # sedma off again: the plain game
            await page.screenshot(path=f"/tmp/words-marias-step3-{width}.png")
        else:
            # kilo, betl, durch or dvě sedmy (a licitace above hra): their steps (a kilo asks
            # for trumps, dvě sedmy for the second suit too) up to the announcement
            for _ in range(4):
                if await prompt.locator("button.mar-choice").count():
                    break
                await prompt.locator("button.mar-step:not(.mar-extra)").first.click()
        assert await prompt.locator("button").count() <= 8
        trick_now = await page.locator("#mar-trick").bounding_box()
        assert trick_before and trick_now and trick_now["height"] == trick_before["height"]
        assert trick_now["height"] <= 220
        announce = prompt.locator("button.mar-choice")
        assert (await announce.inner_text()).startswith("Announce")
        assert await in_viewport(page, "#mar-prompt button.mar-choice")
        await announce.click()
        # play: the card points of each side are on the page once the first trick is taken
        points = page.locator("#mar-points")
        for _ in range(200):  # betl or durch deals have no points: play on to the next deal
            if await points.count() and "aktér" in await points.inner_text():
                text = await points.inner_text()
                if "obrana" in text and any(ch.isdigit() for ch in text):
                    st = await page.evaluate("() => window.HernaMarias.state.state")
                    if st["points"] and st["points"]["tricks"] >= 1:
                        break
            await page.wait_for_function(MY_TURN, timeout=30_000)
            await answer(page)
        else:
            raise AssertionError("no card points on the page")
        box = await page.locator("#mar-trick").bounding_box()
        assert box is not None and box["height"] == trick_before["height"]
        await page.screenshot(path=f"/tmp/words-marias-points-{width}.png")
        assert browser.errors == []


@pytest.mark.parametrize(("width", "height"), WIDTHS)
async def test_tiles_next_goal_marked_and_labels_over_pawns(
    tmp_path: Path, browser: Browser, width: int, height: int
) -> None:
    import random

    from tests.web.test_play_tiles import MY_TURN_OR_OVER, PHASE, play_one, tiles_hall

    async with tiles_hall(tmp_path, max_rounds=60) as h:
        page = browser.page
        await page.set_viewport_size({"width": width, "height": height})
        await page.goto(h.url + "/")
        await page.get_by_role("link", name="Play a tile game").click()
        await page.wait_for_function(f"() => {PHASE} === 'setup'")
        await page.select_option("#tp-rules", "labyrinth")
        await page.click("#tp-sit")
        await page.wait_for_function(f"() => {PHASE} === 'game'")
        rnd = random.Random(3)
        seen_next = 0
        for turn in range(12):
            await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
            if await page.evaluate(PHASE) == "over":
                break
            st = await page.evaluate("() => window.HernaTilesPlay.state")
            me = next(p for p in st["view"]["players"] if p["seat"] == st["seat"])
            goal = me["goals"][me["goals_done"]]
            # the next goal in the required order is marked in the list ...
            mine = page.locator(f'.tp-player[data-seat="{st["seat"]}"]')
            marked = mine.locator(".tp-goal-next")
            assert await marked.count() == 1
            assert (await marked.inner_text()).startswith("▶ next: ")
            items = await mine.locator(".tp-goal").all()
            assert items[me["goals_done"]] is not None
            assert "tp-goal-next" in (await items[me["goals_done"]].get_attribute("class") or "")
            # ... and framed on the board where it can be reached
            frames = page.locator("rect.tp-next-goal")
            text = goal["goal"]
            if text.startswith("reach "):
                _, x, y = text.split()
                assert await frames.count() == 1
                assert await frames.first.get_attribute("data-x") == x
                assert await frames.first.get_attribute("data-y") == y
                seen_next += 1
            elif text.startswith("find "):
                item = text[len("find ") :]
                cells = [
                    (str(x), str(y))
                    for y, row in enumerate(st["view"]["board"])
                    for x, tile in enumerate(row)
                    if tile and not tile.get("face_down") and item in (tile.get("items") or {})
                ]
                got = await frames.evaluate_all(
                    "rs => rs.map(r => [r.getAttribute('data-x'), r.getAttribute('data-y')])"
                )
                assert sorted(tuple(c) for c in got) == sorted(cells)
                seen_next += bool(cells)
            # every item's name is drawn after (over) every pawn: no pawn hides a label
            order = await page.evaluate(
                "() => { const b = document.querySelector('#play-board svg');"
                " const all = [...b.querySelectorAll('.tiles-player-mark, .tiles-item')];"
                " return all.map(n => n.classList.contains('tiles-item') ? 'i' : 'p').join(''); }"
            )
            assert "p" in order and "i" in order and "ip" not in order, order
            if turn == 0:
                await page.screenshot(path=f"/tmp/words-tiles-goal-{width}.png")
            await play_one(page, rnd)
        assert seen_next >= 1
        assert browser.errors == []
