"""A whole CGML system on 127.0.0.1 ephemeral ports, and scripted players for tests."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from herna.clients.cgml import BotDecider, CgmlClient, GroupSummary, login, play_group
from herna.core.clock import MonotonicClock
from herna.core.rng import SeedSource
from herna.hall.events import EventBus
from herna.hall.identity import Identity
from herna.hall.records import RecordStore
from herna.protocols.cgml import messages as m
from herna.protocols.cgml.lobby import LobbySettings
from herna.protocols.cgml.player import Decision, PlayerTracker
from herna.servers.cgml.botserver import BotServer
from herna.servers.cgml.gameserver import SuperGameServer
from herna.servers.cgml.login import LoginServer
from herna.servers.cgml.seats import GroupSettings

HOST = "127.0.0.1"

OPEN_STORES: list[RecordStore] = []
"""Record stores made by :func:`make_system`; closed after every test (conftest), so a
failing test cannot leave a writer process behind."""


@dataclass
class System:
    records: RecordStore
    bus: EventBus = field(default_factory=EventBus)
    clock: MonotonicClock = field(default_factory=MonotonicClock)
    login: LoginServer | None = None
    games: list[SuperGameServer] = field(default_factory=list)
    bots: list[BotServer] = field(default_factory=list)

    @property
    def login_port(self) -> int:
        assert self.login is not None
        return self.login.player_address[1]

    async def start_login(
        self,
        fill_wait: float = 0.05,
        stall: float = 10.0,
        player_port: int = 0,
        server_port: int = 0,
        names: Identity | None = None,
    ) -> None:
        self.login = LoginServer(
            self.clock, LobbySettings(fill_wait=fill_wait), stall, names=names or Identity()
        )
        await self.login.start(HOST, player_port, server_port)

    async def add_game_server(
        self,
        settings: GroupSettings,
        stall: float = 10.0,
        name: str = "sgs",
        port: int = 0,
        seed: int | None = None,
    ) -> SuperGameServer:
        assert self.login is not None
        sgs = SuperGameServer(
            self.clock,
            settings,
            bus=self.bus,
            records=self.records,
            stall_timeout=stall,
            name=name,
            seeds=SeedSource(seed) if seed is not None else None,
        )
        await sgs.start(HOST, port, HOST, self.login.server_address[1])
        await asyncio.wait_for(sgs.registered.wait(), 5)
        self.games.append(sgs)
        await self.until(lambda: len(self.login_snapshot()["game_servers"]) >= len(self.games))
        return sgs

    async def add_bot_server(
        self, server_id: str = "bots", strategy: str = "rule", capacity: int = 50
    ) -> BotServer:
        assert self.login is not None
        bots = BotServer(server_id, f"{strategy}-bot", strategy, capacity)
        await bots.start(HOST, self.login_port)
        await asyncio.wait_for(bots.connected.wait(), 5)
        self.bots.append(bots)
        await self.until(
            lambda: any(b["id"] == server_id for b in self.login_snapshot()["bot_servers"])
        )
        return bots

    def login_snapshot(self) -> dict[str, Any]:
        assert self.login is not None
        return self.login.snapshot()

    @staticmethod
    async def until(cond: Callable[[], bool], timeout: float = 10.0) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not cond():
            if loop.time() > end:
                raise AssertionError("condition not reached in time")
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        for b in self.bots:
            await b.stop()
        for g in self.games:
            await g.stop()
        if self.login is not None:
            await self.login.stop()


async def make_system(
    tmp_path: Path,
    settings: GroupSettings | None = None,
    bot_servers: int = 1,
    fill_wait: float = 0.05,
    stall: float = 10.0,
    seed: int | None = None,
) -> System:
    """``seed``: the super game server deals from it (reproducible deals); None: secrets."""
    system = System(RecordStore(f"sqlite:///{tmp_path / 'cgml.db'}"))
    OPEN_STORES.append(system.records)
    await system.start_login(fill_wait, stall)
    await system.add_game_server(settings or GroupSettings(), stall, seed=seed)
    for i in range(bot_servers):
        await system.add_bot_server(f"bots{i or ''}")
    return system


Intercept = Callable[[Decision, PlayerTracker, CgmlClient], Awaitable[m.Message | None]]


class ScriptedDecider:
    """A rule bot whose answers a test may replace (``intercept`` returns a message to send
    instead, or None to let the bot answer)."""

    def __init__(self, intercept: Intercept | None = None, games: int | None = None) -> None:
        self.bot = BotDecider("rule", games=games, seed=1)
        self.intercept = intercept
        self.client: CgmlClient | None = None

    async def decide(self, tracker: PlayerTracker, decision: Decision) -> m.Message:
        if self.intercept is not None and self.client is not None:
            out = await self.intercept(decision, tracker, self.client)
            if out is not None:
                return out
        return await self.bot.decide(tracker, decision)


async def scripted_group(
    port: int,
    pid: str,
    decider: Any,
    opponents: tuple[m.PlayerRef, ...] = (),
    race: str = "bot",
    on_message: Callable[[m.Message, PlayerTracker], None] | None = None,
) -> GroupSummary:
    me = m.PlayerRef(pid, pid.upper(), race)
    complete = await login(HOST, port, me, "active", opponents)

    def connected(client: CgmlClient) -> None:
        if isinstance(decider, ScriptedDecider):
            decider.client = client

    return await play_group(
        complete,
        me,
        decider,
        on_message=on_message,
        tracker=PlayerTracker(pid, rng=random.Random(7)),
        on_connect=connected,
    )
