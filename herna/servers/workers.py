"""Game worker processes behind one front (``herna serve --workers N``), for any TCP game.

The serving process — the *front* — keeps what decides who plays whom (logins, reserved
names, the lobby); a game's connections travel to a worker process for the game and back
afterwards (:mod:`herna.servers.handoff`), so each table has exactly one authority at every
moment and nothing is relayed. This module is the part every game shares:

* :class:`Front` starts and replaces the workers, picks the least busy one, forwards the
  workers' spectator events to the hall's bus (batched every :data:`EVENT_BATCH_SECONDS`)
  and stops them;
* :class:`WorkerProcess` is the worker's side: its control link, its own records store on the
  same database (a record is journaled in the process that decides it, before anybody hears
  the result), and the event forwarding;
* :func:`movable`, :func:`let_go`, :func:`arrive` and :func:`go_on` move one
  :class:`~herna.servers.tcp.TcpPeer` out of and into a process without losing a byte.

Each game adds its tables and messages: :mod:`herna.servers.onitama.workers`,
:mod:`herna.servers.tiles.workers`.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import socket
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from herna.hall.bridge import is_postgres
from herna.hall.events import EventBus, GameEvent, Subscription
from herna.hall.journal import journal_dir_for
from herna.hall.records import RecordStore
from herna.servers.handoff import Channel, attach, detach, start_worker
from herna.servers.tcp import TcpPeer

log = logging.getLogger("herna.workers")

WRITE_LIMIT = 1 << 20
"""Bytes queued for a client that does not read before it is cut off (the game's own limit
where it has one)."""
EVENT_BATCH_SECONDS = 0.01
"""How often a worker sends its tables' events to the front."""
EVENTS_PER_MESSAGE = 200
"""Events in one control message (well below its size limit)."""
DRAIN_SECONDS = 5.0
"""How long a worker waits for a client to read what it was sent before handing it back."""
RESPAWN_SECONDS = 1.0
"""Pause before a worker that died is replaced."""

C = TypeVar("C")


# -- starting -------------------------------------------------------------------------------
def worker_count(args: argparse.Namespace) -> int:
    """``herna serve --workers N``: game worker processes per game that has them."""
    return int(getattr(args, "workers", None) or 0)


def worker_log_args(args: argparse.Namespace) -> list[str]:
    """The logging options of ``herna serve``, for its workers."""
    return [
        "--log-level",
        str(getattr(args, "log_level", None) or "INFO"),
        "--log-format",
        str(getattr(args, "log_format", None) or "text"),
    ]


def shared_with_workers(database_url: str, workers: int, game: str) -> bool:
    """Whether ``game`` may run ``workers`` worker processes on this database (said when not,
    and what SQLite means for them)."""
    if workers <= 0:
        return False
    if journal_dir_for(database_url) is None:
        log.warning(
            "--workers needs a database file or PostgreSQL (an in-memory database cannot be "
            "shared with worker processes): every %s game runs in this process",
            game,
        )
        return False
    if not is_postgres(database_url):
        log.warning(
            "%s runs %d game workers on SQLite: they must stay on this machine (several "
            "machines need PostgreSQL; docs/scaling.md)",
            game,
            workers,
        )
    return True


# -- one connection -------------------------------------------------------------------------
def movable(peer: object) -> bool:
    """Whether ``peer``'s connection can change process now without losing a byte: a TCP
    connection, open, with nothing queued to write."""
    if not isinstance(peer, TcpPeer) or peer.transport is None:
        return False
    transport = peer.transport
    return not transport.is_closing() and transport.get_write_buffer_size() == 0


def is_open(peer: object) -> bool:
    return (
        isinstance(peer, TcpPeer) and peer.transport is not None and not peer.transport.is_closing()
    )


def let_go(peer: object) -> socket.socket | None:
    """Take ``peer``'s socket out of this process (None: it is gone or has bytes queued).
    The caller has already made its hub forget the connection, so that the transport's
    ``connection_lost`` finds nothing to do."""
    if not isinstance(peer, TcpPeer) or peer.transport is None:
        return None
    return detach(peer.transport)


