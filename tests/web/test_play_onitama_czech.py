"""A whole Onitama game in Czech (issue 29), in real Chromium: a browser that asks for Czech
starts at the home page, clicks its way to the play page, plays a house bot to the end by
clicking, reads the page's Czech (status line, the board's labels, the clock, the moves, the
result), at 1280 px and then at 390 px, looks at the live page, and switches to English."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from herna.games.onitama.review import WIN
from herna.hall.reviews import ReviewStore
from herna.web.plugin import WebHall
from tests.chromium import Chromium
from tests.records import at, onitama_game
from tests.serve import serving
from tests.web.conftest import screenshot_path
from tests.web.play_helpers import play_one, sit_down, wait_my_turn

ONITAMA: dict[str, Any] = {"onitama_house_bot_strategy": "greedy", "onitama_house_bot_delay": 0.02}

ENGLISH_LEFT = re.compile(
    r"\b(Your move|to move|You won|You lost|your master|your student|opponent's|Clock|"
    r"Waiting|Connecting|Moves|played|spare|winner|Resign|Offer a draw)\b"
)
"""English words of the play page that a Czech page must not show."""
CARDS_CS = {
    "Tiger": "Tygr", "Dragon": "Drak", "Frog": "Žába", "Rabbit": "Králík", "Crab": "Krab",
    "Elephant": "Slon", "Goose": "Husa", "Rooster": "Kohout", "Monkey": "Opice",
    "Mantis": "Kudlanka", "Horse": "Kůň", "Ox": "Vůl", "Crane": "Jeřáb", "Boar": "Kanec",
    "Eel": "Úhoř", "Cobra": "Kobra",
}  # fmt: skip
"""The Czech edition's names of the cards (the protocol keeps the English ones)."""
ENGLISH_CARD = re.compile(r"\b(" + "|".join(CARDS_CS) + r")\b")


async def no_overflow(page: object) -> None:
    """Nothing wider than the screen (Czech words are longer than English ones)."""
    width, inner = await page.evaluate(  # type: ignore[attr-defined]
        "[document.documentElement.scrollWidth, innerWidth]"
    )
    assert width <= inner, (width, inner)


