"""The mariáš words a person reads while playing in the browser (issue #29), in real Chromium
from the home page: every card's tooltip names the card with the suit agreeing with its rank
(``červený král (king of hearts)``), the table's story agrees with its subject (``you play``,
``anna plays``), no seat is called "middle", and a Czech page (``<html lang="cs">``) tells the
whole deal in Czech with the cards in the case each sentence needs (``ty hraješ červenou
sedmu``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from herna.games.marias import CARD_CODES
from herna.games.marias.names import card_name
from tests.chromium import Chromium
from tests.web.conftest import Browser, screenshot_path
from tests.web.test_play_marias import (
    MY_TURN,
    MY_TURN_OR_DEALS,
    answer,
    marias_hall,
    page_state,
    sit,
)

pytestmark = pytest.mark.browser

NOMINATIVE = {card_name(c): c for c in CARD_CODES}
ACCUSATIVE_CS = {card_name(c, "cs", "acc"): c for c in CARD_CODES}
WRONG = re.compile(
    r"\b(červené|zelené) (spodek|svršek|král|sedma|7|8|9|10)\b"
    r"|\b(kule|žaludy) (spodek|svršek|král|eso|sedma|7|8|9|10)\b"
)
"""A suit noun before a rank: the words issue #29 found (``červené král``, ``kule svršek``)."""


async def card_titles(page: Any) -> dict[str, str]:
    """Each card image on the screen: its code and its tooltip."""
    pairs: list[list[str]] = await page.locator("img.mar-card").evaluate_all(
        "imgs => imgs.map(i => [i.dataset.code, i.title])"
    )
    return dict((code, title) for code, title in pairs)


async def play_one_deal_reading_the_story(page: Any) -> list[str]:
    """Answer every question of the first deal by clicking; the story's lines as they were on
    the screen after each answer (the page shows the last twelve)."""
    story: list[str] = []
    for _ in range(100):
        await page.wait_for_function(MY_TURN_OR_DEALS, arg=1, timeout=30_000)
        story += await page.locator("#mar-log li").all_inner_texts()
        if int(await page.evaluate("document.getElementById('play').dataset.deals")) >= 1:
            return story
        await answer(page)
    raise AssertionError("the deal did not end")


async def screen_text(page: Any) -> str:
    return str(await page.locator("#play").inner_text())


async def test_english_card_tooltips_and_story_agree(tmp_path: Path, browser: Browser) -> None:
    async with marias_hall(tmp_path) as h:
        page = browser.page
        await page.set_viewport_size({"width": 1280, "height": 800})
        await sit(page, h.url)
        await page.wait_for_function(MY_TURN, timeout=20_000)
        titles = await card_titles(page)
        assert len(titles) >= 10
        for code, title in titles.items():
            assert title == card_name(code, gloss=True), (
                code,
                title,
            )  # červený král (king of hearts)
        text = await screen_text(page)
        assert "prostřední" in text and not re.search(r"\bmiddle\b", text), text
        await page.screenshot(path=screenshot_path("marias-words-en-1280"), full_page=True)
        story = await play_one_deal_reading_the_story(page)
        text = await screen_text(page)
        await page.screenshot(path=screenshot_path("marias-words-en-result-1280"), full_page=True)
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.screenshot(path=screenshot_path("marias-words-en-390"), full_page=True)
    plays = [line for line in story if " play" in line]
    assert plays, story
    for line in plays:
        who, verb, card = re.fullmatch(r"(.+?) (plays?) (.+)", line).groups()  # type: ignore[union-attr]
        assert verb == ("play" if who == "you" else "plays"), line
        assert card in NOMINATIVE, line
    for wrong in ("you plays", "you announces", "you lays", "you takes", "you wins"):
        assert wrong not in " ".join(story) and wrong not in text
    assert not WRONG.search(text), text
    assert "Vyúčtování — deal 1" in text


ENGLISH_CHROME = re.compile(
    r"\b(you|your|trick|tricks|Play|deal|Deal|Leave the table|Next deal|Opponents|Sit down|"
    r"Review|Rematch|Stay|leads|led|to move|money|in all|player|waiting|Waiting|Announce|"
    r"the|lay|talon:|Choose|Back to my seat|seconds)\b"
)
"""The page's own English words that a Czech page showed before issue #29's play page moved
to the catalogs (the Czech game terms stay: štych, talon, licitace ...)."""


async def english_on_screen(page: Any) -> list[str]:
    """The English chrome words in what a person reads in #main: its text and the tooltips
    and labels of what is on the screen."""
    text = str(await page.locator("main").inner_text())
    said: list[str] = await page.locator("main [title], main [aria-label]").evaluate_all(
        "ns => ns.filter(n => n.checkVisibility()).flatMap(n => ["
        " n.getAttribute('title') || '', n.getAttribute('aria-label') || ''])"
    )
    return [m.group(0) for t in [text, *said] for m in ENGLISH_CHROME.finditer(t)]


STATUS_WATCH = """addEventListener("DOMContentLoaded", () => {
  const node = document.getElementById("play-status");
  if (!node) return;
  window.statusesSeen = [];
  new MutationObserver(() => window.statusesSeen.push(node.textContent.trim()))
    .observe(node, { childList: true, characterData: true, subtree: true });
});"""
"""Every text the status line shows, kept in ``window.statusesSeen``."""


