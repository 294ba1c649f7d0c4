from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.web.live import LiveSettings
from herna.web.plugin import WebHall


async def start_web(database_url: str, **live: float | int) -> tuple[Hall, WebHall]:
    hall = Hall(records=RecordStore(database_url))
    web = WebHall(hall, LiveSettings(**{"interval": 0.02, **live}))  # type: ignore[arg-type]
    await web.start("127.0.0.1", 0)
    hall.add(web)
    return hall, web


async def stop_web(hall: Hall) -> None:
    await hall.stop()
    hall.records.close()


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[WebHall]:
    """A web hall on a free port over an empty hall with a SQLite file database."""
    hall, web = await start_web(f"sqlite:///{tmp_path / 'web.db'}")
    yield web
    await stop_web(hall)


SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "web"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def screenshot_path(name: str) -> str:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return str(SHOTS / f"{name}.png")


class Browser:
    """One headless chromium page plus the JavaScript errors it reported."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on(
            "console",
            lambda msg: self.errors.append(f"console: {msg.text}") if msg.type == "error" else None,
        )


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        chromium = await p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        page = await chromium.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(10_000)
        try:
            yield Browser(page)
        finally:
            await chromium.close()
