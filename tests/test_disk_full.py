"""A full disk does not stop a table (issue 27): the database and its journal on a small tmpfs
(needs root to mount it), a real ``herna serve`` with Mia and the web hall, the disk filled
while the house bots play, then emptied again."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from herna.servers.mia import MiaService
from herna.web.plugin import WebHall
from tests.mia.helpers import RawPeer, port_of, rounds_seen
from tests.serve import serving


@contextlib.contextmanager
def small_disk(where: Path) -> Iterator[Path]:
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(where)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    filler = disk / "filler"
    with filler.open("wb") as f, contextlib.suppress(OSError):
        while True:
            f.write(b"\0" * 65536)
            f.flush()
            os.fsync(f.fileno())
    return filler


async def _rounds(watcher: RawPeer, count: int) -> int:
    start = len(watcher.seen)
    async with asyncio.timeout(30):  # heartbeats go on even when the rounds stop
        while len(rounds_seen(watcher.seen[start:])) < count:
            await watcher.recv(10)
    return len(rounds_seen(watcher.seen[start:]))


async def test_a_full_disk_holds_records_back_but_not_the_table(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        async with serving(
            tmp_path, "mia,web", database_url=f"sqlite:///{disk / 'h.db'}",
            mia_house_round_pause=0.05,
        ) as hall:  # fmt: skip
            mia, web = hall.service("mia"), hall.service("web")
            assert isinstance(mia, MiaService) and isinstance(web, WebHall)
            watcher = RawPeer(port_of(mia))
            assert await watcher.ask("REGISTER_SPECTATOR;watcher") == "REGISTERED"
            await _rounds(watcher, 2)
            filler = fill(disk)
            # The house bots play on, round after round, while nothing can be written.
            assert await _rounds(watcher, 10) >= 10
            assert hall.records.trouble is not None
            async with httpx.AsyncClient(base_url=web.url, timeout=20) as http:
                status = await http.get("/status")
                assert status.status_code == 200
                assert "Records cannot be written" in status.text
            held = int(hall.records.trouble.split(": ")[1].split()[0])
            assert held >= 5
            filler.unlink()
            await _rounds(watcher, 2)
            assert hall.records.trouble is None  # written as soon as there was room
            watcher.close()
