"""The Onitama line protocol over WebSocket (``/ws/onitama``, real uvicorn and real sockets):
the same hub as the TCP server, one record per frame, the protocol's own errors."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from herna.games.onitama.cards import CARDS, card_index
from herna.web.guests import Guests
from tests.onitama.wire import Wire
from tests.web.play_helpers import PlayHall, play_hall


@asynccontextmanager
async def socket(h: PlayHall) -> AsyncIterator[ClientConnection]:
    async with connect(f"ws://127.0.0.1:{h.web.port}/ws/onitama") as ws:
        yield ws


async def recv(ws: ClientConnection, timeout: float = 5.0) -> str:
    return str(await asyncio.wait_for(ws.recv(), timeout))


async def test_a_websocket_player_and_a_tcp_player_share_a_table(tmp_path: Path) -> None:
    async with play_hall(tmp_path, house_bots=0) as h, socket(h) as ws:
        await ws.send("LOGIN|eva")
        assert await recv(ws) == "LOGIN_OK|eva"
        tcp = await Wire.open(h.onitama.port)
        try:
            assert await tcp.login("ota") == "LOGIN_OK|ota"
            start_ws, start_tcp = await recv(ws), await tcp.line()
            white = start_ws.split("|")[1]
            assert start_ws.split("|")[:4] == start_tcp.split("|")[:4]
            assert start_ws.split("|")[4] != start_tcp.split("|")[4]  # each its own secret
            # White moves its master forward with its first card (every card has a
            # forward step); a trailing newline is allowed
            card = start_ws.split("|")[3].split(",")[0]
            dx, dy = next(o for o in CARDS[card_index(card)].offsets if o[1] > 0)
            move = f"MAKE_MOVE|{card}|c1|{'abcde'[2 + dx]}{1 + dy}"
            if white == "eva":
                await ws.send(move + "\n")
            else:
                await tcp.send(move)
            made = "MOVE_WAS_MADE" + move[len("MAKE_MOVE") :]
            assert await recv(ws) == made
            assert await tcp.line() == made
            # a frame is one record whatever else it holds: no second command slips in
            await ws.send("LOGIN|a\nMAKE_MOVE|Ox|c1|c2")
            assert await recv(ws) == "ERROR|WRONG_FIELD_COUNT"
        finally:
            await tcp.close()


async def test_bad_frames_get_the_protocols_errors_and_too_many_close_1008(
    tmp_path: Path,
) -> None:
    async with play_hall(tmp_path, house_bots=0) as h, socket(h) as ws:
        await ws.send(b"\xff\xfe")
        assert await recv(ws) == "ERROR|NOT_UTF8"
        await ws.send("x" * 1025)
        assert await recv(ws) == "ERROR|LINE_TOO_LONG"
        await ws.send("MAKE_MOVE|Ox|c1|c2")
        assert await recv(ws) == "ERROR|NOT_LOGGED_IN"
        for _ in range(97):
            await ws.send("hello")
        for _ in range(97):
            assert await recv(ws) == "ERROR|UNKNOWN_COMMAND"
        assert await recv(ws) == "ERROR|TOO_MANY_ERRORS"
        with pytest.raises(ConnectionClosed) as closed:
            await recv(ws)
        # the WebSocket says why it was closed, in the protocol's terms
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1008
        assert closed.value.rcvd.reason.startswith("TOO_MANY_ERRORS")


async def test_a_seat_taken_over_is_closed_with_its_reason(tmp_path: Path) -> None:
    async with play_hall(tmp_path, house_bots=1) as h, socket(h) as old:
        await old.send("LOGIN|eva")
        assert await recv(old) == "LOGIN_OK|eva"
        secret = (await recv(old)).split("|")[4]
        async with socket(h) as new:
            await new.send(f"LOGIN|eva|{secret}")
            assert await recv(new) == "LOGIN_OK|eva"
            assert (await recv(new)).startswith("RECONNECT|eva|")
            seen = []
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    seen.append(await recv(old))
            assert "ERROR|SEAT_TAKEN_OVER" in seen
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert closed.value.rcvd.reason.startswith("SEAT_TAKEN_OVER")


async def test_without_the_onitama_server_the_socket_closes_4004(tmp_path: Path) -> None:
    async with play_hall(tmp_path, house_bots=0) as h:
        await h.onitama.stop()
        h.hall.services.remove(h.onitama)
        async with socket(h) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await recv(ws)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4004


def test_guest_names_and_the_session_key_kept_in_the_database(tmp_path: Path) -> None:
    from herna.hall.db import make_engine
    from herna.hall.people import hall_key

    name = Guests.new_name()
    assert re.fullmatch(r"guest-[a-z2-9]{8}", name) and name != Guests.new_name()
    one = make_engine(f"sqlite:///{tmp_path / 'one.db'}")
    # The same database gives the same key (sessions survive a restart); another, another.
    assert hall_key(one, "web-session") == hall_key(one, "web-session")
    assert hall_key(one, "web-session") != hall_key(
        make_engine(f"sqlite:///{tmp_path / 'two.db'}"), "web-session"
    )
    assert len(hall_key(one, "web-session")) >= 40


async def test_the_play_page_keeps_a_guest_name_and_replaces_a_forged_cookie(
    tmp_path: Path,
) -> None:
    import httpx

    def shown(text: str) -> str:
        found = re.search(r'id="play-name">([^<]+)<', text)
        assert found
        return found.group(1)

    async with play_hall(tmp_path, house_bots=0) as h, httpx.AsyncClient(base_url=h.url) as http:
        first = await http.get("/play/onitama")
        assert first.status_code == 200
        cookie = first.cookies["herna_session"]
        name = shown(first.text)
        again = await http.get("/play/onitama")
        assert shown(again.text) == name and "herna_session" not in again.cookies
        http.cookies.clear()
        http.cookies.set("herna_session", cookie[:-4] + "AAAA")  # a forged signature
        forged = await http.get("/play/onitama")
        assert shown(forged.text) != name
        assert forged.cookies["herna_session"] != cookie
        assert "httponly" in forged.headers["set-cookie"].lower()