async def test_a_czech_browser_plays_a_deal_all_in_czech(
    tmp_path: Path, chromium: Chromium
) -> None:
    """A browser that asks for Czech (``cs-CZ``) goes from the home page to the mariáš play
    page, plays a whole deal by clicking and leaves the table: the page is Czech throughout —
    the story with the cards in the case each sentence needs (``ty hraješ červenou sedmu``),
    the page's own words (headings, buttons, tooltips, the vyúčtování), nothing English."""
    errors: list[str] = []
    async with (
        marias_hall(tmp_path) as h,
        chromium.context(locale="cs-CZ", viewport={"width": 390, "height": 844}) as context,
    ):
        page = await context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        await page.add_init_script(STATUS_WATCH)
        await page.goto(h.url + "/")
        await page.get_by_role("link", name="Hrát mariáš").click()
        await page.wait_for_url("**/play/marias")
        assert await page.get_attribute("html", "lang") == "cs"
        assert await page.locator("h1").inner_text() == "Hrát mariáš"
        assert await page.locator("legend").inner_text() == "Soupeři"
        assert not await english_on_screen(page), await english_on_screen(page)
        medium = page.get_by_role("radio", name=re.compile("^střední "))
        level = (await page.locator("label.mar-level", has=medium).inner_text()).strip()
        assert level.startswith("střední boti herny hrají"), level  # not "(heuristic)"
        strongest = page.get_by_role("radio", name=re.compile("^nejsilnější "))
        strongest = page.locator("label.mar-level", has=strongest)
        assert (await strongest.inner_text()).count("nejsilnější") == 1  # said once
        await medium.check()
        await page.get_by_role("button", name="Přisednout").click()
        await page.wait_for_function(MY_TURN, timeout=20_000)
        titles = await card_titles(page)
        for code, title in titles.items():
            assert title == card_name(code, "cs"), (code, title)  # no English gloss
        prompt = await page.locator("#mar-prompt").inner_text()
        assert re.search(r"Tvoje licitace|Máš |Tvoje karta|Vyber dvě karty|Zvol hru|Flek\?", prompt)
        players = await page.locator("#mar-players").inner_text()
        assert "(ty)" in players and "štychy" in players, players
        assert not await english_on_screen(page), await english_on_screen(page)
        await page.screenshot(path=screenshot_path("marias-cs-390"), full_page=True)

        story: list[str] = []
        seen: set[str] = set()
        for _ in range(100):
            await page.wait_for_function(MY_TURN_OR_DEALS, arg=1, timeout=30_000)
            story += await page.locator("#mar-log li").all_inner_texts()
            seen.update(await english_on_screen(page))
            if int(await page.evaluate("document.getElementById('play').dataset.deals")) >= 1:
                break
            await answer(page)
        else:
            raise AssertionError("the deal did not end")
        st = await page_state(page)
        result = page.locator("#mar-result")
        await result.get_by_text("Vyúčtování — 1. rozdání").wait_for()
        heads = await result.locator("th").all_inner_texts()
        assert heads == ["hráč", "štychy", "body", "hlášky", "peníze", "celkem"], heads
        assert await page.locator("#mar-review").inner_text() == "Rozbor tohoto rozdání"
        seen.update(await english_on_screen(page))
        assert not seen, seen
        statuses = await page.evaluate("window.statusesSeen")
        assert statuses and "…" not in statuses, statuses  # always a sentence, never a bare "…"
        await page.screenshot(path=screenshot_path("marias-cs-result-390"), full_page=True)
        await page.set_viewport_size({"width": 1280, "height": 800})
        await page.screenshot(path=screenshot_path("marias-cs-result-1280"), full_page=True)

        # Leaving: asked once more, in Czech; then what comes after a table.
        await page.get_by_role("button", name="Odejít od stolu").click()
        ask = page.locator("#mar-leave-confirm")
        assert "Stůl skončí pro všechny" in await ask.inner_text()
        assert not await english_on_screen(page), await english_on_screen(page)
        await ask.get_by_role("button", name="Ano, odejít od stolu").click()
        await page.get_by_role("button", name="Přisednout k novému stolu").wait_for()
        # One button for each thing: no "Hrát znovu" beside it doing the same.
        assert await page.get_by_role("button", name="Hrát znovu").count() == 0
        assert not await english_on_screen(page), await english_on_screen(page)
        await page.screenshot(path=screenshot_path("marias-cs-left-1280"), full_page=True)
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.screenshot(path=screenshot_path("marias-cs-left-390"), full_page=True)
    assert not errors, errors
    plays = [line for line in story if re.search(r" hraj(e|eš) ", line)]
    assert plays, story
    for line in plays:
        who, verb, card = re.fullmatch(r"(.+?) (hraješ|hraje) (.+)", line).groups()  # type: ignore[union-attr]
        assert verb == ("hraješ" if who == "ty" else "hraje"), line
        assert card in ACCUSATIVE_CS, line  # hraje červenou sedmu, not červená sedma
    assert any(re.fullmatch(r"\d+\. štych (bere \S+|bereš ty)", line) for line in story), story
    for english in ("you ", " plays", "announces", "trick ", "takes the talon"):
        assert english not in " ".join(story), english
    text = " ".join(story)
    assert not WRONG.search(text), text
    result_st = st["result"]
    assert result_st is not None
    lines = " ".join(x["text"] for x in result_st["lines"])
    assert re.search(r"aktér (vyhrál|prohrál)|Renonc", lines), lines
    assert re.search(r"\d+ jednotk(a|y|ek)|Renonc", lines), lines
    assert "units" not in lines and "won by the aktér" not in lines
