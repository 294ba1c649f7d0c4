"""Tile games in worker processes (``herna serve --workers N``).

As for Onitama (:mod:`herna.servers.onitama.workers`): the front keeps names, the lobby and
the waiting tables; when a table's game starts and every seat is a network client or a house
bot, :class:`TilesFront` hands the table — rules, seats, seat secrets, house bots and its
:class:`~herna.hall.match.Match` — and the players' sockets to the least busy worker, which
sends ``started`` and runs the whole game: actions, turn clocks, stand-ins, players who
drop out and come back, the record and the spectator events. Connections come back to the
front when the game is over, when a player leaves the table (``leave``), or when a ``join``
that tried to take a seat back was refused. While a player plays in a worker the front
keeps its name claimed, so nobody else can use it.

What stays in the front: the showcase, tables with a browser seat, tournament tables, and
any table whose client has unsent bytes queued or a rules file being checked.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Sequence
from functools import partial
from typing import Any

from herna.core.clock import MonotonicClock
from herna.hall.events import GameEvent
from herna.hall.identity import Identity
from herna.hall.lobby import Lobby
from herna.protocols import tiles as proto
from herna.servers.tcp import TcpPeer
from herna.servers.tiles.hub import TilesHub
from herna.servers.tiles.tables import Client, Table, TilesSettings
from herna.servers.tiles.tcp import WRITE_BUFFER_LIMIT
from herna.servers.workers import Front, WorkerProcess, arrive, drained, go_on, let_go, movable

log = logging.getLogger("herna.tiles")


def can_move(client: Client | None) -> bool:
    return client is not None and not client.checking and movable(client.peer)


def continued(hub: TilesHub, conn: dict[str, Any], peer: TcpPeer[Client]) -> Client:
    """The client of a connection that arrives from another process, continuing ``conn``."""
    client = Client(peer)
    client.conn = proto.ServerConnection.restore(conn)
    hub._clients.add(client)
    return client


async def arrived(hub: TilesHub, sock: socket.socket, conn: dict[str, Any]) -> Client:
    return await arrive(sock, hub, partial(continued, hub, conn), WRITE_BUFFER_LIMIT)


def leave(hub: TilesHub, client: Client) -> socket.socket | None:
    """``client`` leaves this process: the hub forgets it (its name stays claimed: the caller
    decides), its socket is returned."""
    hub._clients.discard(client)
    hub.deadlines.done(client)
    return let_go(client.peer)


# -- the front ------------------------------------------------------------------------------
class TilesFront(Front):
    """The front's side: gives workers tables, passes returning players on, takes
    connections back."""

    game = "tiles"

    def __init__(
        self, hub: TilesHub, count: int, database_url: str, log_args: Sequence[str] = ()
    ) -> None:
        super().__init__(hub.bus, hub.settings, count, database_url, log_args)
        self.hub = hub
        self.away: dict[str, tuple[str, Client]] = {}
        """Players in a worker, by name: their table and the connection object that holds
        the name in the front's book meanwhile."""

    async def start(self) -> None:
        await super().start()
        self.hub.elsewhere = self

    def take(self, table: Table) -> bool:
        """Hand ``table`` (its game just set up, before ``started``) to a worker; False: it
        stays here."""
        worker = self.least_busy()
        if worker is None or table.showcase or table.tournament is not None:
            return False
        slots = [s for s in table.seats if s is not None]
        if len(slots) != len(table.seats) or not any(s.client for s in slots):
            return False
        if not all(s.bot is not None if s.client is None else can_move(s.client) for s in slots):
            return False
        clients = {i: s.client for i, s in enumerate(slots) if s.client is not None}
        seats = [(i, client.conn.export()) for i, client in clients.items()]
        for slot in slots:
            slot.client = None  # the table travels without this process's connections
        table.seek = None
        table.seen.clear()  # views for this process's readers: the worker makes its own
        packed = worker.channel.pack(("table", {"table": table, "seats": seats}))
        if packed is None:  # too long for the link (a huge rules file): it stays here
            for i, client in clients.items():
                slots[i].client = client
            return False
        socks: list[socket.socket] = []
        for i, client in clients.items():
            sock = leave(self.hub, client)
            assert sock is not None  # can_move said so, in this same step
            socks.append(sock)
            client.table, client.seat = None, -1
            self.away[slots[i].name] = (table.id, client)
        self.hand(worker, table.id, packed, socks)
        table.elsewhere = worker.index
        return True

    def resume(self, client: Client, msg: proto.Join) -> bool:
        """A ``join`` that takes a seat back at a table whose game runs in a worker: the
        connection goes there (the worker checks the seat secret). False: not such a table."""
        table = self.hub.tables.get(msg.table or "")
        if table is None or table.elsewhere is None:
            return False
        worker = self.workers.get(table.elsewhere)
        if worker is None or not can_move(client):
            self.hub._error(client, "BUSY", "try again in a moment", msg.id)
            return True
        conn = client.conn.export()
        self.hub.names.release(client)
        sock = leave(self.hub, client)
        assert sock is not None
        worker.channel.send(("resume", {"conn": conn, "join": msg}), [sock])
        return True

    def shown(self, event: GameEvent) -> None:
        table = self.hub.tables.get(event.table)
        view = event.data.get("view")
        if table is not None and table.elsewhere is not None and isinstance(view, dict):
            table.shown = view

    def received(self, index: int, kind: str, body: Any, socks: list[socket.socket]) -> bool:
        if kind != "back":
            return False
        self.tasks.start(self._back(index, body, socks))
        return True

    async def _back(self, index: int, info: dict[str, Any], socks: list[socket.socket]) -> None:
        """Connections back from a worker (with the id of their table when its game is
        over): each is in the lobby again, under the name it played as."""
        hub = self.hub
        for (name, conn), sock in zip(info["clients"], socks, strict=True):
            client = await arrived(hub, sock, conn)
            away = self.away.pop(name, None) if name else None
            if away is not None:
                hub.names.release(away[1])
            if name and not hub.closing:
                hub.names.claim(client, name)
            go_on(client.peer)
        table_id = info["table"]
        if table_id is not None:
            self.table_ended(index, table_id)
            self._forget(table_id)

    def _forget(self, table_id: str) -> None:
        table = self.hub.tables.get(table_id)
        if table is None or table.elsewhere is None:
            return
        del self.hub.tables[table_id]
        self.hub.stats.games_finished += 1
        for slot in table.seats:
            away = self.away.get(slot.name) if slot is not None else None
            # Only this table's: a player who left it may be playing elsewhere by now.
            if slot is not None and away is not None and away[0] == table_id:
                del self.away[slot.name]
                self.hub.names.release(away[1])

    def lost(self, tables: set[str]) -> None:
        for table_id in tables:
            self._forget(table_id)


