"""Conditional requests (issue 28): a page that has not changed answers ``304`` to the ETag
(or date) the browser has, one that has changed (a game finished, a table moved) answers
``200`` with what is new, and a page that depends on who is signed in never answers another
person's tag. Real HTTP against a served web hall on a SQLite file."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
from playwright.async_api import expect

from herna.web.plugin import WebHall
from tests.web.conftest import Browser, screenshot_path
from tests.web.helpers import play_mia_round, publish_mia_round
from tests.web.test_people import sign_up


def _save_round(web: WebHall, n: int, players: list[str]) -> int:
    """A Mia round played to its end and written to the record, as the Mia server does."""
    return web.hall.records.save(play_mia_round(n, players, seed=n))


async def _again(client: httpx.AsyncClient, path: str, etag: str) -> httpx.Response:
    return await client.get(path, headers={"if-none-match": etag})


async def test_home_is_not_sent_again_until_a_game_finishes(web: WebHall) -> None:
    _save_round(web, 1, ["alice", "bob"])
    async with httpx.AsyncClient(base_url=web.url) as client:
        first = await client.get("/")
        assert first.status_code == 200 and "alice" in first.text
        etag = first.headers["etag"]
        assert etag.startswith('W/"')
        assert first.headers["cache-control"] == "private, no-cache"
        same = await _again(client, "/", etag)
        assert same.status_code == 304 and same.content == b""
        assert same.headers["etag"] == etag and "Cookie" in same.headers["vary"]
        # A finished game is on the home page within a second (its results are shared).
        _save_round(web, 2, ["carol", "dana"])
        await asyncio.sleep(1.1)
        after = await _again(client, "/", etag)
        assert after.status_code == 200 and "carol" in after.text
        assert after.headers["etag"] != etag
        assert (await _again(client, "/", after.headers["etag"])).status_code == 304


async def test_record_pages_change_with_the_record(web: WebHall) -> None:
    _save_round(web, 1, ["alice", "bob"])
    async with httpx.AsyncClient(base_url=web.url) as client:
        for path in ("/history", "/history?game=mia", "/players/alice", "/players?game=mia"):
            first = await client.get(path)
            assert first.status_code == 200, path
            assert (await _again(client, path, first.headers["etag"])).status_code == 304, path
        tags = {p: (await client.get(p)).headers["etag"] for p in ("/history", "/players/alice")}
        _save_round(web, 2, ["alice", "erik"])
        for path, etag in tags.items():
            after = await _again(client, path, etag)
            assert after.status_code == 200 and "erik" in after.text, path
        # Another page's tag is not this page's.
        other = await _again(client, "/history?game=mia", tags["/history"])
        assert other.status_code == 200


async def test_a_recorded_game_answers_its_date(web: WebHall) -> None:
    match_id = _save_round(web, 1, ["alice", "bob"])
    await asyncio.sleep(1.1)  # a date is sent once its second is over (see conditional.py)
    async with httpx.AsyncClient(base_url=web.url) as client:
        page = await client.get(f"/matches/{match_id}")
        assert page.status_code == 200
        modified = page.headers["last-modified"]
        by_date = await client.get(f"/matches/{match_id}", headers={"if-modified-since": modified})
        assert by_date.status_code == 304
        # An older date, or a tag that is not the page's, gets the page.
        old = "Mon, 01 Jan 2024 00:00:00 GMT"
        older = await client.get(f"/matches/{match_id}", headers={"if-modified-since": old})
        assert older.status_code == 200 and "alice" in older.text
        stale = await client.get(
            f"/matches/{match_id}",
            headers={"if-none-match": 'W/"0000"', "if-modified-since": modified},
        )
        assert stale.status_code == 200  # If-None-Match decides when both are sent
        missing = await client.get("/matches/999", headers={"if-none-match": "*"})
        assert missing.status_code == 404


async def test_api_live_answers_304_until_a_table_moves(web: WebHall) -> None:
    scores: dict[str, int] = {}
    publish_mia_round(web.hall.bus, 1, ["alice", "bob"], scores)
    await asyncio.sleep(0.2)
    async with httpx.AsyncClient(base_url=web.url) as client:
        first = await client.get("/api/live")
        etag = first.headers["etag"]
        assert first.status_code == 200 and "alice" in first.text
        assert first.headers["cache-control"] == "no-cache"
        assert (await _again(client, "/api/live", etag)).status_code == 304
        # Filtered snapshots have their own tags.
        mia = await _again(client, "/api/live?game=mia", etag)
        assert mia.status_code == 200 and mia.headers["etag"] != etag
        # Once the last event is a second old, the date is sent and answers too.
        await asyncio.sleep(1.1)
        dated = await client.get("/api/live")
        modified = dated.headers["last-modified"]
        by_date = await client.get("/api/live", headers={"if-modified-since": modified})
        assert by_date.status_code == 304
        publish_mia_round(web.hall.bus, 2, ["carol", "bob"], scores)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            after = await _again(client, "/api/live", etag)
            if after.status_code == 200:
                break
            await asyncio.sleep(0.05)
        assert after.status_code == 200 and "carol" in after.text
        assert after.headers["etag"] != etag
        newer = await client.get("/api/live", headers={"if-modified-since": modified})
        assert newer.status_code == 200


async def test_a_signed_in_page_never_answers_another_persons_tag(web: WebHall) -> None:
    _save_round(web, 1, ["alice", "bob"])
    async with (
        httpx.AsyncClient(base_url=web.url) as anna,
        httpx.AsyncClient(base_url=web.url) as boris,
        httpx.AsyncClient(base_url=web.url) as guest,
    ):
        assert (await sign_up(anna, "anna", "a long password 1")).status_code == 303
        assert (await sign_up(boris, "boris", "a long password 2")).status_code == 303
        for path in ("/", "/history", "/players/alice", "/live"):
            mine = await anna.get(path)
            assert mine.status_code == 200 and "anna" in mine.text, path
            etag = mine.headers["etag"]
            assert mine.headers["cache-control"].startswith("private"), path
            assert (await _again(anna, path, etag)).status_code == 304, path
            theirs = await _again(boris, path, etag)
            assert theirs.status_code == 200 and "boris" in theirs.text, path
            assert "anna" not in theirs.text.split("</header>")[0], path
            strangers = await _again(guest, path, etag)
            assert strangers.status_code == 200, path
        # The same person in another language is another page.
        etag = (await anna.get("/")).headers["etag"]
        czech = await anna.get("/", headers={"if-none-match": etag, "accept-language": "cs"})
        assert czech.status_code == 200 and czech.headers["content-language"] == "cs"


async def test_anyones_page_is_rendered_once_per_change_and_never_a_persons(
    web: WebHall,
) -> None:
    """Fifty people loading the home page cost one render (issue 28): a visitor who is not
    signed in gets the kept copy until what it shows changes; Czech and English are kept
    apart; a signed-in person's page is theirs alone, never kept nor served to another."""
    _save_round(web, 1, ["alice", "bob"])
    kept = web.web.kept
    async with (
        httpx.AsyncClient(base_url=web.url) as first,
        httpx.AsyncClient(base_url=web.url) as second,
        httpx.AsyncClient(base_url=web.url) as anna,
        httpx.AsyncClient(base_url=web.url) as boris,
    ):
        english = [await c.get("/") for c in (first, second, first)]
        assert {r.status_code for r in english} == {200}
        assert len({r.text for r in english}) == 1 and "alice" in english[0].text
        assert kept.rendered == 1
        czech = await second.get("/", headers={"accept-language": "cs"})
        assert czech.headers["content-language"] == "cs" and "Poslední výsledky" in czech.text
        assert "Recent results" not in czech.text and kept.rendered == 2
        again = await first.get("/")
        assert "Recent results" in again.text and kept.rendered == 2
        # A finished game is on the kept page within a second, as on a rendered one.
        _save_round(web, 2, ["carol", "dana"])
        await asyncio.sleep(1.1)
        after = await second.get("/")
        assert "carol" in after.text and after.headers["etag"] != english[0].headers["etag"]
        assert kept.rendered == 3
        # Signed in: rendered for the person each time, and nobody else gets their page.
        assert (await sign_up(anna, "anna", "a long password 1")).status_code == 303
        assert (await sign_up(boris, "boris", "a long password 2")).status_code == 303
        hers = await anna.get("/")
        assert "anna" in hers.text.split("</header>")[0]
        for other, name in ((boris, "boris"), (first, None)):
            header = (await other.get("/")).text.split("</header>")[0]
            assert "anna" not in header
            assert name is None or name in header
        rendered = kept.rendered
        assert "anna" in (await anna.get("/")).text.split("</header>")[0]
        assert kept.rendered == rendered + 1


