"""Connections that never identify themselves are closed with ``<error code="LOGIN_TIMEOUT">``
(a Herna extension) on every CGML port, so silent clients cannot hold the servers' file
descriptors forever; everybody who identified in time is untouched."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from herna.clients.cgml import BotDecider, CgmlClient, login, play_group
from herna.core.clock import FakeClock
from herna.hall.events import Subscription
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.protocols.cgml import messages as m
from herna.protocols.cgml.lobby import LobbySettings
from herna.servers.cgml import PLUGIN, CgmlService
from herna.servers.cgml.gameserver import SuperGameServer
from herna.servers.cgml.login import LoginServer
from herna.servers.cgml.seats import GroupSettings
from herna.servers.deadlines import LOGIN_TIMEOUT
from tests.serve import serve_args
from tests.servers.cgml.helpers import HOST, System

pytestmark = pytest.mark.timeout(60)

until = System.until


async def quiet(client: CgmlClient, seconds: float = 0.1) -> None:
    """Nothing arrives and the connection stays open (read directly: ``CgmlClient.recv``
    turns its own timeout into "closed", TimeoutError being an OSError)."""
    try:
        data = await asyncio.wait_for(client.reader.read(65536), seconds)
    except TimeoutError:
        return
    raise AssertionError(f"expected silence, got {data!r}")


async def timed_out(client: CgmlClient, timeout: float = 5.0) -> str:
    """The next message is the LOGIN_TIMEOUT error, then the server closes the connection."""
    message = await asyncio.wait_for(client.recv(), timeout)
    assert isinstance(message, m.Error), message
    assert message.code == LOGIN_TIMEOUT
    assert await asyncio.wait_for(client.recv(), timeout) is None
    await client.close()
    return message.reason


def player(pid: str, status: str = "passive") -> m.ConnectPlayer:
    return m.ConnectPlayer(status, m.PlayerRef(pid, pid.upper(), "human"), m.GAME_MARIAS)


@dataclass
class Fake:
    clock: FakeClock
    login: LoginServer
    clients: list[CgmlClient]

    async def connect(self, port: int | None = None) -> CgmlClient:
        client = await CgmlClient.connect(HOST, port or self.login.player_address[1])
        self.clients.append(client)
        return client

    async def settled(self, connections: int) -> None:
        await until(lambda: self.login.snapshot()["connections"] == connections, 5)


@contextlib.asynccontextmanager
async def fake_login(timeout: float) -> AsyncIterator[Fake]:
    clock = FakeClock()
    login_server = LoginServer(clock, LobbySettings(fill_wait=0.05), 10.0, login_timeout=timeout)
    await login_server.start(HOST, 0, 0)
    fake = Fake(clock, login_server, [])
    try:
        yield fake
    finally:
        for client in fake.clients:
            await client.close()
        await login_server.stop()


async def test_login_server_closes_silent_and_refused_connections_after_the_timeout() -> None:
    async with fake_login(60.0) as f:
        silent = await f.connect()
        silent_server = await f.connect(f.login.server_address[1])
        holder = await f.connect()
        await holder.send(player("karel"))
        taken = await f.connect()  # its connect is refused: it has not identified itself
        await until(lambda: len(f.login.snapshot()["waiting"]) == 1, 5)
        await taken.send(player("karel"))
        refused = await taken.expect(m.Error)
        assert isinstance(refused, m.Error) and refused.code == "ID_IN_USE"
        early_load = await f.connect()  # <load> before <connect> does not identify
        await early_load.send(m.Load(10))
        wrong = await early_load.expect(m.Error)
        assert isinstance(wrong, m.Error) and wrong.code == "WRONG_PHASE"
        bad_reg = await f.connect(f.login.server_address[1])
        await bad_reg.send(m.ConnectServer(m.GAME_MARIAS, 1, "127.0.0.1:1"))
        bad = await bad_reg.expect(m.Error)
        assert isinstance(bad, m.Error) and bad.code == "BAD_REGISTRATION"
        wrong_port = await f.connect(f.login.server_address[1])  # a player on the server port
        await wrong_port.send(player("eva"))
        unexpected = await wrong_port.expect(m.Error)
        assert isinstance(unexpected, m.Error) and unexpected.code == "UNEXPECTED"
        server = await f.connect(f.login.server_address[1])
        await server.send(m.ConnectServer(m.GAME_MARIAS, 3, "127.0.0.1:7002"))
        gone = await f.connect()
        await gone.close()
        await until(lambda: len(f.login.snapshot()["game_servers"]) == 1, 5)
        await f.settled(8)
        # holder and the server identified themselves; the six others still have to.
        assert f.login.snapshot()["awaiting_login"] == 6
        assert f.clock.pending() == 6  # the lobby itself has no timer running now

        f.clock.advance(59.9)
        for client in (silent, silent_server, taken, early_load, bad_reg, wrong_port):
            await quiet(client)
        late = await f.connect()  # connected at 59.9: its own 60 s have just begun
        await f.settled(9)
        f.clock.advance(0.2)
        reason = await timed_out(silent)
        assert "<connect>" in reason and "60 s" in reason
        assert "status" in await timed_out(silent_server)
        for client in (taken, early_load, bad_reg, wrong_port):
            await timed_out(client)
        await quiet(holder)
        await quiet(server)
        await quiet(late)
        await late.send(player("late"))  # identifies in time
        await until(lambda: f.login.snapshot()["awaiting_login"] == 0, 5)
        f.clock.advance(3600.0)
        for client in (holder, server, late):
            await quiet(client)
        snap = f.login.snapshot()
        assert snap["login_timeouts"] == 6
        assert snap["connections"] == 3
        assert {w["id"] for w in snap["waiting"]} == {"karel", "late"}
        assert len(snap["game_servers"]) == 1
        assert f.clock.pending() == 0  # every login timer was fired or cancelled


@pytest.mark.parametrize("timeout", [0.0, -1.0])
async def test_zero_or_a_negative_timeout_disables_it(timeout: float) -> None:
    async with fake_login(timeout) as f:
        silent = await f.connect()
        await f.settled(1)
        assert f.clock.pending() == 0
        f.clock.advance(1e6)
        await quiet(silent)
        await silent.send(player("patient"))
        await until(lambda: len(f.login.snapshot()["waiting"]) == 1, 5)
        assert f.login.snapshot()["login_timeouts"] == 0


async def test_super_game_server_closes_connections_that_do_not_join() -> None:
    """On the game port identifying means joining one's group; the group's members who joined,
    the server's own registration and the members' login connections are never hit."""
    async with fake_login(60.0) as f:
        sgs = SuperGameServer(f.clock, GroupSettings(join_timeout=1000.0), login_timeout=60.0)
        await sgs.start(HOST, 0, HOST, f.login.server_address[1])
        try:
            await asyncio.wait_for(sgs.registered.wait(), 5)
            await until(lambda: len(f.login.snapshot()["game_servers"]) == 1, 5)
            at_login = {}
            for pid in ("a", "b", "c"):
                at_login[pid] = await f.connect()
                await at_login[pid].send(player(pid, "active"))
            completes = {}
            for pid, client in at_login.items():
                complete = await client.expect(m.ConnectComplete)
                assert isinstance(complete, m.ConnectComplete)
                completes[pid] = complete
            port = sgs.address[1]

            def answer(pid: str) -> m.NewGroupAnswer:
                ticket = completes[pid].group if pid in completes else completes["a"].group
                if pid not in completes:  # a stranger knows the group, not a ticket
                    ticket = m.public_group(ticket)
                return m.NewGroupAnswer(True, ticket, m.GAME_MARIAS, m.PlayerRef(pid, pid.upper()))

            at_game = {pid: await f.connect(port) for pid in ("a", "b", "c")}
            await at_game["a"].send(answer("a"))
            await at_game["b"].send(answer("b"))
            stranger = await f.connect(port)  # not a member: refused, still not identified
            await stranger.send(answer("zed"))
            refused = await stranger.expect(m.Error)
            assert isinstance(refused, m.Error) and refused.code == "NOT_INVITED"
            gone = await f.connect(port)
            await gone.close()
            await until(lambda: sgs.snapshot()["connections"] == 4 and len(sgs.deadlines) == 2, 5)

            f.clock.advance(60.1)
            reason = await timed_out(at_game["c"])
            assert "newgroup" in reason
            await timed_out(stranger)
            for client in (at_game["a"], at_game["b"], *at_login.values()):
                await quiet(client)
            assert sgs.snapshot()["login_timeouts"] == 2
            assert f.login.snapshot()["login_timeouts"] == 0
            assert sgs.registered.is_set() and len(f.login.snapshot()["game_servers"]) == 1

            # The group still waits for c, who comes back in time and joins: the game starts.
            again = await f.connect(port)
            await until(lambda: len(sgs.deadlines) == 1, 5)
            f.clock.advance(59.0)
            await again.send(answer("c"))
            for client in (at_game["a"], at_game["b"], again):
                ask = await client.expect(m.NewGameAsk)
                assert isinstance(ask, m.NewGameAsk)
            f.clock.advance(30.0)  # past c's 60 s: its timer was cancelled when it joined
            await quiet(again)
            assert sgs.snapshot()["login_timeouts"] == 2
            assert sgs.snapshot()["awaiting_login"] == 0
        finally:
            await sgs.stop()


def test_the_option_is_on_the_command_line() -> None:
    parser = argparse.ArgumentParser()
    PLUGIN.add_arguments(parser.add_argument_group("marias"))
    assert parser.parse_args(["--cgml-login-timeout", "2.5"]).cgml_login_timeout == 2.5
    assert parser.parse_args([]).cgml_login_timeout is None  # herna.toml may fill it
    assert "--cgml-login-timeout" in parser.format_help()


async def test_silent_clients_on_every_port_are_dropped_while_bots_play_on(
    tmp_path: Path,
) -> None:
    """`herna serve` with ``login_timeout = 0.3`` in its ``[marias]`` section, over real TCP."""
    records = RecordStore(f"sqlite:///{tmp_path / 'serve.db'}")
    hall = Hall(records=records)
    args = serve_args(
        tmp_path,
        "marias",
        host=HOST,
        cgml_bot_delay=0.0,
        cgml_bot_strategy="random",
        cgml_fill_wait=0.05,
    )
    sub = hall.bus.subscribe()
    service = await PLUGIN.start(hall, args, {"login_timeout": 0.3})
    silent: list[CgmlClient] = []
    try:
        assert isinstance(service, CgmlService)
        login_server, sgs = service.login, service.games[0]
        await asyncio.wait_for(_game_over(sub), 20)  # the house table plays
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        ports = [login_server.player_address[1]] * 3 + [login_server.server_address[1]] * 2
        ports += [sgs.address[1]] * 3
        silent = [await CgmlClient.connect(HOST, port) for port in ports]
        for client in silent:
            await timed_out(client)
        assert loop.time() - t0 >= 0.25
        assert login_server.snapshot()["login_timeouts"] == 5
        assert sgs.snapshot()["login_timeouts"] == 3

        # Well past the timeout: the house table goes on and a newcomer gets two bots from
        # the bot server (whose login connection was not touched) and plays a game to the end.
        await asyncio.wait_for(_game_over(sub), 20)
        me = m.PlayerRef("eve", "Eve", "human")
        complete = await asyncio.wait_for(login(HOST, login_server.player_address[1], me), 5)
        assert [p.race for p in complete.players] == ["bot", "bot"]
        summary = await asyncio.wait_for(
            play_group(complete, me, BotDecider("random", games=1, seed=3)), 30
        )
        assert summary.games == 1 and summary.ended == "cancelgame"
        assert not summary.errors
        snap = service.snapshot()
        assert snap["bot_servers"][0]["connected"]
        assert all(not task.done() for task in service.house)
        assert login_server.snapshot()["login_timeouts"] == 5
        assert sgs.snapshot()["login_timeouts"] == 3
        assert sgs.registered.is_set()
    finally:
        for client in silent:
            await client.close()
        await service.stop()
        records.close()


async def _game_over(sub: Subscription) -> None:
    while True:
        event = await sub.get()
        assert event is not None
        if event.kind == "game_over":
            return


async def test_client_recv_times_out_without_closing_the_connection() -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()  # say nothing until the client goes
        writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        client = await CgmlClient.connect("127.0.0.1", port)
        with pytest.raises(TimeoutError):
            await client.recv(timeout=0.1)
        assert not client.closed
        await client.close()
    finally:
        server.close()
        await server.wait_closed()
