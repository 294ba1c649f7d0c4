"""The login timeout of the tile server: a connection that has not joined a table within
``login_timeout`` seconds gets ``LOGIN_TIMEOUT`` and is closed. On the hub with a fake clock,
then over real TCP and WebSocket on 127.0.0.1 while games between bots go on."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from herna.clients.tiles import TilesClient
from herna.core.clock import FakeClock
from herna.hall.events import EventBus
from herna.protocols.tiles import ClientConnection
from herna.servers.tiles import (
    DEFAULT_LOGIN_TIMEOUT,
    Client,
    TilesHub,
    TilesService,
    TilesSettings,
)
from herna.web.plugin import WebHall
from tests.serve import serve_args, serving
from tests.tiles.helpers import race
from tests.tiles.test_server import running
from tests.tiles.test_websocket import closed, recv_json, ws_url

# -- the hub, with a fake clock -----------------------------------------------------------------


class RecordingPeer:
    """A connection as the hub sees it, keeping what the hub sent and whether it hung up."""

    def __init__(self, name: str, kind: str = "unknown") -> None:
        self.name = name
        self.kind = kind
        self.data = b""
        self.closed = False

    def send(self, data: bytes) -> None:
        assert not self.closed, f"{self.name}: sent to after being closed"
        self.data += data

    def close(self) -> None:
        self.closed = True

    def describe(self) -> str:
        return self.name

    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.data.splitlines()]

    def types(self) -> list[str]:
        return [m["type"] for m in self.messages()]


class ExplainingPeer(RecordingPeer):
    """A peer that can say why it is closed (as the WebSocket peer does)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.close_reason: tuple[str, str] | None = None

    def close_with(self, code: str, reason: str) -> None:
        self.close_reason = (code, reason)
        self.close()


def make_hub(clock: FakeClock, **settings: Any) -> TilesHub:
    # No house bots and no turn clock: the only timers are the login timers.
    fixed: dict[str, Any] = {"house_bots": False, "showcase": False, "turn_timeout": 0.0}
    return TilesHub(EventBus(), None, clock, TilesSettings(**{**fixed, **settings}))


def join(hub: TilesHub, client: Client, name: str, **fields: Any) -> None:
    line = {"type": "join", "name": name, **fields}
    hub.receive(client, ClientConnection.send(line))


def test_a_silent_connection_is_told_and_closed_after_the_timeout() -> None:
    clock = FakeClock()
    hub = make_hub(clock, login_timeout=60.0)
    silent_peer, ann_peer, bob_peer = (RecordingPeer(n) for n in ("silent", "ann", "bob"))
    silent = hub.connect(silent_peer)
    ann, bob = hub.connect(ann_peer), hub.connect(bob_peer)
    assert clock.pending() == 3
    # ann and bob log in (join) in time; their table starts a game.
    clock.advance(10)
    join(hub, ann, "ann", rules=race())
    clock.advance(40)
    join(hub, bob, "bob", rules=race())
    assert clock.pending() == 1  # only the silent connection's clock still runs
    assert not hub.deadlines.waiting(ann) and not hub.deadlines.waiting(bob)
    (table,) = hub.tables.values()
    assert table.status == "playing"
    clock.advance(59.9 - 50)
    assert not silent_peer.closed and silent_peer.types() == ["welcome"]
    clock.advance(0.2)
    assert silent_peer.closed
    assert silent_peer.messages()[1:] == [
        {
            "type": "error",
            "code": "LOGIN_TIMEOUT",
            "reason": "no table joined within 60 s of connecting",
        }
    ]
    assert hub.deadlines.expired == 1
    assert hub.snapshot()["connections"] == 2
    assert clock.pending() == 0
    # Whatever it still sends is ignored.
    hub.receive(silent, b'{"type": "ping"}\n')
    assert silent_peer.types() == ["welcome", "error"]
    # The others are untouched and play their game on, long after the timeout.
    clock.advance(3600)
    assert not ann_peer.closed and not bob_peer.closed
    assert "error" not in ann_peer.types() + bob_peer.types()
    for _ in range(50):
        if table.status != "playing":
            break
        client, peer = (ann, ann_peer) if table.state.current_player() == 0 else (bob, bob_peer)
        turn = [m for m in peer.messages() if m["type"] == "your_turn"][-1]
        best = max(turn["actions"], key=lambda a: a["x"])
        hub.receive(client, ClientConnection.send({"type": "act", "action": best}))
    assert table.status == "over"
    assert "game_over" in ann_peer.types() and "game_over" in bob_peer.types()
    assert not ann_peer.closed and not bob_peer.closed


