"""A teacher's entry list as the teacher and a pupil meet it, in Chromium: the teacher makes a
tournament with an entry list on the new tournament form (from the home page) and reads the
pupils' tokens; a pupil opens the tournament from the home page, signs up claiming the
reserved name with its token (a wrong token first: a clear error), is signed in under that
name, waits for the games, and the tournament shows them entered, as a person. The name's
token still works over the wire (the pupil's bot). The teacher withdraws another entrant,
asked once more first. Real ``herna serve`` (Onitama and the web hall), real sockets, a real
SQLite file; screenshots at 1280x800 and 390x844."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from herna.hall.tournament_store import TournamentStore
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path
from tests.web.test_people import ONITAMA, _onitama, _web, tcp_login

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


async def _tokens(page: Any) -> dict[str, str]:
    """The entrants' tokens as the created page shows them."""
    rows = await page.locator("#entrant-tokens table tr").all_inner_texts()
    pairs = [row.split("\t") for row in rows[1:]]
    return {name.strip(): token.strip() for name, token in pairs}


async def _fits(page: Any) -> None:
    wide = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], wide


async def test_a_pupil_claims_a_listed_name_with_its_token_and_enters(
    tmp_path: Path, browser: Browser
) -> None:
    async with serving(tmp_path, "onitama,web", onitama_house_bots=0, **ONITAMA) as hall:
        url = _web(hall).url
        onitama = _onitama(hall)
        store = TournamentStore(hall.records.engine)
        chromium = browser.page.context.browser
        assert chromium is not None

        # The teacher, from the home page, through the form on screen.
        teacher = browser.page
        await teacher.set_viewport_size(DESKTOP)
        await teacher.goto(url + "/")
        await teacher.click("header nav a[href='/tournaments']")
        await teacher.click("#new-tournament-link")
        await teacher.fill("#t-name", "Class 4B")
        await teacher.select_option("#t-admits", "people")
        await teacher.fill("#t-entrants", "name\nada\nben\n")
        await teacher.click("#new-tournament button[type=submit]")
        tokens = await _tokens(teacher)
        assert set(tokens) == {"ada", "ben"} and len(tokens["ada"]) >= 32
        admin = (await teacher.locator("#admin-token").inner_text()).strip()
        await teacher.click("#tournament-link")
        tid = int(teacher.url.rsplit("/", 1)[1])

        # The pupil, in a browser of their own, from the home page.
        context = await chromium.new_context(viewport=DESKTOP)
        pupil = await context.new_page()
        pupil.set_default_timeout(15_000)
        pupil.on("pageerror", lambda exc: browser.errors.append(f"pageerror: {exc}"))
        await pupil.goto(url + "/")
        await pupil.click("header nav a[href='/tournaments']")
        await pupil.get_by_role("link", name="Class 4B").click()
        await pupil.wait_for_url(f"{url}/tournaments/{tid}")
        hint = await pupil.locator("#sign-in-to-enter").inner_text()
        assert "token from your teacher" in hint
        await pupil.locator("#sign-in-to-enter").get_by_role("link", name="sign up").click()
        await pupil.wait_for_url(f"{url}/signup?next=*")
        label = await pupil.locator("label[for=claim-token]").inner_text()
        assert "your teacher gave you a token for this name" in label

        # Without the token the name is taken, and the page says what would make it theirs.
        await pupil.fill("#name", "ada")
        await pupil.fill("#password", "correct horse battery")
        await pupil.click("form.account button[type=submit]")
        refused = await pupil.locator("#form-error").inner_text()
        assert "is taken (reserved with a token)" in refused and "give it too" in refused
        # A wrong token: a clear error, on a phone too.
        await pupil.set_viewport_size(PHONE)
        await pupil.fill("#claim-token", tokens["ben"])
        await pupil.fill("#password", "correct horse battery")
        await pupil.click("form.account button[type=submit]")
        wrong = await pupil.locator("#form-error").inner_text()
        assert wrong.startswith("That is not the token of ada"), wrong
        assert await pupil.locator("#claim-token").input_value() == ""
        await _fits(pupil)
        await pupil.screenshot(path=screenshot_path("entry-list-claim-wrong-390"), full_page=True)
        # The right token: signed in as ada, back at the tournament.
        await pupil.fill("#claim-token", tokens["ada"])
        await pupil.fill("#password", "correct horse battery")
        await pupil.screenshot(path=screenshot_path("entry-list-claim-390"), full_page=True)
        await pupil.click("form.account button[type=submit]")
        await pupil.wait_for_url(f"{url}/tournaments/{tid}")
        assert await pupil.locator("#signed-in").inner_text() == "ada"
        assert "You are entered as ada." in await pupil.locator("#you-are-entered").inner_text()
        await _fits(pupil)
        await pupil.screenshot(path=screenshot_path("entry-list-entered-390"), full_page=True)
        await pupil.set_viewport_size(DESKTOP)

        # The token still proves the name over the wire (the pupil's bot), the password too.
        assert await tcp_login(onitama.port, f"LOGIN|ada|{tokens['ada']}") == "LOGIN_OK|ada"
        assert hall.identity.proves("ada", tokens["ada"])
        assert (await tcp_login(onitama.port, "LOGIN|ada")).startswith("LOGIN_FAILED|")

        await pupil.click("#join")
        await pupil.wait_for_url("**/play/onitama*")
        await pupil.wait_for_selector("#tournament-seat[data-kind=entry]")
        assert "You are entered" in await pupil.locator("#tournament-message").inner_text()
        await pupil.screenshot(path=screenshot_path("entry-list-waiting-1280"))

        # The teacher's page shows ada waiting, entered as a person from the entry list.
        await teacher.reload()
        await teacher.wait_for_function(
            "() => document.getElementById('waiting').textContent.includes('ada')"
        )
        entrants = await teacher.locator("ul.entrants").inner_text()
        assert "ada person: on the entry list" in entrants, entrants
        tour = store.get(tid)
        assert tour is not None
        assert [(x.name, x.kind) for x in tour.entrants] == [("ada", "person"), ("ben", "bot")]

        # Withdrawing ben is asked once more, naming ben; "No" keeps ben.
        await teacher.click("#admin summary")
        await teacher.fill("#admin-token-input", admin)
        await teacher.fill("#admin-withdraw-name", "ben")
        await teacher.click("#admin-withdraw")
        ask = teacher.locator("#admin-withdraw-confirm")
        await ask.wait_for()
        assert "Withdraw ben from the tournament?" in await ask.inner_text()
        await teacher.screenshot(path=screenshot_path("entry-list-withdraw-ask-1280"))
        await teacher.click("#admin-withdraw-no")
        assert await ask.is_hidden()
        tour = store.get(tid)
        assert tour is not None and [x.name for x in tour.entrants] == ["ada", "ben"]
        await teacher.set_viewport_size(PHONE)
        await teacher.click("#admin-withdraw")
        await ask.wait_for()
        await _fits(teacher)
        await teacher.screenshot(
            path=screenshot_path("entry-list-withdraw-ask-390"), full_page=True
        )
        await teacher.click("#admin-withdraw-yes")
        await teacher.wait_for_url(f"{url}/tournaments/{tid}")
        tour = store.get(tid)
        assert tour is not None and [x.name for x in tour.entrants] == ["ada"]
        entrants = await teacher.locator("ul.entrants").inner_text()
        assert "ben" not in entrants
        await context.close()
        assert browser.errors == []
