"""The Mia server over real UDP on 127.0.0.1: bots play whole rounds, spectators watch,
garbage and floods are shrugged off."""

from __future__ import annotations

import argparse
import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from herna.clients.mia import MiaClient, MiaError, play
from herna.games.mia.bots import make_bot
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.servers.mia import PLUGIN, MiaService
from herna.servers.mia.udp import MiaUdpServer

PRIVATE = ("ROUND STARTING", "YOUR TURN", "ROLLED")


def args(**overrides: object) -> argparse.Namespace:
    base = {"host": "127.0.0.1", "mia_port": 0, "no_house_bots": True}
    base.update(overrides)
    return argparse.Namespace(**base)


@pytest.fixture
async def mia(tmp_path: Path) -> AsyncIterator[MiaService]:
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'mia.db'}"))
    service = await PLUGIN.start(hall, args(), {})
    assert isinstance(service, MiaService)
    yield service
    await service.stop()
    hall.records.close()


def port_of(service: MiaService) -> int:
    return service.server.address[1]


async def test_bots_play_200_rounds_and_scores_match_records(mia: MiaService) -> None:
    port = port_of(mia)
    spectator = MiaClient("127.0.0.1", port, "eve", spectator=True, transcript=True)
    await spectator.connect()
    await spectator.register()
    players = []
    for name, strategy in [
        ("p1", "probability"),
        ("p2", "probability"),
        ("h1", "honest"),
        ("r1", "random"),
    ]:
        client = MiaClient("127.0.0.1", port, name, transcript=True)
        await client.connect()
        await client.register()
        players.append((client, make_bot(strategy)))
    tasks = [asyncio.create_task(play(c, b)) for c, b in players]
    async with asyncio.timeout(60):
        while mia.table.stats.rounds_played < 200:
            await asyncio.sleep(0.05)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(0.3)  # let the last datagrams land
    mia.table.records.flush()  # type: ignore[union-attr]
    store = mia.table.records
    assert store is not None

    # The last SCORE each client received equals what the recorded rounds imply.
    transcript = players[0][0].transcript
    assert transcript is not None
    last_score = next(m for m in reversed(transcript) if m.startswith("SCORE;"))
    received = {e.split(":")[0]: int(e.split(":")[1]) for e in last_score[6:].split(",")}
    implied: dict[str, int] = {}
    for match in store.matches(game="mia", limit=10_000):
        if match.status == "finished":
            for p in match.players:
                implied[p.name] = implied.get(p.name, 0) + int(p.score)
    assert received == {n: implied.get(n, 0) for n in received}
    assert received == {n: int(v) for n, v in store.points("mia").items()}
    assert sum(received.values()) >= 200  # at least one point per played round

    # Every round went to the database and replays to its recorded losers.
    from herna.hall.replays import replay_steps

    finished = [m for m in store.matches(game="mia", limit=10_000) if m.status == "finished"]
    assert len(finished) >= 200
    sample = store.get(finished[0].id)
    assert sample is not None
    steps = replay_steps(sample)
    assert steps[-1]["view"]["losers"] == sample.result["losers"]

    # The spectator saw every broadcast and never a private message.
    seen = spectator.transcript
    assert seen is not None
    assert not [m for m in seen if m.startswith(PRIVATE)]
    skip = (*PRIVATE, "HEARTBEAT", "REGISTERED")
    broadcasts = [m for m in transcript if not m.startswith(skip)]
    watched = [m for m in seen if not m.startswith(skip)]
    # Compare from the first round all four played (registration SCOREs come before).
    first = next(
        i for i, m in enumerate(broadcasts) if m.startswith("ROUND STARTED") and m.count(",") == 3
    )
    start = watched.index(broadcasts[first])
    assert watched[start : start + len(broadcasts) - first] == broadcasts[first:]
    spectator.close()
    for client, _ in players:
        client.close()


async def test_bad_input_over_udp_while_bots_play(mia: MiaService) -> None:
    port = port_of(mia)
    bots = []
    for name in ("a1", "a2", "a3"):
        client = MiaClient("127.0.0.1", port, name)
        await client.connect()
        await client.register()
        bots.append(client)
    tasks = [asyncio.create_task(play(c, make_bot("probability"))) for c in bots]
    raw = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    raw.bind(("127.0.0.1", 0))
    raw.setblocking(False)
    loop = asyncio.get_running_loop()

    async def ask(data: bytes) -> str:
        raw.sendto(data, ("127.0.0.1", port))
        while True:  # skip broadcasts that are not the answer (ROUND STARTING for a1 ...)
            reply = (await asyncio.wait_for(loop.sock_recv(raw, 4096), 2)).decode()
            if reply.startswith(("REGISTERED", "REJECTED", "UNREGISTERED")):
                return reply

    try:
        for bad in [
            b"REGISTER",
            b"REGISTER;",
            b"REGISTER;a b",
            b"REGISTER;x y;token",
            b"REGISTER;" + b"n" * 21,
            b"REGISTER;a:b",
            b"REGISTER;a,b",
        ]:
            assert await ask(bad) == "REJECTED;INVALID_NAME", bad
        assert await ask(b"REGISTER;a1") == "REGISTERED"  # same IP: takes the name over
        assert await ask(b"UNREGISTER") == "UNREGISTERED"
        # a1's bot re-registers itself below; junk from the raw socket is dropped quietly.
        before = mia.table.stats.rounds_played
        junk = [
            b"\xff\xfe\x00",
            b"x" * 60_000,
            b"HELLO",
            b"ROLL",
            b"ANNOUNCE;7,1;zz",
            b"JOIN;nope",
            b"\n",
            b"SEE;" + b"\x80" * 10,
        ]
        for i in range(20_000):  # a flood from one address
            raw.sendto(junk[i % len(junk)], ("127.0.0.1", port))
        await asyncio.sleep(1.0)
        dropped = mia.table.stats.dropped
        assert dropped["NOT_UTF8"] >= 1 and dropped["OVERSIZED"] >= 1
        assert sum(dropped.values()) >= 1000
        # The others kept playing through it all.
        async with asyncio.timeout(20):
            while mia.table.stats.rounds_played < before + 50:
                await asyncio.sleep(0.05)
    finally:
        raw.close()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for client in bots:
            client.close()


async def test_rejected_registration_raises_in_the_client(mia: MiaService) -> None:
    port = port_of(mia)
    async with MiaClient("127.0.0.1", port, "bad name") as client:
        with pytest.raises(MiaError, match="INVALID_NAME"):
            await client.register()


def test_send_many_sends_the_same_bytes_to_each_address_past_a_failing_one() -> None:
    server = MiaUdpServer("127.0.0.1", 0)
    receivers = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(3)]
    try:
        for r in receivers:
            r.bind(("127.0.0.1", 0))
            r.settimeout(5)
        addrs = [r.getsockname() for r in receivers]
        # Port 0 cannot be sent to: that datagram is lost and counted, the rest go out.
        server.send_many(b"ANNOUNCED;ann;3,1", [addrs[0], ("127.0.0.1", 0), addrs[1], addrs[2]])
        assert [r.recv(512) for r in receivers] == [b"ANNOUNCED;ann;3,1"] * 3
        assert server.send_errors == 1
    finally:
        server.close()
        for r in receivers:
            r.close()
