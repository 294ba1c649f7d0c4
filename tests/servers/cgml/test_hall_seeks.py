"""Mariáš players waiting at the CGML login server are seeks in the hall's lobby (real TCP,
a real `herna serve --only marias`), and a player who names a seek's owner sits with them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from herna.clients.cgml import CgmlClient, login
from herna.hall.hall import Hall
from herna.hall.lobby import ANYONE, BOTS, PEOPLE, Lobby, LobbyError, Want
from herna.protocols.cgml.messages import ConnectPlayer, Error, PlayerRef
from herna.protocols.cgml.seeks import HallSeeks, Waiting, want_of
from herna.servers.cgml import CgmlService
from tests.serve import serving


def test_preferences_in_the_lobbys_words() -> None:
    servers = ["house-heuristic-bot"]
    assert want_of((), 3, 0.5, servers) == Want(opponent=ANYONE, seats=3, fill=0.5)
    human = PlayerRef(None, None, "human")
    assert want_of((human,), 3, 0.5, servers) == Want(opponent=PEOPLE, seats=3)
    assert want_of((PlayerRef(None, None, "bot"),), 3, 0.5, servers) == Want(BOTS, seats=3)
    bots = PlayerRef("house-heuristic-bot")
    assert want_of((bots, bots), 3, 0.5, servers) == Want(
        BOTS, level="house-heuristic-bot", seats=3
    )
    assert want_of((PlayerRef("eva"), human), 3, 0.5, servers) == Want(challenge="eva", seats=3)


def test_the_mirror_follows_the_queue_seated_withdrawn_and_cancelled() -> None:
    lobby = Lobby()
    cancelled: list[object] = []
    mirror = HallSeeks(lobby, lambda key, code, reason: cancelled.append(key))
    ann = Waiting(1, PlayerRef("ann", "ann", "human"), (), 3, 30.0)
    bob = Waiting(2, PlayerRef("bob", "bob", "bot"), (PlayerRef(None, None, "human"),), 3, 0.5)
    mirror.sync([ann, bob], [], [], now=0.0)
    shown = {s["owner"]: s for s in lobby.snapshot("marias")}
    assert shown["ann"]["kind"] == "person" and shown["ann"]["opponent"] == "anyone"
    assert shown["ann"]["fill"] == 30.0  # its own fill wait
    assert shown["bob"]["kind"] == "bot" and shown["bob"]["opponent"] == "people"
    # the same queue again changes nothing
    before = lobby.snapshot("marias")
    mirror.sync([ann, bob], [], [], now=1.0)
    assert lobby.snapshot("marias") == before
    # ann is grouped (seated), bob is gone (withdrawn)
    mirror.sync([], [1], [], now=2.0)
    assert lobby.snapshot("marias") == [] and lobby.paired == 1
    # a seek cancelled on the lobby page ends that connection's wait
    mirror.sync([ann], [], [], now=3.0)
    [seek] = lobby.snapshot("marias")
    with pytest.raises(LobbyError):
        lobby.cancel(seek["id"], "bob")  # not bob's
    lobby.cancel(seek["id"], "ann")
    assert cancelled == [1]


@asynccontextmanager
async def marias_server(tmp_path: Path) -> AsyncIterator[tuple[Hall, str, int]]:
    """`herna serve --only marias` with instant bots, ready: its login server's address."""
    async with serving(
        tmp_path, "marias", cgml_bot_delay=0.0, cgml_house_tables=0, cgml_fill_wait=0.05
    ) as hall:
        service = hall.service("marias")
        assert isinstance(service, CgmlService)
        host, port = service.login.player_address[:2]
        snap = service.login.lobby.snapshot
        await wait_for(lambda: bool(snap()["game_servers"]) and len(snap()["bot_servers"]) >= 2)
        yield hall, str(host), int(port)


async def wait_for(check: Any, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("never happened")


async def test_a_waiting_player_is_a_seek_and_naming_its_owner_joins_the_table(
    tmp_path: Path,
) -> None:
    async with marias_server(tmp_path) as (hall, host, port):
        people = (PlayerRef(None, None, "human"),)
        me = PlayerRef("ann", "ann", "human")
        ann = asyncio.ensure_future(login(host, port, me, "active", people))
        await wait_for(lambda: [s["owner"] for s in hall.lobby.snapshot("marias")] == ["ann"])
        [seek] = hall.lobby.snapshot("marias")
        assert (seek["kind"], seek["opponent"], seek["seats"]) == ("person", "people", 3)
        # a person who names ann (what "Play them" on the lobby page sends) sits with her;
        # the third seat is a house bot after the fill wait
        bea = asyncio.ensure_future(
            login(host, port, PlayerRef("bea", "bea", "human"), "active", (PlayerRef("ann"),))
        )
        first, second = await asyncio.wait_for(asyncio.gather(ann, bea), 10)
        assert first.group.split(".")[0] == second.group.split(".")[0]  # one group, own tickets
        await wait_for(lambda: hall.lobby.snapshot("marias") == [])


async def test_a_seek_cancelled_in_the_lobby_ends_that_players_wait(tmp_path: Path) -> None:
    async with marias_server(tmp_path) as (hall, host, port):
        async with await CgmlClient.connect(host, port) as client:
            await client.send(
                ConnectPlayer(
                    "active", PlayerRef("ann", "ann", "human"), "marias",
                    (PlayerRef(None, None, "human"),),
                )
            )  # fmt: skip
            await wait_for(lambda: bool(hall.lobby.snapshot("marias")))
            [seek] = hall.lobby.snapshot("marias")
            hall.lobby.cancel(seek["id"], "ann")
            message = await client.recv(5)
            assert isinstance(message, Error) and message.code == "SEEK_CANCELLED"
            assert await client.recv(5) is None  # and the connection is closed
        assert hall.lobby.snapshot("marias") == []


async def test_each_player_waits_its_own_fill_wait_before_bots_sit_down(tmp_path: Path) -> None:
    async with marias_server(tmp_path) as (hall, host, port):
        # <connect fill="60">: ann waits a minute for people (the server's own wait is 0.05 s)
        ann = asyncio.ensure_future(
            login(host, port, PlayerRef("ann", "ann", "human"), "active", fill=60)
        )
        await wait_for(lambda: bool(hall.lobby.snapshot("marias")))
        await asyncio.sleep(0.5)
        [seek] = hall.lobby.snapshot("marias")
        assert (seek["owner"], seek["fill"]) == ("ann", 60) and not ann.done()
        # carl will not wait: the group forms now, with ann, carl and a house bot
        carl = await asyncio.wait_for(
            login(host, port, PlayerRef("carl", "carl", "human"), "active", fill=0), 10
        )
        first = await asyncio.wait_for(ann, 10)
        assert first.group.split(".")[0] == carl.group.split(".")[0]
        assert sorted(p.race for p in carl.players) == ["bot", "human"]
