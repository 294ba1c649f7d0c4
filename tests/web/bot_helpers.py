"""Shared steps of the submitted-bot browser tests: signing up from the home page, and the
Onitama starter kit's source."""

from __future__ import annotations

from typing import Any

from herna.starters import starter


def starter_source() -> bytes:
    found = starter("onitama", "python")
    assert found is not None
    return found[1]


async def sign_up_from_home(page: Any, home: str, name: str) -> None:
    """Open the home page and sign up as ``name`` by clicking, as a person does."""
    await page.goto(home + "/")
    await page.get_by_role("link", name="Sign in", exact=True).click()
    await page.get_by_role("link", name="Sign up", exact=True).click()
    await page.get_by_label("Name", exact=True).fill(name)
    await page.get_by_label("Password", exact=True).fill("a long password")
    await page.get_by_role("button", name="Sign up").click()


async def fits(page: Any) -> None:
    """Nothing sticks out sideways at this width."""
    wide = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], wide
