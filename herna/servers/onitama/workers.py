"""Onitama games in worker processes (``herna serve --workers N``).

The serving process — the *front* — keeps everything about who plays whom: logins, reserved
names, the lobby, house bots, browser seats and tournaments. When the lobby pairs two network
clients, :class:`OnitamaFront` hands both sockets with the new table — its
:class:`~herna.hall.match.Match`, seat secrets and each connection's protocol state — to the
least busy worker (:mod:`herna.servers.workers`). From then on that worker alone runs the
game: it reads and writes both sockets itself, applies the moves, runs the clocks and the
reconnect window, journals the record and sends its spectator events to the front's bus in
batches. When the game is over it hands the connections back and the front puts the players
in the lobby again. One table, one authority, at every moment.

What stays in the front: tables with a house bot or a browser seat (their peers live in the
front), booked tournament games, planned games (``herna match``), and any table whose client
has unsent bytes queued (handing it off would lose them). A player who drops out of a game
that runs in a worker and logs in again reaches the front, which checks the seat secret (or
the name's token) and passes the new connection on to that worker.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Sequence
from functools import partial
from typing import Any

from herna.core.clock import MonotonicClock
from herna.hall.events import GameEvent
from herna.hall.identity import Identity, SeatKey
from herna.hall.lobby import Lobby
from herna.protocols import onitama as proto
from herna.protocols.onitama import ServerConnection
from herna.servers.onitama.hub import OnitamaHub
from herna.servers.onitama.tables import Client, OnitamaSettings, Player, Table
from herna.servers.tcp import TcpPeer
from herna.servers.workers import Front, WorkerProcess, arrive, drained, go_on, let_go, movable

log = logging.getLogger("herna.onitama")


def can_move(client: Client | None) -> bool:
    """Whether ``client``'s connection can change process now without losing a byte."""
    return client is not None and client._held is None and movable(client.peer)


def continued(hub: OnitamaHub, conn: dict[str, Any], peer: TcpPeer[Client]) -> Client:
    """The client of a connection that arrives from another process: it continues the
    protocol state ``conn`` (no login deadline: it has logged in)."""
    client = Client(peer)
    client.conn = ServerConnection.restore(conn)
    hub._clients.add(client)
    return client


async def arrived(hub: OnitamaHub, sock: socket.socket, conn: dict[str, Any]) -> Client:
    return await arrive(sock, hub, partial(continued, hub, conn))


def leave(hub: OnitamaHub, client: Client) -> socket.socket | None:
    """``client`` leaves this process: the hub forgets it, its socket is returned."""
    hub._clients.discard(client)
    hub.deadlines.done(client)
    client.player = None
    return let_go(client.peer)


# -- the front ------------------------------------------------------------------------------
class OnitamaFront(Front):
    """The front's side: gives workers tables, passes reconnects on, takes players back."""

    game = "onitama"

    def __init__(
        self, hub: OnitamaHub, count: int, database_url: str, log_args: Sequence[str] = ()
    ) -> None:
        super().__init__(hub.bus, hub.settings, count, database_url, log_args)
        self.hub = hub

    async def start(self) -> None:
        await super().start()
        self.hub.elsewhere = self

    def take(self, table: Table) -> bool:
        """Hand ``table`` (just formed, before ``START``) to a worker; False: it stays."""
        worker = self.least_busy()
        if worker is None or self.hub.plan is not None:
            return False
        if "tournament" in table.match.meta or table.state.is_terminal():
            return False
        if not all(can_move(p.client) for p in table.players):
            return False
        seats = []
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
        plan = {
            "match": table.match,
            "seats": seats,
            "clock_left": table.clock_left,
            "time_control": (table.time_control, table.increment),
        }
        packed = worker.channel.pack(("table", plan))
        if packed is None:
            return False
        socks = []
        for player in table.players:
            assert player.client is not None
            sock = leave(self.hub, player.client)
            assert sock is not None  # can_move said so, in this same step
            socks.append(sock)
            player.client = None
        self.hand(worker, table.id, packed, socks)
        table.elsewhere = worker.index
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
        sock = leave(self.hub, client)
        assert sock is not None
        info = {"table": table.id, "name": player.name, "conn": conn}
        worker.channel.send(("reconnect", info), [sock])

    def shown(self, event: GameEvent) -> None:
        table = self.hub.tables.get(event.table)
        if table is not None and table.elsewhere is not None:
            table.moves = event.data.get("moves", table.moves)
            view = event.data.get("view")
            if view is not None:
                table.shown = view

    def received(self, index: int, kind: str, body: Any, socks: list[socket.socket]) -> bool:
        if kind == "ended":
            self.tasks.start(self._ended(index, body, socks))
        elif kind == "bounce":
            self.tasks.start(self._bounced(body, socks))
        else:
            return False
        return True

    async def _ended(self, index: int, info: dict[str, Any], socks: list[socket.socket]) -> None:
        hub = self.hub
        self.table_ended(index, info["table"])
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
            client = await arrived(hub, next(returned), conn)
            if player.client is None and player.key in hub.players and not hub.closing:
                player.client = client
                client.player = player
                back.append(client)
            else:
                client.peer.close()
        hub._release(table)
        for client in back:
            go_on(client.peer)

    async def _bounced(self, info: dict[str, Any], socks: list[socket.socket]) -> None:
        """A reconnect that reached the worker after its game had ended."""
        for sock in socks:
            client = await arrived(self.hub, sock, info["conn"])
            go_on(client.peer)
            self.hub._refuse(
                client,
                proto.NAME_IN_USE,
                f"the game of {info['name']!r} has just ended; log in again",
                info["name"],
            )

    def lost(self, tables: set[str]) -> None:
        for table_id in tables:
            table = self.hub.tables.get(table_id)
            if table is not None:
                table.over = True
                self.hub._release(table, requeue=False)


