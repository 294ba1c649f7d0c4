"""A connection to the web hall that never completes its first request gets ``408`` and is
closed, so silent or trickling clients cannot use up the descriptors all servers share;
requests, keep-alive and WebSockets are not affected."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.web.live import LiveSettings
from herna.web.plugin import WebHall

TIMEOUT = 0.3


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[WebHall]:
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'web.db'}"))
    web = WebHall(hall, LiveSettings(interval=0.02), request_timeout=TIMEOUT)
    await web.start("127.0.0.1", 0)
    hall.add(web)
    yield web
    await hall.stop()
    hall.records.close()


async def answer(web: WebHall, sent: bytes) -> tuple[bytes, float]:
    """Send ``sent`` and read until the server closes: (everything read, seconds it took)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", web.port)
    start = time.perf_counter()
    writer.write(sent)
    data = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    return data, time.perf_counter() - start


@pytest.mark.parametrize("sent", [b"", b"GET / HTTP/1.1\r\nHo"], ids=["silent", "trickling"])
async def test_an_unfinished_first_request_gets_408_and_is_closed(
    web: WebHall, sent: bytes
) -> None:
    data, took = await answer(web, sent)
    assert data.startswith(b"HTTP/1.1 408 Request Timeout")
    assert TIMEOUT * 0.8 <= took < 3


async def test_requests_keep_alive_and_websockets_are_untouched(web: WebHall) -> None:
    async with httpx.AsyncClient(base_url=web.url) as http:
        assert (await http.get("/")).status_code == 200
        await asyncio.sleep(TIMEOUT * 2)
        assert (await http.get("/api/games")).status_code == 200  # the same connection
    async with connect(f"ws://127.0.0.1:{web.port}/ws/live") as ws:
        await asyncio.sleep(TIMEOUT * 2)
        await ws.ping()
        assert (await asyncio.wait_for(ws.recv(), 5)) is not None