async def arrive(
    sock: socket.socket, hub: Any, make: Callable[[TcpPeer[C]], C], write_limit: int = WRITE_LIMIT
) -> C:
    """Serve ``sock``, a connection handed over from another process, with a
    :class:`TcpPeer` whose client ``make`` builds (its protocol state continued). It does not
    read until :func:`go_on`: what the client sent meanwhile waits in the kernel until its
    player and table are in place."""

    def made(peer: TcpPeer[C]) -> C:
        assert peer.transport is not None
        peer.transport.pause_reading()
        return make(peer)

    peer = await attach(sock, lambda: TcpPeer(hub, write_limit, adopt=made))
    assert isinstance(peer, TcpPeer) and peer.client is not None
    client: C = peer.client
    return client


def go_on(peer: object) -> None:
    """Start reading an arrived connection (see :func:`arrive`)."""
    if is_open(peer):
        assert isinstance(peer, TcpPeer) and peer.transport is not None
        peer.transport.resume_reading()


async def drained(peers: Sequence[object], seconds: float = DRAIN_SECONDS) -> None:
    """Wait (at most ``seconds``) until every open peer has written out what it was sent."""
    waited = 0.0
    while waited < seconds and any(is_open(p) and not movable(p) for p in peers):
        await asyncio.sleep(0.005)
        waited += 0.005