# -- the worker -----------------------------------------------------------------------------
class TilesWorker(WorkerProcess):
    """The worker's side: runs the tables it is given, hands connections back."""

    hub: TilesHub

    def hello(self, settings: TilesSettings) -> None:
        assert self.records is not None
        clock = MonotonicClock()
        hub = TilesHub(self.bus, self.records, clock, settings, None, Identity(), Lobby())
        hub.give_back = self._give_back
        self.hub = hub

    def received(self, kind: str, body: Any, socks: list[socket.socket]) -> bool:
        if kind == "table":
            self.tasks.start(self._table(body, socks))
        elif kind == "resume":
            self.tasks.start(self._resume(body, socks))
        else:
            return False
        return True

    async def _table(self, plan: dict[str, Any], socks: list[socket.socket]) -> None:
        hub = self.hub
        table: Table = plan["table"]
        table.elsewhere = None
        clients = []
        for (seat, conn), sock in zip(plan["seats"], socks, strict=True):
            client = await arrived(hub, sock, conn)
            slot = table.seats[seat]
            assert slot is not None
            slot.client = client
            client.table, client.seat = table, seat
            hub.names.claim(client, slot.name)
            clients.append(client)
        hub.tables[table.id] = table
        hub.stats.games_started += 1
        hub.open(table)
        for client in clients:
            go_on(client.peer)

    async def _resume(self, info: dict[str, Any], socks: list[socket.socket]) -> None:
        hub = self.hub
        client = await arrived(hub, socks[0], info["conn"])
        hub.handle(client, info["join"])
        if client.table is None and client in hub._clients:
            self._give_back(None, [client])  # refused (BAD_SECRET, NO_SUCH_TABLE …)
        else:
            go_on(client.peer)

    def _give_back(self, table_id: str | None, clients: list[Client]) -> None:
        """These connections go back to the front once each has been written out; meanwhile
        nothing more is read from them."""
        for client in clients:
            peer = client.peer
            if isinstance(peer, TcpPeer) and peer.transport is not None:
                peer.transport.pause_reading()
        self.tasks.start(self._hand_back(table_id, clients))

    async def _hand_back(self, table_id: str | None, clients: list[Client]) -> None:
        hub = self.hub
        await drained([c.peer for c in clients])
        back: list[tuple[str | None, dict[str, Any]]] = []
        socks: list[socket.socket] = []
        for client in clients:
            name = hub.names.name_of(client)
            hub.names.release(client)
            conn = client.conn.export()
            sock = leave(hub, client)
            if sock is None:
                client.peer.close()
                continue
            back.append((name, conn))
            socks.append(sock)
        self.send(("back", {"table": table_id, "clients": back}), socks)

    def shutdown(self) -> None:
        if hasattr(self, "hub"):
            self.hub.shutdown()
