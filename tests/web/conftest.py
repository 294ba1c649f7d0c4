from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.web.i18n import CURRENT_LOCALE, compile_catalogs
from herna.web.live import LiveSettings
from herna.web.plugin import WebHall
from tests.chromium import Chromium


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
def czech() -> Iterator[None]:
    """The page's language is Czech (for calling the web layer's words without a request)."""
    compile_catalogs()
    token = CURRENT_LOCALE.set("cs")
    yield
    CURRENT_LOCALE.reset(token)


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[WebHall]:
    """A web hall on a free port over an empty hall with a SQLite file database."""
    hall, web = await start_web(f"sqlite:///{tmp_path / 'web.db'}")
    yield web
    await stop_web(hall)


SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "web"


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
async def browser(chromium: Chromium) -> AsyncIterator[Browser]:
    shared = await chromium.get()
    before = set(shared.contexts)
    page = await shared.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(10_000)
    try:
        yield Browser(page)
    finally:
        # Whatever the test opened (second people, tabs) goes with it, so no page of a
        # finished test keeps polling a server that is gone.
        for context in list(shared.contexts):
            if context not in before:
                with contextlib.suppress(Exception):
                    await context.close()