class Tasks:
    """Tasks started from callbacks, kept until done (the loop keeps only weak references)."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def cancel(self) -> None:
        for task in list(self._tasks):
            task.cancel()


# -- the front ------------------------------------------------------------------------------
@dataclass
class Worker:
    index: int
    channel: Channel
    process: asyncio.subprocess.Process
    tables: set[str] = field(default_factory=set)


class Front:
    """The front's side of one game's workers. Subclasses say what a table is
    (:meth:`received` for their own messages, :meth:`lost` for a worker's tables)."""

    game = ""
    """The game's name, as ``python -m herna.cli.worker GAME`` takes it."""

    def __init__(
        self,
        bus: EventBus,
        settings: Any,
        count: int,
        database_url: str,
        log_args: Sequence[str] = (),
    ) -> None:
        self.bus = bus
        self.settings = settings
        self.count = count
        self.database_url = database_url
        self.log_args = list(log_args)
        self.workers: dict[int, Worker] = {}
        self.closing = False
        self.handed = 0
        """Tables handed to workers so far."""
        self.tasks = Tasks()

    async def start(self) -> None:
        for i in range(self.count):
            await self._spawn(i)

    async def _spawn(self, index: int) -> None:
        args = [self.game, "--database-url", self.database_url, "--index", str(index)]
        process, sock = await start_worker("herna.cli.worker", [*args, *self.log_args])
        channel = Channel(
            sock,
            lambda msg, socks: self._received(index, msg, socks),
            lambda: self._lost(index),
        )
        channel.send(("hello", self.settings))
        self.workers[index] = Worker(index, channel, process)
        log.info("%s game worker %d started (pid %d)", self.game, index, process.pid)

    def least_busy(self) -> Worker | None:
        if self.closing or not self.workers:
            return None
        return min(self.workers.values(), key=lambda w: (len(w.tables), w.index))

    def hand(
        self, worker: Worker, table_id: str, packed: bytes, socks: list[socket.socket]
    ) -> None:
        """Send a table (packed by ``worker.channel.pack`` before its sockets were taken out
        of this process: one too long to send stays here) and its sockets."""
        worker.channel.send_packed(packed, socks)
        worker.tables.add(table_id)
        self.handed += 1

    def table_ended(self, index: int, table_id: str) -> None:
        worker = self.workers.get(index)
        if worker is not None:
            worker.tables.discard(table_id)

    def _received(self, index: int, msg: Any, socks: list[socket.socket]) -> None:
        if msg[0] == "events":
            for e in msg[1]:
                self.shown(e)
                self.bus.publish(GameEvent(e.game, e.table, e.kind, e.data, e.ts))
            return
        if not self.received(index, msg[0], msg[1], socks):
            log.error("%s game worker %d sent %r", self.game, index, msg[0])
            for s in socks:
                s.close()

    def shown(self, event: GameEvent) -> None:
        """An event of a table that runs in a worker (before the hall's bus gets it)."""

    def received(self, index: int, kind: str, body: Any, socks: list[socket.socket]) -> bool:
        """A message of the game's own; False: not one it knows."""
        return False

    def lost(self, tables: set[str]) -> None:
        """A worker died with these tables (their connections died with it)."""

    def _lost(self, index: int) -> None:
        worker = self.workers.pop(index, None)
        if worker is None:
            return
        if not self.closing:
            log.error(
                "%s game worker %d ended; its %d games are lost (finished games are in its "
                "journal)",
                self.game,
                index,
                len(worker.tables),
            )
        self.lost(worker.tables)
        if not self.closing:
            self.tasks.start(self._respawn(index))

    async def _respawn(self, index: int) -> None:
        await asyncio.sleep(RESPAWN_SECONDS)
        if not self.closing and index not in self.workers:
            await self._spawn(index)

    def snapshot(self) -> dict[str, Any]:
        return {
            "workers": [
                {"index": w.index, "pid": w.process.pid, "tables": len(w.tables)}
                for w in self.workers.values()
            ],
            "handed": self.handed,
        }

    async def stop(self) -> None:
        self.closing = True
        for worker in list(self.workers.values()):
            worker.channel.send(("stop", None))
        for worker in list(self.workers.values()):
            try:
                await asyncio.wait_for(worker.process.wait(), 15)
            except TimeoutError:
                log.error("%s game worker %d did not stop; killing it", self.game, worker.index)
                worker.process.kill()
                await worker.process.wait()
            worker.channel.close()
        self.tasks.cancel()


# -- the worker -----------------------------------------------------------------------------
class WorkerProcess(ABC):
    """The worker's side: its control link, records and event forwarding. Subclasses build
    their hub in :meth:`hello` and take the game's messages in :meth:`received`."""

    def __init__(self, channel_sock: socket.socket, database_url: str) -> None:
        self.database_url = database_url
        self.stopped = asyncio.Event()
        self.channel = Channel(channel_sock, self._received, self.stopped.set)
        self.bus = EventBus(history=16)
        self.records: RecordStore | None = None
        self.tasks = Tasks()
        self._events: Subscription | None = None

    def _received(self, msg: Any, socks: list[socket.socket]) -> None:
        kind, body = msg
        if kind == "hello":
            self.records = RecordStore(self.database_url)
            self.records.recover()
            self.records.start_writing()
            self._events = self.bus.subscribe(limit=1_000_000)
            self.hello(body)
            self.tasks.start(self._forward_events())
        elif kind == "stop":
            self.stopped.set()
        elif not self.received(kind, body, socks):
            for s in socks:
                s.close()

    @abstractmethod
    def hello(self, settings: Any) -> None:
        """The front's settings: build the hub (its records store is open by now)."""

    @abstractmethod
    def received(self, kind: str, body: Any, socks: list[socket.socket]) -> bool:
        """A message of the game's own; False: not one it knows."""

    @abstractmethod
    def shutdown(self) -> None:
        """End every game (the worker is stopping)."""

    def send(self, message: Any, socks: Sequence[socket.socket] = ()) -> None:
        self.channel.send(message, socks)

    async def _forward_events(self) -> None:
        while not self.stopped.is_set():
            await asyncio.sleep(EVENT_BATCH_SECONDS)
            self._send_events()

    def _send_events(self) -> None:
        if self._events is None or self.channel.is_closed:
            return
        events = self._events.drain()
        for i in range(0, len(events), EVENTS_PER_MESSAGE):
            self._send_batch(events[i : i + EVENTS_PER_MESSAGE])

    def _send_batch(self, events: list[GameEvent]) -> None:
        """As many messages as the link's size limit needs; an event that does not fit even
        alone is not shown live (its record is complete anyway), as over the PostgreSQL
        bridge."""
        packed = self.channel.pack(("events", events))
        if packed is not None:
            self.channel.send_packed(packed)
        elif len(events) > 1:
            half = len(events) // 2
            self._send_batch(events[:half])
            self._send_batch(events[half:])
        else:
            log.warning(
                "event %s of table %s too long to show live", events[0].kind, events[0].table
            )

    async def run(self) -> None:
        await self.stopped.wait()
        self.shutdown()
        self._send_events()
        self.tasks.cancel()
        if self.records is not None:
            self.records.close()
