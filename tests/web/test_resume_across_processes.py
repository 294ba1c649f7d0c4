"""A browser resumes on another live process (issue 16, item 3): several web halls behind one
address, fed by PostgreSQL's LISTEN/NOTIFY.

Real processes, real sockets, a real PostgreSQL server, real Chromium. Process A is
``herna serve --only marias,web`` (house bots deal again and again at one table); web hall B
is a second Herna on the same database, serving only the web hall, started in the test so
that the test can read its live hub. The browser reaches both through one address: a TCP
forwarder that sends new connections to A, then to B (as a load balancer does when a live
process goes away). The watch page loses ``/ws/live`` while it is on A, the events go on, and
the page reconnects — to B — with what it has. Because the table's events are numbered by
the process that hosts the table and keep their numbers over the bridge, B resumes it: its
first frame lists exactly the events after the page's newest one, and the page's log runs on
without a gap, a double or a reload.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.postgres import fresh_database
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path
from tests.web.test_resume_browser import (
    CONNECTS,
    CUT,
    NOT_RELOADED,
    _check_log,
    _first_after_reconnect,
    _page_log,
    _until,
    _web,
    open_watch_page,
)

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"


class Forwarder:
    """One address in front of several web halls: every new TCP connection goes to
    :attr:`target` (connections already open stay where they are)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = 0
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, HOST, 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(HOST, self.target)
        except OSError:
            writer.close()
            return
        for src, dst in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(src, dst))
            self._pipes.add(task)
            task.add_done_callback(self._pipes.discard)

    @staticmethod
    async def _pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        try:
            with contextlib.suppress(ConnectionError, OSError):  # either side went away
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
        finally:
            dst.close()

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._pipes):
            task.cancel()
        for task in list(self._pipes):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


async def _live_tables(port: int) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=5) as http:
        tables: list[dict[str, Any]] = (await http.get("/api/live?game=marias")).json()
        return tables


async def test_a_watch_page_resumes_on_another_live_process(
    postgres_url: str, tmp_path: Path, browser: Browser
) -> None:
    db = fresh_database(postgres_url)
    port_a = _free_port()
    log_a = tmp_path / "a.log"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with log_a.open("wb") as out:
        a = subprocess.Popen(
            [sys.executable, "-m", "herna.cli", "serve", "--only", "marias,web",
             "--database-url", db, "--web-port", str(port_a), "--web-interval", "0.05",
             "--cgml-bot-delay", "0.08", "--cgml-login-port", str(_free_port()),
             "--cgml-login-server-port", str(_free_port()),
             "--cgml-game-port", str(_free_port())],
            cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    forwarder = Forwarder(port_a)
    try:
        deadline = time.monotonic() + 60
        tables: list[dict[str, Any]] = []
        while not tables:
            assert a.poll() is None, log_a.read_text()[-3000:]
            assert time.monotonic() < deadline, log_a.read_text()[-3000:]
            with contextlib.suppress(httpx.HTTPError):
                tables = await _live_tables(port_a)
            await asyncio.sleep(0.2)
        address = str(tables[0]["table"])
        async with serving(tmp_path, "web", database_url=db, web_interval=0.05) as hall_b:
            web_b = _web(hall_b)
            # B sees A's table over the bridge, by A's numbers.
            await _until(lambda: ("marias", address) in web_b.hub.tables, 30)
            table_b = web_b.hub.tables[("marias", address)]
            await forwarder.start()

            page = browser.page
            url = f"http://{HOST}:{forwarder.port}/live/marias/{address}"
            received = await open_watch_page(page, url)
            first_a = json.loads(received[0])
            assert first_a["type"] == "snapshot"
            stream = first_a["tables"][0]["stream"]
            assert stream == table_b.stream  # one numbering, whichever process shows it

            # The page loses its socket on A; the address now leads to B; events go on.
            await page.evaluate(CUT, "/ws/live")
            # A frame already on its way when the socket was cut still arrives and is drawn a
            # moment later: read what the page has once the socket is closed and drawn.
            await page.wait_for_function(
                "() => window.__sockets.filter((w) => w.url.includes('/ws/live'))"
                ".every((w) => w.readyState === WebSocket.CLOSED)"
            )
            await page.evaluate("() => new Promise((done) => setTimeout(done, 100))")
            before = await _page_log(page)
            had = before[-1][0]
            forwarder.target = web_b.port
            await _until(lambda: table_b.flushed >= had + 3, 30)
            await page.evaluate("() => { window.__offline = false; }")
            await page.wait_for_function(CONNECTS.format(2), timeout=20_000)

            first_b = _first_after_reconnect(received, 2)
            assert first_b["type"] == "resume"
            [part] = first_b["tables"]
            assert (part["mode"], part["stream"]) == ("resume", stream)
            versions = [e["v"] for e in part["events"]]
            assert versions == list(range(had + 1, part["version"] + 1))  # exactly the missed
            log = await _check_log(page, table_b)
            assert log[0][0] <= had < log[-1][0]  # one list across the move
            meta = await page.locator("section.table .meta").inner_text()
            assert "events not listed" not in meta
            assert await page.evaluate(NOT_RELOADED)
            await page.screenshot(path=screenshot_path("resume-other-process"), full_page=True)
            errors = [e for e in browser.errors if "/ws-offline/" not in e]
            assert errors == []
    finally:
        await forwarder.stop()
        a.send_signal(signal.SIGTERM)
        try:
            a.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(a.pid, signal.SIGKILL)
    assert "Traceback" not in log_a.read_text()
