"""The headless Chromium of a browser test (the ``chromium`` and ``browser`` fixtures)."""

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
    """A headless Chromium launched on first use, with fresh contexts on demand (each its own
    cookies and storage) that are closed with it."""

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