def test_only_a_successful_join_stops_the_clock() -> None:
    clock = FakeClock()
    hub = make_hub(clock, login_timeout=5.0)
    peer = RecordingPeer("busy")
    client = hub.connect(peer)
    for line in (
        {"type": "ping", "id": 1},
        {"type": "list"},
        {"type": "state"},
        {"type": "join", "name": "ann", "rules": "chess"},  # refused: no such rules
        {"type": "join", "name": "bad name", "rules": "tsuro"},
    ):
        hub.receive(client, ClientConnection.send(line))
        clock.advance(0.9)
    assert not peer.closed and hub.deadlines.waiting(client)
    clock.advance(0.6)
    assert peer.closed
    assert peer.messages()[-1]["code"] == "LOGIN_TIMEOUT"
    assert [m.get("code") for m in peer.messages()].count("LOGIN_TIMEOUT") == 1


def test_the_clock_stops_on_disconnect_and_at_shutdown() -> None:
    clock = FakeClock()
    hub = make_hub(clock, login_timeout=1.0)
    gone_peer = RecordingPeer("gone")
    gone = hub.connect(gone_peer)
    assert clock.pending() == 1
    hub.disconnect(gone)
    assert clock.pending() == 0 and not hub.deadlines.waiting(gone)
    clock.advance(2)
    assert gone_peer.types() == ["welcome"]  # nothing sent to a connection that is gone
    assert hub.deadlines.expired == 0
    hub.connect(RecordingPeer("a"))
    hub.connect(RecordingPeer("b"))
    assert clock.pending() == 2
    hub.shutdown()
    assert clock.pending() == 0


def test_once_logged_in_a_client_may_idle_in_the_lobby() -> None:
    clock = FakeClock()
    hub = make_hub(clock, login_timeout=1.0)
    peer = RecordingPeer("ann")
    client = hub.connect(peer)
    join(hub, client, "ann", rules="tsuro")
    hub.receive(client, ClientConnection.send({"type": "leave"}))
    assert peer.types()[-1] == "left" and client.table is None
    clock.advance(100)
    assert not peer.closed and not hub.deadlines.waiting(client) and "error" not in peer.types()


@pytest.mark.parametrize("timeout", [0.0, -1.0])
def test_zero_or_negative_disables_the_timeout(timeout: float) -> None:
    clock = FakeClock()
    hub = make_hub(clock, login_timeout=timeout)
    peer = RecordingPeer("silent")
    hub.connect(peer)
    assert clock.pending() == 0
    clock.advance(10**6)
    assert not peer.closed and peer.types() == ["welcome"]


def test_in_process_house_bots_are_never_timed() -> None:
    clock = FakeClock()
    hub = make_hub(clock, login_timeout=1.0)
    peer = RecordingPeer("house", kind="house-bot")
    hub.connect(peer)
    assert clock.pending() == 0
    clock.advance(100)
    assert not peer.closed


