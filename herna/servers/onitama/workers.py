"""Onitama games in worker processes (``herna serve --workers N``).

The serving process — the *front* — keeps everything about who plays whom: logins, reserved
names, the lobby, house bots, browser seats and tournaments. When the lobby pairs two network
clients, :class:`Elsewhere` hands both sockets (``SCM_RIGHTS``, :mod:`herna.servers.handoff`)
with the new table — its :class:`~herna.hall.match.Match`, seat secrets and each connection's
protocol state — to the least busy worker. From then on the worker alone runs that game: it
reads and writes both sockets itself, applies the moves, runs the clocks and the reconnect
window, journals the record (its own :class:`~herna.hall.records.RecordStore` on the same
database) and sends its spectator events to the front's bus in batches. When the game is over
it hands the connections back and the front puts the players in the lobby again. One table,
one authority, at every moment.

What stays in the front: tables with a house bot or a browser seat (their peers live in the
front), booked tournament games, planned games (``herna match``), and any table whose client
has unsent bytes queued (handing it off would lose them). A player who drops out of a game
that runs in a worker and logs in again reaches the front, which checks the seat secret (or
the name's token) and passes the new connection on to that worker.

A worker process is ``python -m herna.cli.worker onitama …`` (:mod:`herna.cli.worker`).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from herna.core.clock import MonotonicClock
from herna.hall.events import EventBus, GameEvent
from herna.hall.identity import Identity, SeatKey
from herna.hall.lobby import Lobby
from herna.hall.records import RecordStore
from herna.protocols import onitama as proto
from herna.protocols.onitama import ServerConnection
from herna.servers.handoff import Channel, attach, detach, start_worker
from herna.servers.onitama.hub import OnitamaHub
from herna.servers.onitama.tables import Client, OnitamaSettings, Player, Table
from herna.servers.tcp import TcpPeer

log = logging.getLogger("herna.onitama")

WRITE_LIMIT = 1 << 20
EVENT_BATCH_SECONDS = 0.01
"""How often a worker sends the events of its tables to the front."""
DRAIN_SECONDS = 5.0
"""How long a worker waits for a client to read what it was sent before handing it back."""
RESPAWN_SECONDS = 1.0


def can_move(client: Client | None) -> bool:
    """Whether ``client``'s connection can change process now without losing a byte."""
    if client is None or client._held is not None:
        return False
    peer = client.peer
    if not isinstance(peer, TcpPeer) or peer.transport is None:
        return False
    transport = peer.transport
    return not transport.is_closing() and transport.get_write_buffer_size() == 0


def adopt(hub: OnitamaHub, conn: dict[str, Any]) -> TcpPeer[Client]:
    """A transport protocol for a connection that arrives from another process: its client
    continues the protocol state ``conn`` (no login deadline: it has logged in). It does not
    read until :func:`go_on`: what the client sent meanwhile waits until its player and
    table are in place."""

    def made(peer: TcpPeer[Client]) -> Client:
        assert peer.transport is not None
        peer.transport.pause_reading()
        client = Client(peer)
        client.conn = ServerConnection.restore(conn)
        hub._clients.add(client)
        return client

    return TcpPeer(hub, WRITE_LIMIT, adopt=made)


async def arrive(hub: OnitamaHub, sock: socket.socket, conn: dict[str, Any]) -> Client:
    """The client of a connection handed over from another process (not reading yet)."""
    peer = await attach(sock, partial(adopt, hub, conn))
    assert isinstance(peer, TcpPeer) and peer.client is not None
    client: Client = peer.client
    return client


def go_on(client: Client) -> None:
    """Start reading an arrived connection (see :func:`adopt`)."""
    peer = client.peer
    if isinstance(peer, TcpPeer) and peer.transport is not None and not peer.transport.is_closing():
        peer.transport.resume_reading()