@pytest.mark.browser
async def test_a_browser_gets_its_copy_then_what_is_new(web: WebHall, browser: Browser) -> None:
    """Chromium as a person uses it: the menu's Home again is the browser's copy (the server
    answers 304); after a game finishes, or once the person signs in, it is the new page."""
    _save_round(web, 1, ["alice", "bob"])
    page = browser.page
    # (the tag the browser asked with, the tag it got) of each visit to the home page: the
    # same tag back is the server's 304 (Playwright reports the cached page's 200 then).
    homes: list[tuple[str | None, str | None]] = []

    async def seen(r: Any) -> None:
        if r.url == web.url + "/":
            asked = (await r.request.all_headers()).get("if-none-match")
            homes.append((asked, (await r.all_headers()).get("etag")))

    page.on("response", seen)
    for width, height in ((1280, 800), (390, 844)):
        await page.set_viewport_size({"width": width, "height": height})
        await page.goto(web.url + "/")
        await page.get_by_role("link", name="History", exact=True).click()
        await page.wait_for_url("**/history")
        homes.clear()
        await page.locator("header a.brand").click()
        await page.wait_for_url(web.url + "/")
        await expect(page.locator("#recent")).to_contain_text("alice")
        assert len(homes) == 1 and homes[0][0] is not None
        assert homes[0][0] == homes[0][1]  # nothing changed: the browser showed its own copy
        await page.screenshot(path=screenshot_path(f"conditional-home-{width}"), full_page=True)
    # A game finishes: the next visit shows it.
    _save_round(web, 2, ["carol", "dana"])
    await asyncio.sleep(1.1)
    await page.get_by_role("link", name="History", exact=True).click()
    await page.wait_for_url("**/history")
    homes.clear()
    await page.locator("header a.brand").click()
    await expect(page.locator("#recent")).to_contain_text("carol")
    assert len(homes) == 1 and homes[0][0] is not None and homes[0][0] != homes[0][1]
    # Signing in changes the header of every page, the cached ones too.
    await page.locator("header").get_by_role("link", name="Sign in").click()
    await page.locator("main").get_by_role("link", name="Sign up").click()
    await page.fill("#name", "zdena")
    await page.fill("#password", "a long password 3")
    await page.locator("main form button[type=submit]").click()
    await page.locator("header a.brand").click()
    await expect(page.locator(".account-box")).to_contain_text("zdena")
    await page.get_by_role("link", name="History", exact=True).click()
    await expect(page.locator(".account-box")).to_contain_text("zdena")
    await page.screenshot(path=screenshot_path("conditional-signed-in-390"), full_page=True)
    await page.get_by_role("button", name="Sign out").click()
    await page.locator("header a.brand").click()
    await expect(page.locator(".account-box")).not_to_contain_text("zdena")
    assert browser.errors == []
