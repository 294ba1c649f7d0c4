"""The tournament, bot, contest, status and balance pages in Czech (issue 29): a Czech
browser starts at the home page and clicks to the tournaments, a tournament, the bots, a
bot's page, the contests, the status page and the balance tool, at 1280 and 390 px; the
words on screen are Czech, nothing sticks out sideways. Real Chromium, real sockets, a real
SQLite file, a tournament played for real by the house bots."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from babel.dates import format_datetime

from herna.cli import main
from herna.hall.contests import Contests
from herna.hall.submissions import Submissions
from herna.web.plugin import WebHall
from tests.chromium import Chromium
from tests.serve import serving
from tests.web.bot_helpers import fits, starter_source
from tests.web.conftest import screenshot_path

BOTS = ["house:random", "house:greedy", "house:alphabeta:1"]


async def _played(tmp_path: Path) -> None:
    """An Onitama round robin of three house bots, played into the hall's database."""
    db = f"sqlite:///{tmp_path / 'herna.db'}"
    argv = ["tournament", "run", "--game", "onitama", "--seed", "5", "--name", "Podzimní turnaj"]
    assert await asyncio.to_thread(main, [*argv, *BOTS, "--database-url", db]) == 0


@pytest.mark.browser
@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["1280", "390"])
async def test_a_czech_browser_walks_tournaments_bots_contests_and_status(
    tmp_path: Path, size: tuple[int, int], chromium: Chromium
) -> None:
    width, height = size
    errors: list[str] = []
    await _played(tmp_path)
    async with (
        serving(tmp_path, "onitama,web", onitama_house_bot_delay=0.02) as hall,
        chromium.context(locale="cs-CZ", viewport={"width": width, "height": height}) as context,
    ):
        web = hall.service("web")
        assert isinstance(web, WebHall)
        bots = Submissions(hall.records.engine, hall.identity)
        bots.submit("kit-bot", "onitama", "bot.py", starter_source(), person="jana")
        soon = datetime.now(UTC) + timedelta(hours=2)
        Contests(hall.records.engine, bots).create("Třída 3.B", "onitama", soon, 2, ())
        page = await context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        nav = page.locator("header nav")

        async def shot(name: str) -> None:
            await fits(page)
            await page.screenshot(path=screenshot_path(f"cs-{name}-{width}"), full_page=True)

        await page.goto(web.url + "/")
        await nav.get_by_role("link", name="Turnaje").click()
        await page.wait_for_url("**/tournaments")
        assert await page.locator("h1").inner_text() == "Turnaje"
        heads = await page.locator("#tournaments thead th").all_inner_texts()
        assert heads[:4] == ["turnaj", "hra", "formát", "účastníci"], heads
        row = await page.locator("#tournaments tbody tr").first.inner_text()
        assert "každý s každým" in row and "skončil" in row, row
        assert await page.locator("#season-go").inner_text() == "Tabulka sezóny"
        await shot("tournaments")

        await page.get_by_role("link", name="Podzimní turnaj").click()
        await page.wait_for_url("**/tournaments/*")
        facts = await page.locator("#tournament-body p.muted").first.inner_text()
        assert "3 účastníci" in facts and "3 hry" in facts and "vytvořen" in facts, facts
        h2 = await page.locator("#tournament-body h2").all_inner_texts()
        assert h2 == ["Pořadí", "Tabulka vzájemných výsledků", "Hry", "Účastníci"], h2
        note = await page.locator("p.tie-breaks").inner_text()
        assert note.startswith("Pořadí podle bodů; při rovnosti podle"), note
        games = await page.locator("#games thead th").all_inner_texts()
        assert games[0] == "kolo" and games[-1] == "záznam hry", games
        entrants = await page.locator("ul.entrants").inner_text()
        assert "bot herny" in entrants, entrants
        await shot("tournament")

        await nav.get_by_role("link", name="Boti").click()
        await page.wait_for_url("**/bots")
        assert await page.locator("h1").inner_text() == "Nahraní boti"
        ladder = page.locator("h2", has_text="Onitama: pořadí žebříčku")
        assert await ladder.count() == 1
        heads = await page.locator("table.results thead th").all_inner_texts()
        assert heads[:3] == ["Bot", "Hry", "Výhry"], heads
        assert "Přihlas se" in await page.locator("main").inner_text()
        # Herna's docs are in English, and a Czech page says so beside the link.
        lead = await page.locator("p.lead").first.inner_text()
        assert "Jak ho napsat (anglicky)" in lead, lead
        await shot("bots")

        await page.get_by_role("link", name="kit-bot", exact=True).click()
        await page.wait_for_url("**/bots/kit-bot")
        lead = await page.locator("p.lead").inner_text()
        assert lead.startswith("Nahraný bot pro hru Onitama od autora jana"), lead
        standing = await page.locator("#bot-standing").inner_text()
        assert "Nejnovější verze: v1" in standing and "bez hodnocení" in standing, standing
        # The upload's time as Czech writes it (29. 11. 2026 12:33:29), not 2026-11-29 12:33.
        assert re.search(r"nahráno \d{1,2}\. \d{1,2}\. \d{4} \d", standing), standing
        assert await page.get_by_role("heading", name="Verze", exact=True).count() == 1
        await shot("bot")

        await page.get_by_role("link", name="Všichni nahraní boti").click()
        await page.wait_for_url("**/bots")
        await page.locator("p.lead").get_by_role("link", name="soutěž").click()
        await page.wait_for_url("**/contests")
        assert await page.locator("h1").inner_text() == "Soutěže botů"
        row = await page.locator("table.results tbody tr").first.inner_text()
        assert "Třída 3.B" in row and "přijímá přihlášky" in row, row
        # the deadline as the hall's other Czech pages write a moment, not 2026-11-29 …
        deadline = format_datetime(soon, "medium", tzinfo=UTC, locale="cs") + " UTC"
        assert re.match(r"\d{1,2}\. \d{1,2}\. \d{4} \d{1,2}:\d\d:\d\d UTC$", deadline)
        assert deadline in row, row
        await page.get_by_role("link", name="Třída 3.B").click()
        await page.wait_for_url("**/contests/*")
        lead = await page.locator("p.lead").inner_text()
        assert "Soutěž nahraných botů pro hru Onitama" in lead, lead
        assert await page.locator("#contest-deadline").inner_text() == deadline
        assert "Zatím se nepřihlásil žádný bot." in await page.locator("main").inner_text()
        await shot("contest")

        await nav.get_by_role("link", name="Stav").click()
        await page.wait_for_url("**/status")
        assert await page.locator("h1").inner_text() == "Stav"
        h2 = await page.locator("main h2").all_inner_texts()
        assert h2 == ["Servery", "Živé stoly", "V záznamech"], h2
        card = await page.locator('.service[data-game="onitama"]').inner_text()
        assert "sledovat živě" in card and "historie" in card, card
        # the snapshot's values in Czech too: colours, kinds, a seek's empty seats, no None
        for english in ("white", "black", "house bots", "person", "None", "invalid", "line and"):
            assert english not in card, (english, card)
        assert "Onitama přes TCP" in card and "\tonitama\t" not in card, card  # a seek's game
        assert "webová herna" in await page.locator("#web-hall").inner_text()
        await shot("status")

        # The designers' balance tool, from the home page: the form and the report's frame.
        await nav.get_by_role("link", name="Úvod").click()
        await page.get_by_role("link", name="Vyzkoušej vyváženost svých pravidel").click()
        await page.wait_for_url("**/tools/balance")
        # the hall's word for the tiles ("dlaždice"), the examples' and levels' Czech names
        assert await page.locator("h1").inner_text() == "Vyváženost hry s dlaždicemi"
        examples = await page.locator("#bal-example option").all_inner_texts()
        assert examples[1:] == ["Kobka", "Zlatá horečka", "Labyrint", "Tsuro"]
        levels = await page.locator("#bal-level option").all_inner_texts()
        assert [x.split(" — ")[0] for x in levels] == ["snadný", "střední", "těžký", "nejsilnější"]
        if width == 1280:  # the games once (seconds of CPU); the report's frame at 390 too
            await page.locator("#bal-example").select_option(label="Zlatá horečka")  # a quick one
            await page.get_by_label("Počet her:").fill("4")
            await page.get_by_role("button", name="Zahrát a vyhodnotit").click()
            progress = page.locator("#bal-progress-text")
            await page.wait_for_function(
                "() => document.body.dataset.balance === 'done'", timeout=120_000
            )
            assert await progress.inner_text() == "odehráno 4 z 4 her"
            heads = await page.locator("#bal-report h3").all_inner_texts()
            assert heads[:3] == ["Hry vyhrané jednotlivými místy", "Jak hry skončily", "Délka her"]
            title = await page.locator("#bal-report h2").inner_text()
            assert title == "Zlatá horečka: her 4", title  # not the file's name, gold_rush
            # the report's own words in Czech too: endings, reasons, figures, decimal commas
            report = await page.locator("#bal-report").inner_text()
            for english in ("one winner", "shared win", "First seat", "turns", "left", "fair"):
                assert english not in report, (english, report)
            assert "Podíl výher prvního místa" in report, report
            assert "Proč: už nezbývá zlato" in report, report
            assert re.search(r"průměr \d+,\d, ", report) and re.search(r"\d+,\d tahu", report)
            await page.set_viewport_size({"width": 390, "height": 844})
            await shot("balance-390")
            await page.set_viewport_size({"width": width, "height": height})
        await shot("balance")

        # An address nobody has: the error page in Czech, with its way home.
        await page.goto(web.url + "/tournaments/999")
        assert await page.locator("h1").inner_text() == "Nenalezeno"
        assert await page.locator("p.error").inner_text() == "Turnaj č. 999 neexistuje."
        await page.get_by_role("link", name="domů").click()
        await page.wait_for_url(web.url + "/")
    assert errors == []


async def test_the_api_keeps_english_for_a_czech_browser(tmp_path: Path) -> None:
    """A 404 of the JSON API stays English; the page of the same thing is Czech."""
    async with serving(tmp_path, "web") as hall:
        web = hall.service("web")
        assert isinstance(web, WebHall)
        czech = {"accept-language": "cs-CZ,cs;q=0.9"}
        async with httpx.AsyncClient(base_url=web.url, headers=czech) as http:
            api = await http.get("/api/matches/999")
            assert api.status_code == 404 and api.json() == {"error": "no such match"}
            page = await http.get("/tournaments/999")
            assert page.status_code == 404 and "Turnaj č. 999 neexistuje." in page.text
            post = await http.post("/status")
            assert post.status_code == 405 and "není povoleno" in post.text
