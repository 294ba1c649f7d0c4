"""Custom rules files are checked in another process: a hostile client sending huge broken
rules cannot freeze the event loop that every server of ``herna serve`` shares."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from herna.core.clock import FakeClock
from herna.hall.events import EventBus
from herna.servers.tiles.hub import MAX_PROBLEMS_SENT, TilesHub, TilesSettings
from tests.tiles.helpers import race
from tests.tiles.test_server import running

SHIPPED = Path(__file__).resolve().parents[2] / "herna" / "games" / "tiles" / "rules"


def huge_broken_rules(copies: int = 400) -> dict[str, Any]:
    """About 0.8 MB (by default): 12,000 tiles on a 7x7 board, every one of them a problem
    (seconds to check in-process)."""
    data = json.loads((SHIPPED / "labyrinth.json").read_text())
    data["tiles"] = data["tiles"] * copies
    return data


class Line:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> Line:
        line = cls(*await asyncio.open_connection("127.0.0.1", port))
        assert (await line.recv())["type"] == "welcome"
        return line

    async def send(self, message: dict[str, Any]) -> None:
        self.writer.write(json.dumps(message).encode() + b"\n")
        await self.writer.drain()

    async def recv(self, timeout: float = 30.0) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.reader.readline(), timeout)
        message: dict[str, Any] = json.loads(raw)
        return message

    def close(self) -> None:
        self.writer.close()


@pytest.mark.serial
async def test_huge_broken_rules_do_not_stall_the_server(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        hostile = await Line.open(server.port)
        other = await Line.open(server.port)
        big = huge_broken_rules()
        assert len(json.dumps(big)) < 1024 * 1024
        await hostile.send({"type": "join", "name": "mallory", "rules": big, "id": 1})
        await hostile.send({"type": "join", "name": "mallory", "rules": "tsuro", "id": 2})
        busy = await hostile.recv()
        assert busy["code"] == "BUSY" and busy["id"] == 2  # one rules file at a time
        # Meanwhile the server answers everyone else at once.
        worst = 0.0
        for i in range(20):
            sent = time.perf_counter()
            await other.send({"type": "ping", "id": i})
            assert (await other.recv(5))["type"] == "pong"
            worst = max(worst, time.perf_counter() - sent)
            await asyncio.sleep(0.05)
        assert worst < 0.25, f"a ping waited {worst:.2f} s"
        await other.send({"type": "join", "name": "ann", "rules": "tsuro"})
        assert (await other.recv(5))["type"] == "joined"
        refused = await hostile.recv()
        assert refused["code"] == "BAD_RULES" and refused["id"] == 1
        assert "error(s)" in refused["reason"]
        assert int(refused["reason"].split()[3]) > MAX_PROBLEMS_SENT  # "the rules have N error(s)"
        assert len(refused["problems"]) == MAX_PROBLEMS_SENT
        # the checker is free again: good custom rules still seat the player
        await hostile.send({"type": "join", "name": "mallory", "rules": race(), "id": 3})
        joined = await hostile.recv()
        assert joined["type"] == "joined" and joined["id"] == 3
        hostile.close()
        other.close()


async def test_too_many_rules_files_at_once_are_answered_busy(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        checker = server.hub.rules_checker
        lines = [await Line.open(server.port) for _ in range(6)]
        big = huge_broken_rules(100)  # long enough to keep four checks waiting
        for i, line in enumerate(lines):
            await line.send({"type": "join", "name": f"p{i}", "rules": big, "id": i})
        answers = [await line.recv() for line in lines]
        codes = sorted(a["code"] for a in answers)
        assert codes.count("BUSY") == 6 - checker.max_pending  # type: ignore[attr-defined]
        assert codes.count("BAD_RULES") == checker.max_pending  # type: ignore[attr-defined]
        for line in lines:
            line.close()


def test_the_login_clock_stops_while_the_rules_are_checked() -> None:
    class Later:
        """A checker that answers when the test says so."""

        def __init__(self) -> None:
            self.waiting: list[Any] = []

        def check(self, data: dict[str, Any], done: Any) -> bool:
            self.waiting.append((data, done))
            return True

        def close(self) -> None:
            """Nothing to release."""

    from herna.games.tiles.rules import check_rules
    from tests.tiles.test_login_timeout import RecordingPeer

    clock = FakeClock()
    later = Later()
    hub = TilesHub(EventBus(), None, clock, TilesSettings(showcase=False, login_timeout=1.0), later)
    peer = RecordingPeer("ann")
    client = hub.connect(peer)
    bad = dict(race(), players=[])
    hub.receive(client, json.dumps({"type": "join", "name": "ann", "rules": bad}).encode() + b"\n")
    assert clock.pending() == 0  # no login clock while the rules are being checked
    clock.advance(5)
    assert not peer.closed
    data, done = later.waiting.pop()
    done(check_rules(data, "custom"))
    assert peer.messages()[-1]["code"] == "BAD_RULES"
    clock.advance(1.1)  # refused: a fresh login clock ran out
    assert peer.closed and peer.messages()[-1]["code"] == "LOGIN_TIMEOUT"


def test_good_rules_but_no_seat_restart_the_login_clock() -> None:
    from tests.tiles.test_login_timeout import RecordingPeer

    clock = FakeClock()
    hub = TilesHub(EventBus(), None, clock, TilesSettings(showcase=False, login_timeout=1.0))
    peer = RecordingPeer("ann")
    client = hub.connect(peer)
    join = {"type": "join", "name": "ann", "rules": race(), "table": "t99"}
    hub.receive(client, json.dumps(join).encode() + b"\n")
    assert peer.messages()[-1]["code"] == "NO_SUCH_TABLE"
    assert hub.deadlines.waiting(client)
    clock.advance(1.1)
    assert peer.closed and peer.messages()[-1]["code"] == "LOGIN_TIMEOUT"
