"""The CGML login server (Přihlašovací server): two TCP listeners around a
:class:`~herna.protocols.cgml.lobby.Lobby`.

- the *player port* (seed default 7001): players, bots and bot servers send ``connect``
  (``passive``/``active``) and bot servers ``load``;
- the *server port* (7003): super game servers register with ``connect status="server"``
  and keep the connection open for ``newgroup init``/``ack``.

A connection identifies itself with its first accepted ``connect`` (player port: a player, a
bot or a bot server; server port: a super game server's registration). One that has not done
so within ``login_timeout`` seconds gets ``<error code="LOGIN_TIMEOUT">`` and is closed
(Herna extension, see :mod:`herna.servers.deadlines`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from herna.core.clock import Clock
from herna.hall.lobby import Lobby as HallLobby
from herna.protocols.cgml.lobby import ConnKey, Lobby, LobbySettings, NameGuard
from herna.protocols.cgml.messages import Message
from herna.servers.cgml.conn import STALL_TIMEOUT, CgmlConnection, close_for_login_timeout
from herna.servers.conncap import ConnectionCap
from herna.servers.deadlines import DEFAULT_LOGIN_TIMEOUT, LoginDeadlines

log = logging.getLogger("herna.cgml.login")

_IDENTIFY = {"player": "<connect>", "server": '<connect status="server">'}
"""Per port: the message that identifies a connection, as the timeout error names it."""


class LoginServer:
    def __init__(
        self,
        clock: Clock,
        settings: LobbySettings | None = None,
        stall_timeout: float = STALL_TIMEOUT,
        login_timeout: float = DEFAULT_LOGIN_TIMEOUT,
        names: NameGuard | None = None,
        hall_lobby: HallLobby | None = None,
    ) -> None:
        """``names``: the hall's :class:`~herna.hall.identity.Identity` (reserved names and
        house bots need their token); None: every name is free. ``hall_lobby``: the hall's
        lobby, which then lists the players waiting here."""
        self.clock = clock
        self.stall_timeout = stall_timeout
        self.deadlines = LoginDeadlines(clock, login_timeout, self._login_expired)
        """Connections that have not sent their first accepted ``connect`` yet."""
        self.lobby = Lobby(clock, self._send, self._close, settings, names, hall_lobby)
        self.conns: dict[ConnKey, CgmlConnection] = {}
        self.servers: list[asyncio.Server] = []
        self.caps: dict[str, ConnectionCap] = {}
        self.player_address: tuple[str, int] = ("", 0)
        self.server_address: tuple[str, int] = ("", 0)

    async def start(self, host: str, player_port: int, server_port: int) -> None:
        loop = asyncio.get_running_loop()
        players = await loop.create_server(lambda: self._protocol("player"), host, player_port)
        servers = await loop.create_server(lambda: self._protocol("server"), host, server_port)
        self.servers = [players, servers]
        self.player_address = players.sockets[0].getsockname()[:2]
        self.server_address = servers.sockets[0].getsockname()[:2]
        self.caps = {
            "player": ConnectionCap(f"mariáš login (port {self.player_address[1]})"),
            "server": ConnectionCap(f"mariáš registrations (port {self.server_address[1]})"),
        }

    def _protocol(self, role: str) -> CgmlConnection:
        conn = CgmlConnection(
            self._handle, self._lost, self.clock, self.stall_timeout, name=f"login-{role}"
        )
        self.conns[conn.key] = conn
        self.lobby.connection_made(conn.key, "player" if role == "player" else "server")
        conn.context = role
        conn.cap = self.caps.get(role)
        self.deadlines.start(conn)
        return conn

    def _handle(self, conn: CgmlConnection, message: Message) -> None:
        self.lobby.received(conn.key, message)
        if self.deadlines.waiting(conn) and self.lobby.identified(conn.key):
            self.deadlines.done(conn)

    def _login_expired(self, conn: CgmlConnection) -> None:
        close_for_login_timeout(conn, _IDENTIFY[conn.context], self.deadlines.timeout)

    def _lost(self, conn: CgmlConnection) -> None:
        self.deadlines.done(conn)
        self.conns.pop(conn.key, None)
        self.lobby.connection_lost(conn.key)

    def _send(self, key: ConnKey, message: Message) -> None:
        conn = self.conns.get(key)
        if conn is not None:
            conn.send(message)

    def _close(self, key: ConnKey) -> None:
        conn = self.conns.get(key)
        if conn is not None:
            conn.close()

    def snapshot(self) -> dict[str, Any]:
        return {
            "player_port": self.player_address[1],
            "server_port": self.server_address[1],
            "connections": len(self.conns),
            "awaiting_login": len(self.deadlines),
            "login_timeouts": self.deadlines.expired,
            **self.lobby.snapshot(),
        }

    async def stop(self) -> None:
        self.deadlines.cancel_all()
        if self.lobby.hall_seeks is not None:
            self.lobby.hall_seeks.close()
        for server in self.servers:
            server.close()
        for conn in list(self.conns.values()):
            conn.close()
        for server in self.servers:
            await server.wait_closed()
        self.servers = []
