"""The web hall pings its WebSockets (``--web-ping``): a page whose network went silent (it
neither answers nor closes, as a sleeping laptop) is dropped within the ping timeout, and a
mariáš seek it waited with then ends after the seek grace; a living client stays."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import struct
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

from herna.servers.cgml import CgmlService
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.play_helpers import eventually

PING = 0.4


async def silent_socket(port: int, path: str, cookie: str = "") -> asyncio.StreamWriter:
    """A WebSocket opened by hand that reads the handshake's answer and nothing after it:
    the server's pings are never answered and nothing is ever closed."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n"
            + (f"Cookie: {cookie}\r\n" if cookie else "")
            + "\r\n"
        ).encode()
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    assert head.startswith(b"HTTP/1.1 101"), head
    return writer


def text_frame(payload: dict[str, object]) -> bytes:
    """One masked text frame, as a browser sends it."""
    data = json.dumps(payload).encode()
    mask = os.urandom(4)
    assert len(data) < 126
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    return struct.pack("!BB", 0x81, 0x80 | len(data)) + mask + masked


async def test_a_socket_that_stops_answering_pings_is_dropped(tmp_path: Path) -> None:
    async with serving(tmp_path, "web", web_ping=PING) as hall:
        web = hall.service("web")
        assert isinstance(web, WebHall)
        lobby = web.web.lobby.socket
        # a living client answers the pings (its library does, as browsers do) and stays
        async with connect(f"ws://127.0.0.1:{web.port}/ws/lobby") as alive:
            hello = json.loads(await alive.recv())
            assert hello["type"] == "hello"
            writer = await silent_socket(web.port, "/ws/lobby")
            await eventually(lambda: lobby.open == 2)
            start = time.perf_counter()
            await eventually(lambda: lobby.open == 1, timeout=5)
            took = time.perf_counter() - start
            assert took < 2 * PING + 1.0, took
            await asyncio.sleep(4 * PING)
            assert lobby.open == 1  # the living one
            await alive.send(json.dumps({"type": "cancel", "seek": "s1"}))
            answer = json.loads(await asyncio.wait_for(alive.recv(), 5))
            assert answer["code"] == "NO_NAME"  # still served
            writer.close()


async def test_a_mariáš_seek_of_a_page_gone_silent_ends(tmp_path: Path) -> None:
    options = {
        "web_ping": PING,
        "web_seek_grace": 0.5,
        "cgml_bot_delay": 0.0,
        "cgml_house_tables": 0,
    }
    async with serving(tmp_path, "marias,web", **options) as hall:  # type: ignore[arg-type]
        web = hall.service("web")
        service = hall.service("marias")
        assert isinstance(web, WebHall) and isinstance(service, CgmlService)
        snap = service.login.lobby.snapshot
        await eventually(lambda: bool(snap()["game_servers"]), 10)
        async with httpx.AsyncClient(base_url=web.url) as http:
            page = await http.get("/play/marias")
            name = re.search(r'id="play-name">([^<]+)<', page.text)
            assert name is not None
            cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        writer = await silent_socket(web.port, "/ws/marias", cookie)
        sit = {"type": "sit", "name": name.group(1), "seek": "person,opponent=people"}
        writer.write(text_frame(sit))
        await writer.drain()
        await eventually(lambda: bool(hall.lobby.snapshot("marias")), 10)
        [seek] = hall.lobby.snapshot("marias")
        assert seek["owner"] == name.group(1)
        # no close ever comes: the ping timeout notices, then the seek grace runs out
        await eventually(lambda: hall.lobby.snapshot("marias") == [], timeout=2 * PING + 0.5 + 2)
        writer.close()
