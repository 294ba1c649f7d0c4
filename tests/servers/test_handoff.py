"""Moving a live TCP connection between event loops' transports and over a control link
(herna/servers/handoff.py), on real sockets: the client sees one unbroken connection."""

from __future__ import annotations

import asyncio
import socket

from herna.servers.handoff import Channel, attach, detach


class Echo(asyncio.Protocol):
    """Answers every chunk with its tag and the chunk."""

    def __init__(self, tag: bytes) -> None:
        self.tag = tag
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        assert self.transport is not None
        self.transport.write(self.tag + data)


async def test_a_connection_moves_over_the_link_and_the_client_sees_nothing() -> None:
    first: list[Echo] = []

    def made() -> Echo:
        first.append(Echo(b"A:"))
        return first[-1]

    loop = asyncio.get_running_loop()
    listener = await loop.create_server(made, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"one")
    assert await reader.readexactly(5) == b"A:one"

    got: list[tuple[object, list[socket.socket]]] = []
    arrived = asyncio.Event()
    here, there = Channel.pair()

    def received(obj: object, socks: list[socket.socket]) -> None:
        got.append((obj, socks))
        arrived.set()

    sender = Channel(here, lambda obj, socks: None, lambda: None)
    receiver = Channel(there, received, lambda: None)
    assert first[0].transport is not None
    sock = detach(first[0].transport)
    assert sock is not None
    assert sender.send(("conn", {"said": "one"}), [sock])
    await asyncio.wait_for(arrived.wait(), 5)
    [(message, [moved])] = got
    assert message == ("conn", {"said": "one"})
    await attach(moved, lambda: Echo(b"B:"))
    writer.write(b"two")
    assert await reader.readexactly(5) == b"B:two"  # the same connection, a new owner
    writer.close()
    listener.close()
    sender.close()
    receiver.close()


async def test_a_message_longer_than_the_link_carries_is_refused_and_its_sockets_closed() -> None:
    here, there = Channel.pair()
    sender = Channel(here, lambda obj, socks: None, lambda: None)
    receiver = Channel(there, lambda obj, socks: None, lambda: None)
    assert sender.pack(b"x" * 100) is not None
    assert sender.pack(b"x" * (sender.limit + 1)) is None
    a, b = socket.socketpair()
    assert not sender.send(b"x" * (sender.limit + 1), [a])
    assert a.fileno() == -1  # closed: nobody else will
    b.close()
    assert not sender.is_closed  # the link itself goes on
    sender.close()
    receiver.close()
