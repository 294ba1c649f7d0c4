"""One address cannot hold more than its share of connections on any port of the hall
(issue 27): a real ``herna serve`` with every TCP server and the web hall, real sockets from
127.0.0.3 (a host of its own: the hall's own bots connect from 127.0.0.1) and from another
address, 127.0.0.2."""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path

import pytest

from herna.hall.hall import Hall
from tests.serve import serving

CAP = 6


async def _open(
    port: int, ip: str = "127.0.0.3"
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(ip, 0))


async def _is_open(reader: asyncio.StreamReader) -> bool:
    """False when the server closed or reset the connection within half a second."""
    try:
        data = await asyncio.wait_for(reader.read(4096), 0.5)
    except TimeoutError:
        return True
    except ConnectionResetError:
        return False
    return data != b""


def _ports(hall: Hall) -> dict[str, int]:
    ports = {}
    for service in hall.services:
        for endpoint in service.endpoints():
            found = re.match(r"(?:tcp|http)://127\.0\.0\.1:(\d+)", endpoint)
            if found and service.game not in ports:
                ports[service.game] = int(found.group(1))
    return ports


async def test_each_port_caps_connections_per_address_and_serves_the_others(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with serving(
        tmp_path,
        "onitama,tiles,marias,web",
        max_connections_per_address=CAP,
        no_house_bots=True,
        tiles_no_showcase=True,
    ) as hall:
        ports = _ports(hall)
        assert set(ports) >= {"onitama", "tiles", "marias", "web"}, ports
        for game, port in ports.items():
            held = [await _open(port) for _ in range(CAP)]
            over = [await _open(port) for _ in range(20)]
            assert [await _is_open(r) for r, _ in held] == [True] * CAP, game
            assert [await _is_open(r) for r, _ in over] == [False] * 20, game
            # Another address is served as before.
            reader, writer = await _open(port, "127.0.0.2")
            assert await _is_open(reader), game
            writer.close()
            # A closed connection gives its place back.
            held[0][1].close()
            await asyncio.sleep(0.2)
            again, _ = await _open(port)
            assert await _is_open(again), game
            for _, w in [*held[1:], *over]:
                w.close()
        # One warning per address and port, not one per refused connection.
        warnings = [r for r in caplog.records if "refusing new connections" in r.getMessage()]
        assert len(warnings) == len(ports), [r.getMessage() for r in warnings]
        assert all("127.0.0.3" in r.getMessage() for r in warnings)


def test_the_option_is_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    from herna.cli import main

    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "--max-connections-per-address" in capsys.readouterr().out
