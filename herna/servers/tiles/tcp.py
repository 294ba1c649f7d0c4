"""The tile server's TCP listener: the shared line transport (:mod:`herna.servers.tcp`) in
front of a :class:`~herna.servers.tiles.hub.TilesHub`."""

from __future__ import annotations

import asyncio

from herna.servers.conncap import ConnectionCap
from herna.servers.tcp import TcpPeer
from herna.servers.tiles.hub import Client, TilesHub

WRITE_BUFFER_LIMIT = 4 << 20
"""Bytes queued for a client that does not read before it is cut off."""


async def listen(hub: TilesHub, host: str, port: int) -> asyncio.Server:
    """Accept TCP connections on ``host:port`` (0 = any free port) for ``hub``."""
    loop = asyncio.get_running_loop()
    cap = ConnectionCap("tiles")

    def peer() -> TcpPeer[Client]:
        return TcpPeer(hub, WRITE_BUFFER_LIMIT, cap=cap)

    return await loop.create_server(peer, host, port, backlog=1024)
