"""A Czech browser plays Mia (issue 29): from the home page to the people's table, rounds
against the house bots by clicking, every word on screen in Czech (the loss reasons too, with
Mia/Mäxchen explained), at 1280x800 and then 390x844 in the same game; the header's switch
turns the same seat's page to English."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from herna.servers.mia import MiaService
from tests.chromium import Chromium
from tests.serve import serving
from tests.web.conftest import screenshot_path

pytestmark = pytest.mark.browser

STEP = "() => ['turn', 'announce'].includes(document.getElementById('play').dataset.step)"
KEYWORDS = re.compile(
    r"ANNOUNCED_LOSING_DICE|CAUGHT_BLUFFING|SEE_FAILED|LIED_ABOUT_MIA|DID_NOT_\w+|INVALID_TURN"
)
LOST_CS = re.compile(r"prohrává|Prohráváš|prohrávají|prohráváte")
REASON_CS = re.compile(
    r"blaf odhalen|odkrytý kelímek ukázal|Miu \(Mäxchen\): všichni ostatní prohrávají"
    r"|ohlášena Mia, ale|není víc než předchozí ohlášení|vypršel čas"
)
ENGLISH = re.compile(
    r"\b(?:Roll the dice|Your turn|announced|caught bluffing|looked and lost|the cup|Round \d"
    r"|You rolled|points|player|Leave the table|Scores)\b"
)


async def state(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = await page.evaluate("() => window.HernaMia.state.state")
    return found


async def play_rounds(page: Any, rounds: int, n: int = 0) -> list[str]:
    """Click through turns until the seat has played ``rounds`` rounds: roll (see every third
    turn when something was announced), announce the truth when offered on odd turns, else
    bluff; the result lines shown on the way."""
    results: list[str] = []
    await page.wait_for_function("() => window.HernaMia.state.state !== null")
    while (await state(page))["rounds"] < rounds:
        await page.wait_for_function(
            f"() => {STEP[6:]} || Number(document.getElementById('play').dataset.rounds) >= "
            f"{rounds}",
            timeout=60_000,
        )
        if (await state(page))["rounds"] >= rounds:
            break
        # the step and its words from one drawing (the page redraws as the table answers)
        step, status = await page.evaluate(
            "() => [document.getElementById('play').dataset.step, "
            "document.getElementById('play-status').innerText]"
        )
        if step not in ("turn", "announce"):
            continue  # an answer on its way: the step was the one just taken
        if step == "turn":
            see = page.locator("button.mia-see")
            if await see.count():  # something announced: it may be seen
                assert status == "Jsi na tahu: hoď kostkami, nebo odkryj poslední ohlášení.", status
            else:  # the first to act in the round
                assert status == "Jsi na tahu: hoď kostkami.", status
            if n % 3 == 2 and await see.count():
                assert (await see.inner_text()).startswith("Odkrýt: ověřit ")
                await see.click()
            else:
                await page.get_by_role("button", name="Hodit kostkami").click()
        else:
            assert status == "Ohlas svůj hod: pravdu, nebo blaf.", status
            assert "Hodil(a) jsi " in await page.locator("#mia-cup").inner_text()
            truth = page.locator("button.mia-truth")
            if n % 2 and await truth.count():
                assert (await truth.inner_text()).startswith("Ohlásit pravdu: ")
                await truth.click()
            else:
                await page.locator("button.mia-bluff").nth(n % 2).click()
        n += 1
        text = await page.locator("#mia-result").inner_text()
        if text and text not in results:
            results.append(text)
    results.append(await page.locator("#mia-result").inner_text())
    return results


async def test_a_czech_browser_plays_mia_rounds_and_reads_the_losses_in_czech(
    tmp_path: Path, chromium: Chromium
) -> None:
    errors: list[str] = []
    async with (
        serving(
            tmp_path,
            "mia,web",
            mia_people_timeout=15.0,
            mia_people_round_pause=0.3,
            mia_people_think=0.2,
        ) as hall,
        chromium.context(locale="cs-CZ", viewport={"width": 1280, "height": 800}) as context,
    ):
        service = hall.service("mia")
        assert isinstance(service, MiaService) and service.people is not None
        page = await context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        await page.goto(str(hall.service("web").url) + "/")  # type: ignore[union-attr]
        await page.get_by_role("link", name="Hrát Mia").click()
        await page.wait_for_url("**/play/mia")
        assert await page.get_attribute("html", "lang") == "cs"
        assert await page.locator("h1").inner_text() == "Hrát Mia"
        lead = await page.locator("p.lead").inner_text()
        assert "Hraješ Mia (německy Mäxchen, kostková hra na blafování)" in lead, lead
        assert await page.locator("label[for=mia-bots]").inner_text() == "Boti herny u tvého stolu"
        options = await page.locator("#mia-bots option").all_inner_texts()
        assert options[0].startswith("podle herny: ") and "nikdy neblafuje" in " ".join(options)
        assert any(o.startswith("těžký: ") for o in options), options
        await page.locator("details.mia-rules summary").click()
        assert "pravá Mia znamená" in await page.locator("details.mia-rules").inner_text()
        await page.get_by_role("button", name="Sednout si ke stolu").click()

        results = await play_rounds(page, 2)
        board = await page.locator("#mia-scores").inner_text()
        assert "hráč" in board and "body" in board and "Odehraná kola: " in board, board
        assert " (ty)" in await page.locator("#mia-order").inner_text()
        story = await page.locator("#mia-story").inner_text()
        assert "Sedl(a) sis ke stolu" in story and re.search(r"Kolo \d+: ", story), story
        assert "Body v posledních kolech" in await page.locator("#mia-chart").inner_text()
        await page.screenshot(path=screenshot_path("play-mia-cs-1280"), full_page=True)

        # The same game on a phone.
        await page.set_viewport_size({"width": 390, "height": 844})
        results += await play_rounds(page, (await state(page))["rounds"] + 2, n=1)
        await page.wait_for_function(STEP, timeout=40_000)
        width = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width
        await page.screenshot(path=screenshot_path("play-mia-cs-390"), full_page=True)

        # Every result says who lost and why, in Czech words: no keyword, no English.
        assert all(re.match(r"(Minulé kolo|Kolo) \d+: ", r) for r in results), results
        assert all(LOST_CS.search(r) or "Miu (Mäxchen)" in r for r in results), results
        assert any(REASON_CS.search(r) for r in results), results
        body = await page.locator("main").inner_text()
        assert not KEYWORDS.search(body), body
        assert not ENGLISH.search(body), ENGLISH.search(body)

        # English with the header's switch: the same seat, its words now in English.
        rounds = (await state(page))["rounds"]
        await page.locator("#languages").get_by_role("link", name="English").click()
        await page.wait_for_url("**/play/mia")
        await page.wait_for_function("() => window.HernaMia.state.phase === 'seated'")
        assert (await state(page))["rounds"] >= rounds
        assert await page.locator("h1").inner_text() == "Play Mia"
        assert "(you)" in await page.locator("#mia-order").inner_text()
        await page.wait_for_function("() => document.getElementById('mia-result').innerText")
        line = await page.locator("#mia-result").inner_text()
        assert re.match(r"(Last round|Round) \d+: ", line) and not LOST_CS.search(line), line
    assert errors == []
