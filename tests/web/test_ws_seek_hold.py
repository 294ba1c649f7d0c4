"""A play page's socket that goes while its player waits for a game is held for the seek grace
(``/ws/onitama?page=ID``) and given back to ``?resume=ID`` with every line since the wait
began; a page that leaves on purpose (close 1000), a socket without ``page`` and a wait longer
than the grace end the seek as before; nothing held answers close 4010 (real uvicorn)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from herna.hall.lobby import Lobby
from tests.web.play_helpers import PlayHall, play_hall

SEEK = "person,opponent=people,once"


def url(h: PlayHall, query: str = "") -> str:
    return f"ws://127.0.0.1:{h.web.port}/ws/onitama" + (f"?{query}" if query else "")


async def recv(ws: ClientConnection, timeout: float = 5.0) -> str:
    return str(await asyncio.wait_for(ws.recv(), timeout))


def owners(lobby: Lobby) -> list[str]:
    return [s["owner"] for s in lobby.snapshot("onitama")]


async def wait_for(check: object, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline, "not in time"
        await asyncio.sleep(0.02)


async def drop(ws: ClientConnection) -> None:
    """The connection breaks as a page's does on a reload (close 1001, going away)."""
    await ws.close(code=1001)


async def test_a_waiting_page_socket_is_held_and_resumed(tmp_path: Path) -> None:
    async with play_hall(tmp_path, house_bots=0) as h:
        h.web.web.onitama_socket.settings.seek_grace = 1.0
        lobby = h.hall.lobby
        ws = await connect(url(h, "page=tab1"))
        await ws.send(f"LOGIN|eva|-|{SEEK}")
        assert await recv(ws) == "LOGIN_OK|eva"
        seek = await recv(ws)
        assert seek.startswith("SEEK|")
        await drop(ws)
        await asyncio.sleep(0.3)
        assert owners(lobby) == ["eva"]  # held: the seek stays
        # the page comes back: the same connection, the lines since the wait began
        ws = await connect(url(h, "resume=tab1"))
        assert await recv(ws) == "LOGIN_OK|eva"
        assert await recv(ws) == seek
        await asyncio.sleep(1.3)
        assert owners(lobby) == ["eva"]  # resumed: no grace runs any more
        # a game starts while the page is away: the page that comes back gets START
        await drop(ws)
        other = await connect(url(h))
        await other.send(f"LOGIN|ida|-|{SEEK}")
        assert await recv(other) == "LOGIN_OK|ida"
        start = await recv(other)
        while not start.startswith("START|"):
            start = await recv(other)
        ws = await connect(url(h, "resume=tab1"))
        lines = [await recv(ws) for _ in range(3)]
        assert lines[:2] == ["LOGIN_OK|eva", seek]
        assert lines[2].split("|")[:3] == start.split("|")[:3]
        await ws.close()
        await other.close()
        assert h.web.web.onitama_socket.stats()["resumed"] == 2


async def test_what_is_not_held(tmp_path: Path) -> None:
    async with play_hall(tmp_path, house_bots=0) as h:
        h.web.web.onitama_socket.settings.seek_grace = 1.0
        lobby = h.hall.lobby
        # nothing to resume: close 4010 at once
        async with connect(url(h, "resume=nobody")) as ws:
            try:
                await recv(ws)
                raise AssertionError("not closed")
            except ConnectionClosed as exc:
                assert exc.rcvd is not None and exc.rcvd.code == 4010
        # a page that leaves on purpose (Cancel): the seek ends at once
        ws = await connect(url(h, "page=tab2"))
        await ws.send(f"LOGIN|eva|-|{SEEK}")
        await recv(ws)
        await recv(ws)
        await ws.close(code=1000)
        await wait_for(lambda: owners(lobby) == [], timeout=0.8)
        # a socket without page (any other client): not held
        ws = await connect(url(h))
        await ws.send(f"LOGIN|ota|-|{SEEK}")
        await recv(ws)
        await drop(ws)
        await wait_for(lambda: owners(lobby) == [], timeout=0.8)
        # a page away longer than the grace: the seek ends after it
        ws = await connect(url(h, "page=tab3"))
        await ws.send(f"LOGIN|ann|-|{SEEK}")
        await recv(ws)
        await drop(ws)
        await asyncio.sleep(0.5)
        assert owners(lobby) == ["ann"]
        await wait_for(lambda: owners(lobby) == [], timeout=3.0)
        assert h.web.web.onitama_socket.held == {}


async def test_a_page_back_before_its_old_socket_closed_gets_it(tmp_path: Path) -> None:
    """A busy machine may open a reloaded page's socket before the server has read the old
    one's close: the page waits for it (at most ``RESUME_WAIT``) instead of being told that
    its seek ended."""
    async with play_hall(tmp_path, house_bots=0) as h:
        h.web.web.onitama_socket.settings.seek_grace = 2.0
        ws = await connect(url(h, "page=tab4"))
        await ws.send(f"LOGIN|eva|-|{SEEK}")
        assert await recv(ws) == "LOGIN_OK|eva"
        seek = await recv(ws)
        back = await connect(url(h, "resume=tab4"))
        first = asyncio.ensure_future(recv(back))
        await asyncio.sleep(0.5)  # the new socket waits (not closed 4010): the old one is open
        assert not first.done()
        await drop(ws)
        ws = back
        assert [await first, await recv(ws)] == ["LOGIN_OK|eva", seek]
        assert owners(h.hall.lobby) == ["eva"]
        await ws.close()
        assert h.web.web.onitama_socket.stats()["resumed"] == 1
