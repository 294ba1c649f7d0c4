"""Bad input over real sockets: each gets its documented answer while a table keeps playing."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from herna.clients.cgml import BotDecider, CgmlClient, login, play_group
from herna.protocols.cgml import messages as m
from herna.protocols.cgml.cards import parse_card
from herna.servers.cgml.seats import GroupSettings
from tests.protocols.cgml.test_codec import BILLION_LAUGHS
from tests.servers.cgml.helpers import HOST, System, make_system

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
async def busy(tmp_path: Path) -> AsyncIterator[System]:
    """A system with a table of three bots playing all the time."""
    system = await make_system(tmp_path, GroupSettings(), bot_servers=0, stall=0.5)
    players = [m.PlayerRef(f"bg{i}", f"BG{i}", "bot") for i in range(3)]

    async def play(p: m.PlayerRef) -> None:
        complete = await login(HOST, system.login_port, p)
        await play_group(complete, p, BotDecider("random", delay=0.002))

    tasks = [asyncio.create_task(play(p)) for p in players]
    await system.until(lambda: system.games[0].games_finished >= 1, 20)
    yield system
    group = next(iter(system.games[0].groups.values()))
    assert group.phase.value in ("asking", "playing")  # never disturbed
    for task in tasks:
        assert not task.done()  # nobody was aborted or disconnected
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await system.stop()
    system.records.close()


async def raw(port: int) -> CgmlClient:
    return await CgmlClient.connect(HOST, port)


async def disconnected(client: CgmlClient, data: bytes) -> str:
    """Send ``data``; the server must answer <disconnect> and close."""
    with contextlib.suppress(ConnectionError, OSError):
        await client.send_bytes(data)
    message = await asyncio.wait_for(client.recv(), 5)
    assert isinstance(message, m.Disconnect), message
    assert await asyncio.wait_for(client.recv(), 5) is None  # closed
    await client.close()
    return message.reason


async def progress(system: System) -> None:
    """The background table finishes another game."""
    before = system.games[0].games_finished
    await system.until(lambda: system.games[0].games_finished > before, 20)


async def test_garbage_is_answered_and_others_keep_playing(busy: System) -> None:
    sgs_port = busy.games[0].address[1]
    login_port = busy.login_port

    reason = await disconnected(await raw(login_port), b"HELLO LOGIN SERVER\r\n\r\n")
    assert reason.startswith("not XML")
    reason = await disconnected(await raw(sgs_port), BILLION_LAUGHS)
    assert "DTD" in reason
    reason = await disconnected(
        await raw(sgs_port), b'<cgml version="2.0"><load>1</load></cgml>\r\n\r\n'
    )
    assert "version" in reason
    reason = await disconnected(
        await raw(sgs_port), b"<cgml>" + b"<x>" * 100 + b"</x>" * 100 + b"</cgml>\r\n\r\n"
    )
    assert "deeper" in reason
    await progress(busy)


async def test_ten_megabytes_is_cut_off(busy: System) -> None:
    client = await raw(busy.games[0].address[1])
    await client.send_bytes(b'<cgml version="1.0"><disconnect>')
    sent = 0
    chunk = b"x" * 65536
    with pytest.raises((ConnectionError, OSError)):
        while sent < 10_000_000:
            await client.send_bytes(chunk)
            sent += len(chunk)
            await asyncio.sleep(0)
    assert sent < 10_000_000
    await client.close()
    await progress(busy)


async def test_half_a_message_then_silence_is_disconnected(busy: System) -> None:
    client = await raw(busy.games[0].address[1])
    await client.send_bytes(b'<cgml version="1.0">\r\n  <newgroup status="acc')
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    message = await asyncio.wait_for(client.recv(), 5)
    assert isinstance(message, m.Disconnect) and "incomplete" in message.reason
    assert 0.3 < loop.time() - t0 < 3
    await client.close()
    await progress(busy)


async def test_messages_out_of_place_get_errors(busy: System) -> None:
    sgs = await raw(busy.games[0].address[1])
    await sgs.send(m.PlayCardCards((parse_card("A0A"),)))
    error = await asyncio.wait_for(sgs.expect(m.Error), 5)
    assert isinstance(error, m.Error) and error.code == "NOT_JOINED"
    await sgs.send_bytes(b"<cgml><hello/></cgml>\r\n\r\n")
    error = await asyncio.wait_for(sgs.expect(m.Error), 5)
    assert isinstance(error, m.Error) and error.code == "BAD_MESSAGE"
    # The group id (public) with another player's id, an id that is not in the group, or a
    # made-up ticket: no invitation.
    group = next(iter(busy.games[0].groups))
    for attempt in (group, f"{group}.guess"):
        for pid in ("bg1", "intruder"):
            await sgs.send(m.NewGroupAnswer(True, attempt, m.GAME_MARIAS, m.PlayerRef(pid)))
            error = await asyncio.wait_for(sgs.expect(m.Error), 5)
            assert isinstance(error, m.Error) and error.code == "NOT_INVITED"
    await sgs.send(m.NewGroupAnswer(True, "nope", m.GAME_MARIAS, m.PlayerRef("bg1")))
    error = await asyncio.wait_for(sgs.expect(m.Error), 5)
    assert isinstance(error, m.Error) and error.code == "UNKNOWN_GROUP"
    await sgs.close()

    lg = await raw(busy.login_port)
    await lg.send(m.PlayCardAsk())
    error = await asyncio.wait_for(lg.expect(m.Error), 5)
    assert isinstance(error, m.Error) and error.code == "UNEXPECTED"
    await lg.close()
    await progress(busy)


async def test_an_id_in_use_at_the_login_server_is_refused(busy: System) -> None:
    first = await raw(busy.login_port)
    await first.send(m.ConnectPlayer("passive", m.PlayerRef("dup", "Dup", "human"), m.GAME_MARIAS))
    second = await raw(busy.login_port)
    await second.send(
        m.ConnectPlayer("active", m.PlayerRef("dup", "Other", "human"), m.GAME_MARIAS)
    )
    error = await asyncio.wait_for(second.expect(m.Error), 5)
    assert isinstance(error, m.Error) and error.code == "ID_IN_USE"
    # The refused connection may try again with another id.
    await second.send(
        m.ConnectPlayer("passive", m.PlayerRef("dup2", "Other", "human"), m.GAME_MARIAS)
    )
    await busy.until(lambda: len(busy.login_snapshot()["waiting"]) == 2, 5)
    await first.close()
    await second.close()
    await progress(busy)