def let_go(hub: OnitamaHub, client: Client) -> socket.socket | None:
    """Take ``client``'s socket out of this process (None: it is gone or cannot move)."""
    hub._clients.discard(client)
    hub.deadlines.done(client)
    client.player = None
    peer = client.peer
    assert isinstance(peer, TcpPeer) and peer.transport is not None
    return detach(peer.transport)


# -- the front ------------------------------------------------------------------------------
@dataclass
class Worker:
    index: int
    channel: Channel
    process: asyncio.subprocess.Process
    tables: set[str] = field(default_factory=set)


class Elsewhere:
    """The front's side: starts the workers, gives them tables, takes players back."""

    def __init__(
        self, hub: OnitamaHub, count: int, database_url: str, log_args: Sequence[str] = ()
    ) -> None:
        self.hub = hub
        self.count = count
        self.database_url = database_url
        self.log_args = list(log_args)
        self.workers: dict[int, Worker] = {}
        self.closing = False
        self.handed = 0
        """Tables handed to workers so far."""
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        for i in range(self.count):
            await self._spawn(i)
        self.hub.elsewhere = self

    async def _spawn(self, index: int) -> None:
        args = ["onitama", "--database-url", self.database_url, "--index", str(index)]
        process, sock = await start_worker("herna.cli.worker", [*args, *self.log_args])
        channel = Channel(
            sock,
            lambda msg, socks: self._received(index, msg, socks),
            lambda: self._lost(index),
        )
        channel.send(("hello", self.hub.settings))
        self.workers[index] = Worker(index, channel, process)
        log.info("Onitama game worker %d started (pid %d)", index, process.pid)

    # -- handing tables over ----------------------------------------------------------------
    def take(self, table: Table) -> bool:
        """Hand ``table`` (just formed, before ``START``) to a worker; False: it stays."""
        if self.closing or not self.workers or self.hub.plan is not None:
            return False
        if "tournament" in table.match.meta or table.state.is_terminal():
            return False
        if not all(can_move(p.client) for p in table.players):
            return False
        worker = min(self.workers.values(), key=lambda w: (len(w.tables), w.index))
        seats, socks = [], []
        for player in table.players:
            client = player.client
            assert client is not None and player.seat_key is not None
            seats.append(
                {
                    "name": player.name,
                    "kind": player.kind,
                    "verified": player.verified,
                    "spec": player.spec,
                    "one_game": player.one_game,
                    "secret": player.seat_key.secret,
                    "conn": client.conn.export(),
                }
            )
            sock = let_go(self.hub, client)
            assert sock is not None  # can_move said so, in this same step
            socks.append(sock)
            player.client = None
        worker.channel.send(
            ("table", {"match": table.match, "seats": seats, "clock_left": table.clock_left}),
            socks,
        )
        table.elsewhere = worker.index
        worker.tables.add(table.id)
        self.handed += 1
        return True

    def reconnect(self, client: Client, player: Player, table: Table) -> None:
        """``player`` proved the seat of ``table`` (which runs in a worker) on ``client``: the
        connection goes to that worker, which takes the seat back."""
        worker = self.workers.get(table.elsewhere if table.elsewhere is not None else -1)
        if worker is None or not can_move(client):
            client.send(client.conn.out.error(proto.NOT_IN_GAME))
            client.peer.close()
            return
        conn = client.conn.export()
        sock = let_go(self.hub, client)
        assert sock is not None
        worker.channel.send(
            ("reconnect", {"table": table.id, "name": player.name, "conn": conn}), [sock]
        )

    # -- what workers say -------------------------------------------------------------------
    def _received(self, index: int, msg: Any, socks: list[socket.socket]) -> None:
        kind = msg[0]
        if kind == "events":
            self._publish(msg[1])
        elif kind == "ended":
            self._spawn_task(self._ended(index, msg[1], socks))
        elif kind == "bounce":
            self._spawn_task(self._bounced(msg[1], socks))
        else:
            log.error("worker %d sent %r", index, kind)
            for s in socks:
                s.close()

    def _publish(self, events: list[GameEvent]) -> None:
        hub = self.hub
        for e in events:
            table = hub.tables.get(e.table)
            if table is not None and table.elsewhere is not None:
                table.moves = e.data.get("moves", table.moves)
                view = e.data.get("view")
                if view is not None:
                    table.shown = view
            hub.bus.publish(GameEvent(e.game, e.table, e.kind, e.data, e.ts))

    async def _ended(self, index: int, info: dict[str, Any], socks: list[socket.socket]) -> None:
        hub = self.hub
        worker = self.workers.get(index)
        if worker is not None:
            worker.tables.discard(info["table"])
        table = hub.tables.get(info["table"])
        if table is None or table.elsewhere is None:
            for s in socks:
                s.close()
            return
        table.over = True
        hub.stats.games_finished += 1
        hub.stats.moves += table.moves
        returned = iter(socks)
        back: list[Client] = []
        for player, conn in zip(table.players, info["seats"], strict=True):
            if conn is None:
                continue
            client = await arrive(hub, next(returned), conn)
            if player.client is None and player.key in hub.players and not hub.closing:
                player.client = client
                client.player = player
                back.append(client)
            else:
                client.peer.close()
        hub._release(table)
        for client in back:
            go_on(client)

    async def _bounced(self, info: dict[str, Any], socks: list[socket.socket]) -> None:
        """A reconnect that reached the worker after its game had ended."""
        for sock in socks:
            client = await arrive(self.hub, sock, info["conn"])
            go_on(client)
            self.hub._refuse(
                client,
                proto.NAME_IN_USE,
                f"the game of {info['name']!r} has just ended; log in again",
                info["name"],
            )

    def _lost(self, index: int) -> None:
        worker = self.workers.pop(index, None)
        if worker is None:
            return
        if not self.closing:
            log.error(
                "Onitama game worker %d ended; its %d games are lost (finished games are in "
                "its journal)",
                index,
                len(worker.tables),
            )
        for table_id in worker.tables:
            table = self.hub.tables.get(table_id)
            if table is not None:
                table.over = True
                self.hub._release(table, requeue=False)
        if not self.closing:
            self._spawn_task(self._respawn(index))

    async def _respawn(self, index: int) -> None:
        await asyncio.sleep(RESPAWN_SECONDS)
        if not self.closing and index not in self.workers:
            await self._spawn(index)

    def _spawn_task(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
            worker.channel.send(("stop",))
        for worker in list(self.workers.values()):
            try:
                await asyncio.wait_for(worker.process.wait(), 15)
            except TimeoutError:
                log.error("Onitama game worker %d did not stop; killing it", worker.index)
                worker.process.kill()
                await worker.process.wait()
            worker.channel.close()
        for task in list(self._tasks):
            task.cancel()


# -- the worker -----------------------------------------------------------------------------
class GameWorker:
    """The worker's side: runs the tables it is given, hands their players back."""

    def __init__(self, channel_sock: socket.socket, database_url: str) -> None:
        self.database_url = database_url
        self.stopped = asyncio.Event()
        self.channel = Channel(channel_sock, self._received, self.stopped.set)
        self.hub: OnitamaHub | None = None
        self.records: RecordStore | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def _received(self, msg: Any, socks: list[socket.socket]) -> None:
        kind = msg[0]
        if kind == "hello":
            self._hello(msg[1])
        elif kind == "table":
            self._spawn_task(self._table(msg[1], socks))
        elif kind == "reconnect":
            self._spawn_task(self._reconnect(msg[1], socks))
        elif kind == "stop":
            self.stopped.set()
        else:
            for s in socks:
                s.close()

    def _hello(self, settings: OnitamaSettings) -> None:
        self.records = RecordStore(self.database_url)
        self.records.recover()
        self.records.start_writing()
        hub = OnitamaHub(
            EventBus(history=16),
            self.records,
            MonotonicClock(),
            settings,
            None,
            Identity(),
            Lobby(),
        )
        hub.give_back = self._give_back
        self.hub = hub
        self._spawn_task(self._forward_events())

    async def _table(self, plan: dict[str, Any], socks: list[socket.socket]) -> None:
        hub = self.hub
        assert hub is not None
        match = plan["match"]
        players: list[Player] = []
        for seat, sock in zip(plan["seats"], socks, strict=True):
            client = await arrive(hub, sock, seat["conn"])
            player = Player(seat["name"], seat["kind"], client)
            player.verified = seat["verified"]
            player.spec = seat["spec"]
            player.one_game = seat["one_game"]
            player.seat_key = SeatKey(seat["name"], seat["secret"])
            client.player = player
            hub.players[player.key] = player
            players.append(player)
        white, black = players
        table = Table(match.table_id, match, (white, black), started=hub.clock.now())
        table.clock_left = plan["clock_left"]
        for i, player in enumerate(players):
            player.table = table
            player.seat = i
        hub.tables[table.id] = table
        hub.stats.games_started += 1
        hub.open(table)
        for player in players:
            if player.client is not None:
                go_on(player.client)

    async def _reconnect(self, info: dict[str, Any], socks: list[socket.socket]) -> None:
        hub = self.hub
        assert hub is not None
        client = await arrive(hub, socks[0], info["conn"])
        table = hub.tables.get(info["table"])
        player = next((p for p in table.players if p.name == info["name"]), None) if table else None
        if table is None or table.over or player is None:
            conn = client.conn.export()
            sock = let_go(hub, client)
            if sock is not None:
                self.channel.send(("bounce", {"conn": conn, "name": info["name"]}), [sock])
            return
        hub._reconnect(client, player, table)
        go_on(client)

    def _give_back(self, table: Table) -> None:
        """The game is over (``GAME_OVER`` sent): its connections go back to the front once
        each has been written out."""
        hub = self.hub
        assert hub is not None
        for player in table.players:
            if hub.players.get(player.key) is player:
                del hub.players[player.key]
            if player.timer is not None:
                player.timer.cancel()
                player.timer = None
            client = player.client
            if client is not None:
                client.resume()
                if isinstance(client.peer, TcpPeer) and client.peer.transport is not None:
                    client.peer.transport.pause_reading()
        self._spawn_task(self._hand_back(table))

    async def _hand_back(self, table: Table) -> None:
        hub = self.hub
        assert hub is not None
        waited = 0.0
        while waited < DRAIN_SECONDS and any(
            p.client is not None and not can_move(p.client) and _open(p.client)
            for p in table.players
        ):
            await asyncio.sleep(0.005)
            waited += 0.005
        seats: list[dict[str, Any] | None] = []
        socks: list[socket.socket] = []
        for player in table.players:
            client = player.client
            player.client = None
            sock = None
            conn = client.conn.export() if client is not None else None
            if client is not None:
                sock = let_go(hub, client) if can_move(client) else None
                if sock is None:
                    client.peer.close()
            seats.append(conn if sock is not None else None)
            if sock is not None:
                socks.append(sock)
        self.channel.send(("ended", {"table": table.id, "seats": seats}), socks)

    async def _forward_events(self) -> None:
        hub = self.hub
        assert hub is not None
        sub = hub.bus.subscribe(limit=1_000_000)
        while not self.stopped.is_set():
            await asyncio.sleep(EVENT_BATCH_SECONDS)
            self._send_events(sub.drain())

    def _send_events(self, events: list[GameEvent]) -> None:
        for i in range(0, len(events), 200):  # well below a control message's size
            self.channel.send(("events", events[i : i + 200]))

    def _spawn_task(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def run(self) -> None:
        await self.stopped.wait()
        hub = self.hub
        if hub is not None:
            sub = hub.bus.subscribe()
            hub.shutdown()
            if not self.channel.is_closed:
                self._send_events(sub.drain())
        for task in list(self._tasks):
            task.cancel()
        if self.records is not None:
            self.records.close()


def _open(client: Client) -> bool:
    peer = client.peer
    return (
        isinstance(peer, TcpPeer) and peer.transport is not None and not peer.transport.is_closing()
    )