@pytest.mark.browser
async def test_a_czech_browser_plays_a_whole_onitama_game(
    tmp_path: Path, chromium: Chromium
) -> None:
    errors: list[str] = []
    async with (
        serving(tmp_path, "onitama,web", **ONITAMA) as hall,
        chromium.context(locale="cs-CZ", viewport={"width": 1280, "height": 800}) as context,
    ):
        web = hall.service("web")
        assert isinstance(web, WebHall)
        page = await context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))

        await page.goto(web.url + "/")
        assert await page.get_attribute("html", "lang") == "cs"
        await page.locator("#play-now").get_by_role("link", name="Hrát Onitamu").click()
        await page.wait_for_url("**/play/onitama")
        assert await page.locator("h1").inner_text() == "Hrát Onitamu"
        lead = await page.locator("p.lead").inner_text()
        assert lead.startswith("Hraješ jako ") and "zvýrazněné pole" in lead, lead
        await page.wait_for_selector("#play-sit")
        assert await page.locator("#play-status").inner_text() == "Vyber si soupeře a přisedni."
        options = await page.locator("#play-opponent option").all_inner_texts()
        assert options[:3] == ["Kdokoli (nejdřív lidé)", "Jen lidé", "Bot herny: snadný"], options
        assert await page.locator("#play-sit").inner_text() == "Přisednout"
        await page.screenshot(path=screenshot_path("onitama-cs-choose-1280"), full_page=True)
        await page.set_viewport_size({"width": 390, "height": 844})
        await no_overflow(page)
        await page.screenshot(path=screenshot_path("onitama-cs-choose-390"), full_page=True)
        await page.set_viewport_size({"width": 1280, "height": 800})

        await sit_down(page, "bots:easy")
        phase = await wait_my_turn(page)
        color = await page.evaluate("window.HernaPlay.state.color")
        # The status line, the board and its labels, the buttons, in Czech.
        status = await page.locator("#play-status").inner_text()
        side = "bílého" if color == "white" else "černého"
        assert phase == "over" or status == f"Jsi na tahu (hraješ za {side}).", status
        assert await page.get_attribute("svg.oni-board", "aria-label") == "Deska Onitamy"
        labels = await page.locator("rect[data-square]").evaluate_all(
            "rs => rs.map((r) => r.getAttribute('aria-label'))"
        )
        assert any(label.endswith(": tvůj mistr") for label in labels), labels
        assert any(label.endswith(": tvůj žák") for label in labels), labels
        assert any(label.endswith(": soupeřův žák") for label in labels), labels
        assert await page.locator("#play-resign").inner_text() == "Vzdát se"
        assert await page.locator("#play-draw").inner_text() == "Nabídnout remízu"
        assert await page.locator(".oni-label").inner_text() == "volná karta"
        # The five cards: the protocol's names in data-card, the Czech edition's on the card.
        cards = await page.locator(".onitama .oni-card").evaluate_all(
            "fs => fs.map((f) => [f.dataset.card, f.querySelector('figcaption').textContent])"
        )
        assert len(cards) == 5 and all(CARDS_CS[c] == said for c, said in cards), cards
        assert await page.locator(".play-side h2").inner_text() == "Tahy"
        # A pawn chosen: its targets say which card moves there.
        await page.locator("rect.oni-movable").first.click()
        target = await page.locator("rect.oni-target").first.get_attribute("aria-label")
        assert target is not None and ", sem táhne " in target, target
        await page.locator("rect.oni-movable").first.click()  # (unselect again)
        await page.screenshot(path=screenshot_path("onitama-cs-game-1280"), full_page=True)
        await no_overflow(page)

        plies = 0
        while phase != "over":
            await play_one(page)
            plies += 1
            if plies == 4:
                # The same game on a phone: the board, the words, nothing wider.
                await page.set_viewport_size({"width": 390, "height": 844})
                await no_overflow(page)
                await page.screenshot(path=screenshot_path("onitama-cs-game-390"), full_page=True)
            assert plies < 150, "the game did not end"
            phase = await wait_my_turn(page)
            if phase != "over":
                status = await page.locator("#play-status").inner_text()
                assert status.startswith("Jsi na tahu") or "nemáš žádný platný tah" in (
                    status.lower()
                ), status
        moves = await page.locator("#play-moves li").all_inner_texts()
        assert len(moves) >= plies and all(" zahrál(a) " in m or "nemohl(a)" in m for m in moves)
        assert any("(bílý)" in m for m in moves) and any("(černý)" in m for m in moves), moves
        said = re.compile(r" zahrál\(a\) kartu (\w+) [a-e][1-5]→[a-e][1-5]")
        assert all(m[1] in CARDS_CS.values() for m in map(said.search, moves) if m), moves
        assert any(said.search(m) for m in moves), moves
        assert await page.locator("#play-status").inner_text() == "Hra skončila."
        result = await page.locator("#play-result").inner_text()
        # the game is over: told in the past, for both genders
        past = r"(Vyhrál\(a\) jsi|Prohrál\(a\) jsi\. .+ vyhrál\(a\)|Remíza)"
        assert re.match(past, result), result
        winner = await page.locator(".oni-status").inner_text()
        assert winner.endswith(" vyhrává") or winner == "", winner  # (the result says how)
        assert await page.locator("#play-next").inner_text() == "Hrát znovu"
        assert await page.locator("#play-other").inner_text() == "Vybrat jiného soupeře"
        assert await page.locator("#play-review").inner_text() == "Rozbor této hry enginem"
        shown = await page.locator("main").inner_text()
        assert ENGLISH_LEFT.search(shown) is None, ENGLISH_LEFT.search(shown)
        assert ENGLISH_CARD.search(shown) is None, ENGLISH_CARD.search(shown)
        await no_overflow(page)
        await page.screenshot(path=screenshot_path("onitama-cs-over-390"), full_page=True)
        await page.set_viewport_size({"width": 1280, "height": 800})
        await page.screenshot(path=screenshot_path("onitama-cs-over-1280"), full_page=True)

        # The live page, in Czech.
        await page.locator("header nav").get_by_role("link", name="Živě").click()
        await page.wait_for_url("**/live")
        assert await page.locator("h1").inner_text() == "Živě"
        assert await page.locator(".filters a", has_text="vše").count() == 1
        await page.wait_for_function(
            "document.getElementById('live-status').textContent === 'živě'"
        )

        # English with the header's switch: the play page speaks English again.
        await page.locator("header nav").get_by_role("link", name="Úvod").click()
        await page.locator("#languages").get_by_role("link", name="English").click()
        await page.wait_for_url(web.url + "/")
        await page.locator("#play-now").get_by_role("link", name="Play Onitama").click()
        await page.wait_for_url("**/play/onitama")
        assert await page.get_attribute("html", "lang") == "en"
        assert await page.locator("h1").inner_text() == "Play Onitama"
        await page.wait_for_selector("#play-sit")
        assert (
            await page.locator("#play-status").inner_text() == "Choose whom to play, then sit down."
        )
        assert await page.locator("#play-sit").inner_text() == "Sit down"
    assert errors == []