def test_a_peer_that_explains_its_close_is_told_why(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    hub = make_hub(clock, login_timeout=0.5)
    peer = ExplainingPeer("ws:1.2.3.4:5")
    hub.connect(peer)
    with caplog.at_level(logging.INFO, logger="herna.tiles"):
        clock.advance(0.5)
    assert peer.close_reason == ("LOGIN_TIMEOUT", "no table joined within 0.5 s of connecting")
    assert peer.messages()[-1]["code"] == "LOGIN_TIMEOUT"
    (record,) = [r for r in caplog.records if "LOGIN_TIMEOUT" in r.getMessage()]
    assert record.levelno == logging.INFO and "ws:1.2.3.4:5" in record.getMessage()


async def test_the_option_reaches_the_hub_from_the_command_line_and_herna_toml(
    tmp_path: Path,
) -> None:
    args = serve_args(tmp_path, "tiles")
    assert args.tiles_login_timeout is None  # unset: herna.toml, then the default, decide
    assert DEFAULT_LOGIN_TIMEOUT == 60.0 == TilesSettings().login_timeout

    async def setting(config: dict[str, Any], **options: object) -> float:
        async with serving(
            tmp_path, "tiles", config=config, tiles_no_showcase=True, **options
        ) as hall:
            service = hall.service("tiles")
            assert isinstance(service, TilesService)
            return service.hub.settings.login_timeout

    toml = {"tiles": {"login_timeout": 7.5}}
    assert await setting({}) == 60.0
    assert await setting(toml) == 7.5
    assert await setting(toml, tiles_login_timeout=2.0) == 2.0  # the command line wins


def test_help_describes_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    from herna.cli import main

    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--tiles-login-timeout SECONDS" in out
    assert "LOGIN_TIMEOUT" in out and "default 60; 0 = no limit" in out


# -- real sockets -------------------------------------------------------------------------------


async def read_until_closed(reader: asyncio.StreamReader, timeout: float) -> list[dict[str, Any]]:
    data = await asyncio.wait_for(reader.read(), timeout)  # read() returns at EOF
    return [json.loads(line) for line in data.splitlines()]


async def test_a_silent_tcp_client_is_closed_while_bots_play_on(tmp_path: Path) -> None:
    async with running(tmp_path, login_timeout=0.3, bot_delay=0.01) as server:
        loop = asyncio.get_running_loop()
        connected = loop.time()
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        # Meanwhile a bot joins in time and plays a race against a house bot; it waits for
        # the silent client to be closed before its first move, so the game is on meanwhile.
        racer = await TilesClient.connect("127.0.0.1", server.port)
        joined = await racer.join("racer", race(), kind="bot")
        await racer.start()
        turn = await racer.expect("your_turn")
        table = server.hub.tables[joined["table"]]
        messages = await read_until_closed(reader, 5)
        assert loop.time() - connected >= 0.3
        writer.close()
        assert [m["type"] for m in messages] == ["welcome", "error"]
        assert messages[1] == {
            "type": "error",
            "code": "LOGIN_TIMEOUT",
            "reason": "no table joined within 0.3 s of connecting",
        }
        assert server.hub.deadlines.expired == 1
        assert table.status == "playing" and server.hub.snapshot()["connections"] == 1
        # The bots' game goes on to its end, undisturbed, and is recorded.
        while turn["type"] != "game_over":
            await racer.act(max(turn["actions"], key=lambda a: a["x"]))
            turn = await racer.expect("your_turn", "game_over", "error")
            assert turn["type"] != "error", turn
        assert turn["result"]["winner_names"] == ["racer"]
        await racer.close()
        store = server.hub.records
        assert store is not None
        store.flush()
        (match,) = store.matches(game="tiles")
        assert match.status == "finished"
        assert [(p.name, p.kind) for p in match.players] == [
            ("racer", "bot"),
            ("house-2", "house-bot"),
        ]


async def test_a_silent_websocket_client_is_closed_too(tmp_path: Path) -> None:
    config = {"tiles": {"login_timeout": 0.3}}  # as herna.toml would say it
    async with serving(tmp_path, "tiles,web", config=config, tiles_no_showcase=True) as hall:
        web = hall.service("web")
        service = hall.service("tiles")
        assert isinstance(web, WebHall) and isinstance(service, TilesService)
        async with connect(ws_url(web)) as silent, connect(ws_url(web)) as player:
            assert (await recv_json(silent))["type"] == "welcome"
            assert (await recv_json(player))["type"] == "welcome"
            await player.send(json.dumps({"type": "join", "name": "ann", "rules": "tsuro"}))
            assert (await recv_json(player))["type"] == "joined"
            error = await recv_json(silent, timeout=5)
            assert error == {
                "type": "error",
                "code": "LOGIN_TIMEOUT",
                "reason": "no table joined within 0.3 s of connecting",
            }
            assert await closed(silent) == (1008, f"LOGIN_TIMEOUT: {error['reason']}")
            # The one who joined in time stays, well past the timeout.
            await asyncio.sleep(0.4)
            await player.send(json.dumps({"type": "ping", "id": "still"}))
            while (answer := await recv_json(player))["type"] != "pong":
                assert answer["type"] == "table"
            assert answer["id"] == "still"
        assert service.hub.deadlines.expired == 1
        # A TCP client of the same hub that logs in in time is not closed either.
        client = await TilesClient.connect("127.0.0.1", service.port)
        await client.join("bob", race())
        await asyncio.sleep(0.4)
        await client.send({"type": "ping", "id": 2})
        assert (await client.expect("pong"))["id"] == 2
        await client.close()
