"""A deleted database is noticed and loses nothing (issue 27): a real ``herna serve`` with Mia,
Onitama and the web hall on a SQLite file in ``tmp_path``, the file deleted while the house
bots play; then the hall is started again on the same path."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import httpx
import pytest

from herna.hall.records import MatchRecord, PlayerResult, RecordStore
from herna.servers.mia import MiaService
from herna.web.plugin import WebHall
from tests.mia.helpers import RawPeer, port_of, rounds_seen
from tests.serve import serving


async def _onitama_login(port: int, name: str) -> str:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"LOGIN|{name}\n".encode())
        await writer.drain()
        return (await asyncio.wait_for(reader.readline(), 10)).decode().strip()
    finally:
        writer.close()


def _round_numbers(transcript: list[str]) -> set[int]:
    """The rounds a spectator saw from ``ROUND STARTED`` to their ``SCORE``."""
    return {int(r[0].split(";")[1]) for r in rounds_seen(transcript)}


async def test_a_deleted_database_takes_no_new_games_and_loses_no_record(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "herna.db"
    caplog.set_level(logging.WARNING)
    async with serving(tmp_path, "mia,onitama,web", mia_house_round_pause=0.05) as hall:
        mia, onitama, web = hall.service("mia"), hall.service("onitama"), hall.service("web")
        assert isinstance(mia, MiaService) and isinstance(web, WebHall) and onitama is not None
        onitama_port = int(onitama.endpoints()[0].rsplit(":", 1)[1])
        watcher = RawPeer(port_of(mia))
        assert await watcher.ask("REGISTER_SPECTATOR;watcher") == "REGISTERED"
        async with asyncio.timeout(30):
            while len(rounds_seen(watcher.seen)) < 3:
                await watcher.recv(10)
        assert (await _onitama_login(onitama_port, "early")).startswith("LOGIN_OK")

        # Deleted while a round is under way: it ends after the deletion, so at least one
        # round's record is one that only the journal can keep.
        line = ""
        while not line.startswith("ROUND STARTED;"):
            line = await watcher.recv(10)
        db.unlink()
        deleted_at, mark = time.monotonic(), len(watcher.seen) - 1

        def noticed() -> list[logging.LogRecord]:
            return [
                r
                for r in caplog.records
                if r.levelno >= logging.ERROR and str(db) in r.getMessage()
            ]

        async with asyncio.timeout(10):
            while not noticed():
                await watcher.quiet_for(0.1)
        took = time.monotonic() - deleted_at
        assert took < 3.0, f"noticed only after {took:.1f} s"
        [error] = noticed()  # one error, naming the file and what to do
        message = error.getMessage()
        # A connection opened by path after the deletion may create an empty file there.
        assert ("deleted" in message or "replaced" in message) and "Restart Herna" in message
        assert str(db) + "-records" in message  # where the records since are kept

        # No new game: Onitama refuses a login in its own words, Mia rounds pause (a round
        # that was starting may still finish).
        refused = await _onitama_login(onitama_port, "newcomer")
        assert refused.startswith("LOGIN_FAILED|CLOSED|"), refused
        assert "no new games" in refused
        later = await watcher.quiet_for(2.0)
        assert mia.table.snapshot()["phase"] == "paused"
        assert sum(x.startswith("ROUND STARTED") for x in later) <= 1
        assert "HEARTBEAT" in later  # the table is there, waiting
        seen_after = _round_numbers(watcher.seen[mark:])
        assert seen_after, "no round was played between the deletion and its notice"

        async with httpx.AsyncClient(base_url=web.url, timeout=20) as http:
            status = await http.get("/status")
            assert status.status_code == 200
            assert "takes no new games" in status.text and "deleted" in status.text
            home = await http.get("/")
            assert "takes no new games" in home.text
        watcher.close()

    # The next start opens a new database and writes into it what the journal kept.
    async with serving(tmp_path, "mia", no_house_bots=True) as again:
        stored = {int(m.meta["round"]) for m in again.records.matches(game="mia", limit=100_000)}
        assert again.closed is None
    lost = seen_after - stored
    assert not lost, f"{len(lost)} of {len(seen_after)} rounds played after the deletion lost"


def _round(number: int) -> MatchRecord:
    players = [PlayerResult(0, "ann", 1.0, True), PlayerResult(1, "bob")]
    return MatchRecord("mia", "mia", players, {}, meta={"round": number})


def test_the_writer_commits_nothing_into_a_deleted_file(tmp_path: Path) -> None:
    """The store alone: records submitted after the file was deleted stay in the journal (the
    writer would otherwise commit them into the unlinked file and delete their segment), and
    the next store on the path writes them into the new database."""
    url = f"sqlite:///{tmp_path / 'h.db'}"
    store = RecordStore(url)
    store.recover()
    for n in range(5):
        store.submit(_round(n))
    store.flush()
    (tmp_path / "h.db").unlink()
    for n in range(5, 10):
        store.submit(_round(n))
    assert store.check_database() == "deleted"
    assert store.check_database() is None  # said once
    store.flush(timeout=10)  # answered: nothing more will be committed
    numbers = [store.allocate("mia.round") for _ in range(3)]
    store.close(timeout=10)
    again = RecordStore(url)
    try:
        again.recover()
        stored = {int(m.meta["round"]) for m in again.matches(game="mia", limit=100)}
        assert set(range(5, 10)) <= stored
        # Numbers handed out while the file was gone are not handed out again.
        assert again.allocate("mia.round") > max(numbers)
    finally:
        again.close()
