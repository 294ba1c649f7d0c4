"""The tile protocol over WebSocket: the web hall's ``/ws/tiles`` (real uvicorn on 127.0.0.1,
ephemeral ports) feeding the same hub as the TCP server, with real ``websockets`` clients."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from herna.cli import main
from herna.cli.tiles import play_online
from herna.clients.tiles import TilesClient, run_bot
from herna.core.errors import ProtocolError
from herna.games.tiles.rules import shipped_rules
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.protocols.tiles import MAX_BAD_MESSAGES, MAX_LINE_BYTES, ServerConnection
from herna.servers.tcp import Peer
from herna.servers.tiles import TilesService, TilesSettings, serve
from herna.web.live import LiveSettings
from herna.web.play import MAX_FRAME_BYTES, WebSocketPeer
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.tiles.helpers import race

FAST: dict[str, Any] = {"bot_delay": 0.0, "showcase": False, "lobby_wait": 0.0}


@asynccontextmanager
async def running(tmp_path: Path, **settings: Any) -> AsyncIterator[tuple[TilesService, WebHall]]:
    """A hall running the tile server (TCP) and the web hall (with ``/ws/tiles``)."""
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'tiles.db'}"))
    tiles = await serve(hall, port=0, settings=TilesSettings(**{**FAST, **settings}))
    hall.add(tiles)
    web = WebHall(hall, LiveSettings(interval=0.02))
    try:
        await web.start("127.0.0.1", 0)
        hall.add(web)
        yield tiles, web
    finally:
        await hall.stop()
        hall.records.close()


def ws_url(web: WebHall) -> str:
    return f"ws://127.0.0.1:{web.port}/ws/tiles"


async def recv_json(ws: ClientConnection, timeout: float = 5.0) -> dict[str, Any]:
    frame = await asyncio.wait_for(ws.recv(), timeout)
    assert isinstance(frame, str) and not frame.endswith("\n")
    message: dict[str, Any] = json.loads(frame)
    return message


async def closed(ws: ClientConnection, timeout: float = 5.0) -> tuple[int | None, str | None]:
    """Read until the server closes; its close code and reason."""
    with pytest.raises(ConnectionClosed):
        while True:
            await asyncio.wait_for(ws.recv(), timeout)
    return ws.close_code, ws.close_reason


def outcome(result: object) -> object:
    """A received message, or an error as comparable fields."""
    if isinstance(result, ProtocolError):
        return (result.code, result.reason, result.fatal, getattr(result, "request_id", None))
    return result


MESSAGES = [
    '{"type": "ping", "id": 1}',
    '{"type": "join", "name": "ann", "rules": "tsuro"}',
    '{"type": "act", "action": {"type": "move"}, "id": "a"}',
    '{"type": "fly"}',
    '{"type": "list", "id": true}',
    "[]",
    "   ",
    "",
]


def one_line(payload: str | bytes) -> bool:
    """TCP would split a payload with a newline into several lines."""
    if isinstance(payload, str):
        return "\n" not in payload
    return b"\n" not in payload


@pytest.mark.parametrize("payload", ["\x1f", "\u2003", b"\x1c", " \t", b"\r"])
def test_only_ascii_whitespace_makes_a_blank_frame(payload: str | bytes) -> None:
    """A frame is a keep-alive exactly when a TCP line with the same bytes is (str.strip()
    alone would also take 0x1C-0x1F and Unicode spaces for blank; hypothesis found it)."""
    data = payload.encode("utf-8") if isinstance(payload, str) else payload
    by_line = [outcome(m) for m in ServerConnection().receive_data(data + b"\n")]
    by_frame = ServerConnection().receive_frame(payload)
    assert ([] if by_frame is None else [outcome(by_frame)]) == by_line


@settings(deadline=None, max_examples=200)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(MESSAGES),
            st.text(max_size=40),
            st.binary(max_size=40),
            st.sampled_from(MESSAGES).map(lambda m: m.encode("utf-8")),
        ).filter(one_line),
        max_size=60,
    )
)
def test_a_frame_is_answered_as_a_tcp_line_with_the_same_bytes(
    payloads: list[str | bytes],
) -> None:
    """Frame by frame (text or binary), the same messages and errors as line by line over
    TCP, including the count of bad messages in a row that ends a connection."""
    frames, lines = ServerConnection(), ServerConnection()
    for payload in payloads:
        data = payload.encode("utf-8", "surrogatepass") if isinstance(payload, str) else payload
        by_line = [outcome(m) for m in lines.receive_data(data + b"\n")]
        by_frame = frames.receive_frame(payload)
        assert ([] if by_frame is None else [outcome(by_frame)]) == by_line
        assert frames.bad_in_a_row == lines.bad_in_a_row


def test_a_websocket_peer_queues_one_frame_per_message_and_drops_past_its_limit() -> None:
    ws_peer = WebSocketPeer("ws:test", write_limit=100)
    peer: Peer = ws_peer  # what the hub sees
    conn = ServerConnection()
    peer.send(conn.send({"type": "pong", "id": 1}) + conn.send({"type": "left"}))
    assert [text for text, _ in ws_peer.frames] == ['{"type":"pong","id":1}', '{"type":"left"}']
    assert ws_peer.queued == sum(size for _, size in ws_peer.frames) < 100
    assert ws_peer.close_reason == "" and not ws_peer.closing.is_set()
    peer.send(conn.send({"type": "pong", "id": "x" * 80}))
    assert ws_peer.dropped and not ws_peer.frames and ws_peer.queued == 0
    assert (ws_peer.close_code, ws_peer.close_reason) == (4001, "too slow")
    peer.send(conn.send({"type": "pong"}))  # after the drop: nothing more is queued
    peer.close()  # the first reason stays
    assert not ws_peer.frames and ws_peer.close_code == 4001
    other = WebSocketPeer("ws:other")
    other.close_with("BAD_JSON", "not JSON: " + "é" * 200)
    assert other.close_code == 1008 and len(other.close_reason.encode("utf-8")) <= 123


async def test_a_whole_game_between_websocket_bots_is_played_and_recorded(tmp_path: Path) -> None:
    async with running(tmp_path, max_rounds=12) as (tiles, web):
        assert tiles.endpoints() == [f"tcp://127.0.0.1:{tiles.port}", ws_url(web)]
        sub = tiles.hub.bus.subscribe(accept=lambda e: e.game == "tiles")
        seats = len(tiles.hub.shipped("labyrinth").players)  # type: ignore[union-attr]
        runs = await asyncio.gather(
            *[
                run_bot(ws_url(web), 0, f"ws{i}", "labyrinth", "random", seed=i, start=False)
                for i in range(seats)
            ]
        )
        results = [run.games[0]["result"] for run in runs]
        assert all(r == results[0] for r in results) and results[0]["reason"]
        assert all(not run.errors for run in runs)
        kinds = [e.kind for e in sub.drain()]
        assert kinds[0] == "game_started" and kinds[-1] == "game_over"
        assert kinds.count("action") == sum(run.actions for run in runs) > 0
        store = tiles.hub.records
        assert store is not None
        store.flush()
        (stored,) = store.matches(game="tiles")
        match = store.get(stored.id)
        assert match is not None and match.status == "finished"
        assert sorted(p.name for p in match.players) == [f"ws{i}" for i in range(seats)]
        assert {p.kind for p in match.players} == {"bot"}
        assert [p.name for p in match.players if p.winner] == results[0]["winner_names"]
        assert tiles.hub.snapshot()["connections"] == 0
        stats = web.web.tiles_socket.stats()
        assert stats == {
            "open": 0,
            "accepted": seats,
            "dropped": 0,
            "held": 0,
            "resumed": 0,
            "queued_bytes": 0,
        }


async def test_a_websocket_player_and_a_tcp_player_share_a_table(tmp_path: Path) -> None:
    async with running(tmp_path) as (tiles, web):
        ws_run, tcp_run = await asyncio.gather(
            run_bot(ws_url(web), 0, "over-ws", race(), "random", seed=1, start=False),
            run_bot("127.0.0.1", tiles.port, "over-tcp", race(), "random", seed=2, start=False),
        )
        ws_over, tcp_over = ws_run.games[0], tcp_run.games[0]
        assert ws_over["table"] == tcp_over["table"]
        assert ws_over["result"] == tcp_over["result"]
        store = tiles.hub.records
        assert store is not None
        store.flush()
        (stored,) = store.matches(game="tiles")
        assert {p.name for p in stored.players} == {"over-ws", "over-tcp"}
        assert stored.status == "finished"


async def tcp_reply(client: TilesClient, payload: str | bytes) -> dict[str, Any]:
    data = payload.encode("utf-8") if isinstance(payload, str) else payload
    await client.send_raw(data + b"\n")
    return await client.recv(timeout=5)


async def test_bad_frames_are_answered_as_tcp_answers_the_same_bytes(tmp_path: Path) -> None:
    async with running(tmp_path) as (tiles, web):
        # Another game goes on meanwhile: a TCP player against a house bot.
        other = await TilesClient.connect("127.0.0.1", tiles.port)
        await other.join("zed", race())
        await other.start()
        turn = await other.expect("your_turn")
        tcp = await TilesClient.connect(f"tcp://127.0.0.1:{tiles.port}")
        async with connect(ws_url(web)) as ws:
            welcome = await recv_json(ws)
            assert welcome == tcp.welcome and welcome["protocol"] == "herna-tiles/1"
            cases: list[tuple[str | bytes, str]] = [
                (b"\xff\xfe junk \x00", "BAD_UTF8"),
                ("hello", "BAD_JSON"),
                ("[1, 2]", "BAD_MESSAGE"),
                ('{"type": "fly", "id": 9}', "UNKNOWN_TYPE"),
                ('{"type": "act", "action": {}, "id": 4}', "WRONG_PHASE"),
                ('{"type": "join", "name": "x", "rules": "chess"}', "UNKNOWN_RULES"),
                ('{"type": "join", "name": "no spaces", "rules": "tsuro"}', "BAD_NAME"),
                (b'{"type": "ping", "id": "binary"}', "pong"),  # binary frames: their bytes
            ]
            for payload, expected in cases:
                await ws.send(payload)
                answer = await recv_json(ws)
                assert answer.get("code", answer["type"]) == expected, (payload, answer)
                assert answer == await tcp_reply(tcp, payload)
            assert answer == {"type": "pong", "id": "binary"}
            await ws.send("   ")  # a blank frame is a keep-alive, like a blank line
            await ws.send('{"type": "ping", "id": 1}')
            assert await recv_json(ws) == {"type": "pong", "id": 1}
            table = tiles.hub.tables[turn["table"]]
            assert table.status == "playing"
            # Over the protocol's line limit: TOO_LARGE, then the connection is closed.
            await ws.send("x" * (MAX_LINE_BYTES + 10))
            answer = await recv_json(ws)
            assert answer["code"] == "TOO_LARGE"
            assert await closed(ws) == (1009, f"TOO_LARGE: {answer['reason']}")
        assert (await tcp_reply(tcp, b"x" * (MAX_LINE_BYTES + 10)))["code"] == "TOO_LARGE"
        with pytest.raises(ConnectionError):
            await tcp.recv(timeout=5)
        # Over what the WebSocket layer reads at all: closed unread, no bigger buffer held.
        async with connect(ws_url(web)) as ws:
            await recv_json(ws)
            with contextlib.suppress(ConnectionClosed):
                await ws.send(b"\x00" * (MAX_FRAME_BYTES + 1))
            code, _ = await closed(ws)
            assert code == 1009
        # A text frame that is not UTF-8 fails the WebSocket itself (RFC 6455: close 1007);
        # the same bytes in a binary frame got BAD_UTF8 above.
        reader, writer = await asyncio.open_connection("127.0.0.1", web.port)
        writer.write(
            b"GET /ws/tiles HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
        writer.write(b"\x81\x82" + b"\x00" * 4 + b"\xff\xfe")  # FIN, text, masked (zero key)
        data = await asyncio.wait_for(reader.read(), 5)
        assert b'"type":"welcome"' in data and data.endswith(
            b"\x88\x02" + (1007).to_bytes(2, "big")
        )
        writer.close()
        # Fifty bad messages in a row end the connection, as over TCP.
        async with connect(ws_url(web)) as ws:
            await recv_json(ws)
            for _ in range(MAX_BAD_MESSAGES):
                await ws.send("nope")
            answers = [await recv_json(ws) for _ in range(MAX_BAD_MESSAGES)]
            assert {a["code"] for a in answers} == {"BAD_JSON"}
            code, reason = await closed(ws)
            assert code == 1008 and reason is not None and reason.startswith("BAD_JSON: ")
        # The other game was not disturbed: it plays on to its end.
        assert table.status == "playing"
        while True:
            if turn["type"] == "game_over":
                break
            await other.act(max(turn["actions"], key=lambda a: a["x"]))
            turn = await other.expect("your_turn", "game_over")
        assert turn["result"]["winner_names"] == ["zed"]
        assert tiles.hub.stats.errors >= 2 * len(cases)
        await other.close()


async def test_a_client_that_stops_reading_is_dropped_without_stalling_others(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as (tiles, web):
        endpoint = web.web.tiles_socket
        # Another game, played step by step over TCP.
        other = await TilesClient.connect("127.0.0.1", tiles.port)
        await other.join("zed", race())
        await other.start()
        turn = await other.expect("your_turn")
        # A small receive buffer, and a client that never calls recv(): once its library's
        # queue is full it stops reading the socket altogether.
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", web.port))
        ws = await connect(ws_url(web), sock=sock, max_queue=1)
        try:
            await ws.send(json.dumps({"type": "join", "name": "sleepy", "rules": "tsuro"}))
            await ws.send(json.dumps({"type": "start"}))
            (peer,) = endpoint.peers

            async def flood(until: Any) -> int:
                sent = 0
                while not until() and sent < 5000:
                    await asyncio.wait_for(ws.send('{"type": "state"}'), 5)
                    sent += 1
                    if sent % 10 == 0:
                        await asyncio.sleep(0.005)
                return sent

            # 1. It is stuck: TCP back-pressure holds its sender, its queue grows ...
            sent = await flood(lambda: peer.queued > 64 * 1024)
            assert peer.queued > 64 * 1024 and not peer.dropped, sent
            # ... and the hub does not wait for it: the other game plays on to its end.
            await other.send({"type": "ping", "id": "p"})
            assert (await other.expect("pong", timeout=2))["id"] == "p"
            while turn["type"] != "game_over":
                await other.act(max(turn["actions"], key=lambda a: a["x"]))
                turn = await other.expect("your_turn", "game_over", timeout=2)
            assert turn["result"]["winner_names"] == ["zed"]
            # 2. Past its write limit it is dropped (close 4001 "too slow").
            peer.write_limit = peer.queued + 64 * 1024
            sent = await flood(lambda: peer.dropped)
            assert peer.dropped and peer.close_code == 4001, sent
            for _ in range(100):
                if not endpoint.peers:
                    break
                await asyncio.sleep(0.02)
            assert endpoint.stats()["open"] == 0 and endpoint.dropped == 1
            # Its seat waits for it to come back with its seat secret (the reconnect window),
            # after which a house bot plays it.
            (table,) = [t for t in tiles.hub.tables.values() if "sleepy" in t.names()]
            slot = table.seats[table.names().index("sleepy")]
            assert slot is not None and slot.client is None and slot.is_away
            assert table.match is not None and any(kind == "away" for kind, _ in table.match.log)
            assert tiles.hub.snapshot()["connections"] == 1  # zed
        finally:
            ws.transport.abort()
        await other.close()


async def test_without_the_tile_server_the_socket_says_so(tmp_path: Path) -> None:
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'web.db'}"))
    web = WebHall(hall)
    await web.start("127.0.0.1", 0)
    hall.add(web)
    try:
        async with connect(ws_url(web)) as ws:
            code, reason = await closed(ws)
        assert code == 4004
        assert reason == "the tiles server is not running in this herna serve"
        with pytest.raises(ConnectionError, match="4004: the tiles server is not running"):
            await TilesClient.connect(ws_url(web))
        # A stopped tile server is not running either.
        tiles = await serve(hall, port=0, settings=TilesSettings(**FAST))
        hall.services.insert(0, tiles)
        client = await TilesClient.connect(ws_url(web))
        await tiles.stop()
        with pytest.raises(ConnectionError, match="1001: server stopping"):
            await client.recv(timeout=5)
        await client.close()
        with pytest.raises(ConnectionError, match="4004"):
            await TilesClient.connect(ws_url(web))
        hall.services.remove(tiles)
        assert web.web.tiles_socket.stats()["open"] == 0
    finally:
        await hall.stop()
        hall.records.close()


async def test_herna_bot_and_play_over_websocket(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running(tmp_path, max_rounds=20) as (tiles, web):
        code = await asyncio.to_thread(
            main,
            [
                "bot",
                "tiles",
                "--url",
                ws_url(web),
                "--strategy",
                "random",
                "--rules",
                "tsuro",
                "--games",
                "2",
                "--name",
                "robo",
            ],
        )
        assert code == 0
        assert "robo: 2 game(s)" in capsys.readouterr().out
        rules = json.loads(shipped_rules()["tsuro"].read_text())
        assert await play_online(ws_url(web), 0, "ann", rules, False, ask=lambda _: "1") == 0
        out = capsys.readouterr().out
        assert "You are player 1; the rules: Tsuro." in out and "Game over:" in out
        store = tiles.hub.records
        assert store is not None
        store.flush()
        assert {p.name for m in store.matches(game="tiles") for p in m.players} >= {"robo", "ann"}
        bad_path = f"ws://127.0.0.1:{web.port}/ws/nothing"
        for argv, status, said in [
            (["--url", bad_path], 1, "no WebSocket at"),
            (["--url", "ftp://127.0.0.1/x"], 2, "bad server address"),
            (["--url", "127.0.0.1"], 2, "expected ws://HOST:PORT/ws/tiles"),
        ]:
            code = await asyncio.to_thread(main, ["bot", "tiles", "--rules", "tsuro", *argv])
            assert code == status
            assert said in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["play", "tiles", "--help"], ["bot", "tiles", "--help"]])
def test_help_mentions_the_websocket_url(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(argv)
    out = capsys.readouterr().out
    assert "--url" in out and "ws://HOST:PORT/ws/tiles" in out


async def test_herna_serve_offers_the_tile_protocol_on_the_web_port(tmp_path: Path) -> None:
    async with serving(tmp_path, "tiles,web", tiles_no_showcase=True) as hall:
        service = hall.service("tiles")
        web = hall.service("web")
        assert isinstance(web, WebHall) and service is not None
        (_, url) = service.endpoints()
        assert url == ws_url(web)
        client = await TilesClient.connect(url)
        await client.send({"type": "list", "id": "l"})
        listing = await client.expect("tables")
        assert listing["id"] == "l" and "labyrinth" in listing["rules"]
        await client.close()