# -- the worker -----------------------------------------------------------------------------
class OnitamaWorker(WorkerProcess):
    """The worker's side: runs the tables it is given, hands their players back."""

    hub: OnitamaHub

    def hello(self, settings: OnitamaSettings) -> None:
        assert self.records is not None
        clock = MonotonicClock()
        self.hub = OnitamaHub(self.bus, self.records, clock, settings, None, Identity(), Lobby())
        self.hub.give_back = self._give_back

    def received(self, kind: str, body: Any, socks: list[socket.socket]) -> bool:
        if kind == "table":
            self.tasks.start(self._table(body, socks))
        elif kind == "reconnect":
            self.tasks.start(self._reconnect(body, socks))
        else:
            return False
        return True

    async def _table(self, plan: dict[str, Any], socks: list[socket.socket]) -> None:
        hub = self.hub
        match = plan["match"]
        players: list[Player] = []
        for seat, sock in zip(plan["seats"], socks, strict=True):
            client = await arrived(hub, sock, seat["conn"])
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
        table.time_control, table.increment = plan["time_control"]
        for i, player in enumerate(players):
            player.table = table
            player.seat = i
        hub.tables[table.id] = table
        hub.stats.games_started += 1
        hub.open(table)
        for player in players:
            if player.client is not None:
                go_on(player.client.peer)

    async def _reconnect(self, info: dict[str, Any], socks: list[socket.socket]) -> None:
        hub = self.hub
        client = await arrived(hub, socks[0], info["conn"])
        table = hub.tables.get(info["table"])
        player = next((p for p in table.players if p.name == info["name"]), None) if table else None
        if table is None or table.over or player is None:
            conn = client.conn.export()
            sock = leave(hub, client)
            if sock is not None:
                self.send(("bounce", {"conn": conn, "name": info["name"]}), [sock])
            return
        hub._reconnect(client, player, table)
        go_on(client.peer)

    def _give_back(self, table: Table) -> None:
        """The game is over (``GAME_OVER`` sent): its connections go back to the front once
        each has been written out; meanwhile nothing more is read from them."""
        hub = self.hub
        for player in table.players:
            if hub.players.get(player.key) is player:
                del hub.players[player.key]
            if player.timer is not None:
                player.timer.cancel()
                player.timer = None
            client = player.client
            if client is not None:
                client.resume()
                peer = client.peer
                if isinstance(peer, TcpPeer) and peer.transport is not None:
                    peer.transport.pause_reading()
        self.tasks.start(self._hand_back(table))

    async def _hand_back(self, table: Table) -> None:
        await drained([p.client.peer for p in table.players if p.client is not None])
        seats: list[dict[str, Any] | None] = []
        socks: list[socket.socket] = []
        for player in table.players:
            client, player.client = player.client, None
            if client is None:
                seats.append(None)
                continue
            conn = client.conn.export()
            sock = leave(self.hub, client)
            if sock is None:
                client.peer.close()
                seats.append(None)
            else:
                seats.append(conn)
                socks.append(sock)
        self.send(("ended", {"table": table.id, "seats": seats}), socks)

    def shutdown(self) -> None:
        if hasattr(self, "hub"):
            self.hub.shutdown()
