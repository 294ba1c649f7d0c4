"""The CGML bot server: a passive source of bots at the login server.

It connects to the login server's player port as ``connect status="passive"`` (race ``bot``,
with its house-bot token when the hall reserved its name) and reports ``<load>`` = running
bots × 100 / capacity, after connecting and whenever a bot starts or finishes. On
``connect status="complete"`` it starts a bot of its strategy with the id the login server
allocated (Herna's ``playerid`` attribute), and the bot joins the super game server with the
ticket it was sent and plays the group (:func:`herna.clients.cgml.play_group`). A lost login
server is reached again with growing waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from herna.clients.cgml import Backoff, BotDecider, CgmlClient, CgmlClientError, play_group
from herna.protocols.cgml.messages import (
    GAME_MARIAS,
    ConnectComplete,
    ConnectPlayer,
    Disconnect,
    Error,
    Load,
    Message,
    PlayerRef,
    public_group,
)

log = logging.getLogger("herna.cgml.bots")

STABLE_LINK = 10.0
"""Seconds a link to the login server must have lasted for the next attempt to start again
from the shortest wait (a server that accepts and drops at once is not hammered)."""


class BotServer:
    def __init__(
        self,
        server_id: str = "bots",
        name: str | None = None,
        strategy: str = "heuristic",
        capacity: int = 100,
        delay: float = 0.0,
        token: str | None = None,
    ) -> None:
        self.id = server_id
        self.token = token
        """Token of its name (a house bot's, from ``Identity.reserve_house_bot``)."""
        self.name = name or f"{strategy}-bot"
        self.strategy = strategy
        self.capacity = max(1, capacity)
        self.delay = delay
        self.running: set[asyncio.Task[None]] = set()
        self.started = 0
        self.finished = 0
        self.failed = 0
        self.games = 0
        self.client: CgmlClient | None = None
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.last_load: int | None = None

    @property
    def load(self) -> int:
        return min(100, len(self.running) * 100 // self.capacity)

    async def start(self, login_host: str, login_port: int) -> None:
        self._task = asyncio.create_task(self._loop(login_host, login_port))

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for task in list(self.running):
            task.cancel()
        await asyncio.gather(*self.running, return_exceptions=True)
        if self.client is not None:
            await self.client.close()

    async def _loop(self, host: str, port: int) -> None:
        waits = Backoff()
        while not self._stopping:
            try:
                client = await CgmlClient.connect(host, port)
            except OSError as e:
                delay = waits.next()
                log.warning(
                    "bot server %s: login server %s:%s not reachable (%s); again in %.1f s",
                    self.id,
                    host,
                    port,
                    e,
                    delay,
                )
                await asyncio.sleep(delay)
                continue
            self.client = client
            since = asyncio.get_running_loop().time()
            try:
                await client.send(
                    ConnectPlayer(
                        "passive",
                        PlayerRef(self.id, self.name, "bot"),
                        GAME_MARIAS,
                        token=self.token,
                    )
                )
                self._report_load(force=True)
                self.connected.set()
                while True:
                    message = await client.recv()
                    if message is None:
                        break
                    self._handle(message)
            except (CgmlClientError, ConnectionError, OSError) as e:
                log.warning("bot server %s: login link failed: %s", self.id, e)
            finally:
                self.connected.clear()
                self.client = None
                await client.close()
            if not self._stopping:
                if asyncio.get_running_loop().time() - since >= STABLE_LINK:
                    waits.reset()
                delay = waits.next()
                log.warning(
                    "bot server %s: lost the login server; logging in again in %.1f s",
                    self.id,
                    delay,
                )
                await asyncio.sleep(delay)

    def _handle(self, message: Message) -> None:
        if isinstance(message, ConnectComplete):
            self._start_bot(message)
        elif isinstance(message, Error):
            log.warning(
                "bot server %s: login server says %s (%s)", self.id, message.reason, message.code
            )
        elif isinstance(message, Disconnect):
            log.warning("bot server %s: login server disconnects: %s", self.id, message.reason)

    def _start_bot(self, complete: ConnectComplete) -> None:
        pid = complete.playerid or f"{self.id}.{self.started + 1}"
        player = PlayerRef(pid, self.name, "bot")
        decider = BotDecider(self.strategy, delay=self.delay)
        task = asyncio.create_task(self._run_bot(complete, player, decider))
        self.running.add(task)
        self.started += 1
        task.add_done_callback(self._bot_done)
        self._load_changed()

    async def _run_bot(
        self, complete: ConnectComplete, player: PlayerRef, decider: BotDecider
    ) -> None:
        try:
            summary = await play_group(complete, player, decider)
            self.games += summary.games
        except (CgmlClientError, OSError, TimeoutError) as e:
            self.failed += 1
            log.info("bot %s in group %s stopped: %s", player.id, public_group(complete.group), e)
        except Exception:
            self.failed += 1
            log.exception("bot %s in group %s failed", player.id, public_group(complete.group))

    def _bot_done(self, task: asyncio.Task[None]) -> None:
        self.running.discard(task)
        self.finished += 1
        if not self._stopping:
            self._load_changed()

    def _load_changed(self) -> None:
        self._report_load()

    def _report_load(self, force: bool = False) -> None:
        client = self.client
        load = self.load
        if client is None or client.closed or (load == self.last_load and not force):
            return
        self.last_load = load
        client.send_nowait(Load(load))

    def snapshot(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "strategy": self.strategy,
            "running": len(self.running),
            "capacity": self.capacity,
            "load": self.load,
            "started": self.started,
            "games": self.games,
            "connected": self.connected.is_set(),
        }