async def test_the_engine_review_in_czech(tmp_path: Path) -> None:
    """The review page of a game, as a Czech browser gets it: headings, counts, verdicts, the
    engine's scores in Czech numbers; the English page keeps the English words."""
    async with serving(tmp_path, "web") as hall:
        web = hall.service("web")
        assert isinstance(web, WebHall)
        match = hall.records.save(at(onitama_game(5), datetime(2026, 3, 14, 15, 9, tzinfo=UTC)))
        ply = {"ply": 1, "color": "white", "move": "Tiger c1c3", "win_chance": 62.0}
        data = {
            "start": {"score": 0, "score_words": "0.0", "win_chance": 50.0},
            "plies": [
                {**ply, "score": 130, "score_words": "+1.3", "loss": 0.0, "class": "best"},
                {
                    **ply,
                    "ply": 2,
                    "color": "black",
                    "move": "Crab a5a4",
                    "score": WIN - 3,
                    "score_words": "White wins in 2 moves",
                    "win_chance": 99.0,
                    "loss": 35.2,
                    "class": "blunder",
                    "best": "Crab b5b4",
                    "best_words": "Crab b5→b4: the pawn to b4",
                },
            ],
            "counts": {
                c: {"best": 0, "good": 0, "inaccuracy": 0, "mistake": 0, "blunder": n, "forced": 0}
                for c, n in (("white", 0), ("black", 1))
            },
            "thresholds": {"blunder": 30.0, "mistake": 20.0, "inaccuracy": 10.0},
            "settings": {"max_depth": 6, "budget": 0.25},
        }
        store = ReviewStore(hall.records.engine)
        assert store.claim(match)
        store.finish(match, data)
        czech = {"accept-language": "cs-CZ,cs;q=0.9"}
        async with httpx.AsyncClient(base_url=web.url, timeout=10, headers=czech) as http:
            page = (await http.get(f"/matches/{match}/review")).text
            assert f"Rozbor enginem: Onitama č. {match}" in page
            assert "nepřesnosti (≥ 10)" in page and "hrubá chyba ≥ 30 bodů" in page
            assert "<td>+1,3 (62 %)</td>" in page
            assert "Bílý vyhraje za 2 tahy (99 %)" in page
            assert "hrubá chyba (−35)" in page and "nejlepší: Krab b5→b4" in page
            assert "<td>Krab a5a4 ??</td>" in page and "Tygr c1c3" in page
            shown = page.split("<main", 1)[1].split("</main>", 1)[0]
            assert ENGLISH_CARD.search(shown) is None, ENGLISH_CARD.search(shown)
            assert "0 %% " not in page and "100 % vyhrává bílý" in page
            english = (
                await http.get(f"/matches/{match}/review", headers={"accept-language": "en"})
            ).text
            assert (
                "White wins in 2 moves" in english
                and "best: Crab b5→b4: the pawn to b4" in english
                and "<td>Crab a5a4 ??</td>" in english
            )
            assert "blunder ≥ 30 points" in english and "100 % White wins" in english
