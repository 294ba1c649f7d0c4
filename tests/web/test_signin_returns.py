"""A newcomer signs up from whatever page they are on and lands back on it: the header's
*Sign in* carries the page along, and so does the sign-in page's *Sign up* link (and the way
back). Before, both dropped it and every sign-up ended on the home page, far from the
tournament or bot the person had come to enter. Real Chromium over a web hall."""

from __future__ import annotations

from typing import Any

import pytest

from herna.web.plugin import WebHall
from tests.web.conftest import Browser

pytestmark = pytest.mark.browser


async def fill_in(page: Any, button: str) -> None:
    await page.get_by_label("Name", exact=True).fill("newcomer")
    await page.get_by_label("Password", exact=True).fill("a-long-password")
    await page.locator("main").get_by_role("button", name=button).click()


async def test_signing_up_from_the_header_comes_back_to_the_page(
    web: WebHall, browser: Browser
) -> None:
    page = browser.page
    await page.goto(web.url + "/")
    await page.locator("header nav").get_by_role("link", name="History").click()
    await page.wait_for_url("**/history")
    # the header's Sign in, then "No account? Sign up" on the sign-in page
    await page.locator("header").get_by_role("link", name="Sign in").click()
    await page.wait_for_url("**/signin?next=%2Fhistory")
    await page.locator("main").get_by_role("link", name="Sign up").click()
    await page.wait_for_url("**/signup?next=%2Fhistory")
    # and "Already signed up? Sign in" leads back with it too
    await page.locator("main").get_by_role("link", name="Sign in").click()
    await page.wait_for_url("**/signin?next=%2Fhistory")
    await page.locator("main").get_by_role("link", name="Sign up").click()
    await fill_in(page, "Sign up")
    await page.wait_for_url("**/history")
    assert "Signed in as" in await page.locator("header").inner_text()

    # signed out, on the tournaments' list: signing in brings the person back there
    await page.locator("header").get_by_role("button", name="Sign out").click()
    await page.locator("header").get_by_role("link", name="Sign in").wait_for()
    await page.locator("header nav").get_by_role("link", name="Tournaments").click()
    await page.wait_for_url("**/tournaments")
    await page.locator("header").get_by_role("link", name="Sign in").click()
    await fill_in(page, "Sign in")
    await page.wait_for_url("**/tournaments")
    assert browser.errors == []
