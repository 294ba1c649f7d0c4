"""The headless Chromium the browser tests share (one per test process)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class Chromium:
    """One headless Chromium per test process, launched on first use and shared by its tests.

    Starting Playwright's driver and a browser costs about 2 CPU-seconds; with some 150 browser
    tests on two cores that was minutes of CI. Each test still gets fresh contexts (cookies,
    storage), and every context a test opened is closed after it. A browser that died is
    launched again for the next test."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._manager: Any = None
        self._browser: Any = None

    async def get(self) -> Any:
        from playwright.async_api import async_playwright

        if self._browser is not None and self._browser.is_connected():
            return self._browser
        if self._manager is None:
            self._manager = async_playwright()
            self._playwright = await self._manager.start()
        self._browser = await self._playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        return self._browser

    @contextlib.asynccontextmanager
    async def context(self, **options: Any) -> AsyncIterator[Any]:
        """A fresh browser context (its own cookies and storage), closed afterwards."""
        context = await (await self.get()).new_context(**options)
        try:
            yield context
        finally:
            with contextlib.suppress(Exception):
                await context.close()

    async def close(self) -> None:
        if self._browser is not None and self._browser.is_connected():
            await self._browser.close()
        if self._manager is not None:
            await self._manager.__aexit__(None, None, None)
