"""The headless Chromium of a browser test (the ``chromium`` and ``browser`` fixtures).

One Chromium process and one Playwright driver per test process, started when a test first
asks for them and reused by every test after it (launching a Chromium costs a browser test
about a second of CPU, starting the driver most of another). The tests of a process share one
event loop (pyproject.toml), which the driver is bound to; what a test leaves running is
cancelled when it ends (tests/conftest.py). Each test gets fresh browser contexts (their own
cookies, storage and cache) that are closed with it: nothing of one test reaches the next. A
Chromium that died is started again."""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
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
# What Playwright's own headless launch adds and the tests rely on: pages of a second person
# (a context in the background) run their timers and sockets at full speed, pop-ups open, the
# back button loads the page again (no back-forward cache), scrollbars take no width (as on a
# phone: a 390 px page is 390 px wide), a mouse that hovers.
SHARED_ARGS = [
    "--headless",
    "--hide-scrollbars",
    "--mute-audio",
    "--blink-settings=primaryHoverType=2,availableHoverTypes=2,"
    "primaryPointerType=4,availablePointerTypes=4",
    "--remote-debugging-port=0",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
    "--disable-ipc-flooding-protection",
    "--disable-hang-monitor",
    "--disable-popup-blocking",
    "--disable-prompt-on-repost",
    "--disable-back-forward-cache",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--disable-default-apps",
    "--disable-field-trial-config",
    "--no-default-browser-check",
    "--no-service-autorun",
    "--password-store=basic",
    "--use-mock-keychain",
    "--force-color-profile=srgb",
    "--metrics-recording-only",
    "--allow-pre-commit-input",
    "--disable-search-engine-choice-screen",
    # Every window of headless Chromium preloads the omnibox's pop-up (a WebUI renderer that
    # nobody sees): a third of the CPU of a test's Chromium, measured with three contexts
    # idling 4 s each (9.1 CPU-s without this, 6.2 s with it).
    "--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup",
]


class _Process:
    """This test process's Chromium: its DevTools address, started on first use."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.profile: str | None = None
        self.url: str | None = None

    def endpoint(self) -> str:
        if self.proc is not None and self.proc.poll() is None and self.url is not None:
            return self.url
        self.stop()
        self.profile = tempfile.mkdtemp(prefix="herna-chromium-")
        self.proc = subprocess.Popen(
            [
                CHROMIUM,
                *CHROMIUM_ARGS,
                *SHARED_ARGS,
                f"--user-data-dir={self.profile}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: stop() ends every helper of it
        )
        # Chromium writes the port it chose (and the browser's path) to this file.
        active = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while True:
            lines = active.read_text().split() if active.exists() else []
            if len(lines) >= 2:
                self.url = f"http://127.0.0.1:{lines[0]}"
                return self.url
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Chromium did not start (exit {self.proc.poll()})")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = self.url = None
        if self.profile is not None:
            shutil.rmtree(self.profile, ignore_errors=True)
            self.profile = None


_PROCESS = _Process()
atexit.register(_PROCESS.stop)


class Chromium:
    """This process's connection to its headless Chromium, made on first use, with fresh
    contexts on demand (each its own cookies and storage) that are closed after use."""

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
        try:
            self._browser = await self._playwright.chromium.connect_over_cdp(_PROCESS.endpoint())
        except Exception:
            _PROCESS.stop()  # gone or wedged: a new one
            self._browser = await self._playwright.chromium.connect_over_cdp(_PROCESS.endpoint())
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
            # Every context made over this connection goes (the Chromium's own stays); then
            # the connection is closed, not the Chromium.
            for context in self._browser.contexts[1:]:
                with contextlib.suppress(Exception):
                    await context.close()
            await self._browser.close()
        if self._manager is not None:
            await self._manager.__aexit__(None, None, None)
