"""Live views over WebSocket: snapshots, updates, filters, coalescing, slow clients."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from herna.web.plugin import WebHall
from tests.web.conftest import start_web, stop_web
from tests.web.helpers import publish_mia_round


def ws_url(web: WebHall, query: str = "") -> str:
    return f"ws://127.0.0.1:{web.port}/ws/live{query}"


async def recv(ws: ClientConnection, timeout: float = 5.0) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
    return frame


async def until(ws: ClientConnection, pred: Any, timeout: float = 5.0) -> list[dict[str, Any]]:
    """Frames up to and including the first one satisfying ``pred``."""
    frames = []
    deadline = time.monotonic() + timeout
    while True:
        frame = await recv(ws, max(0.01, deadline - time.monotonic()))
        frames.append(frame)
        if pred(frame):
            return frames


def last_kind(frame: dict[str, Any]) -> str | None:
    tables = frame["tables"]
    return tables[-1]["event"]["kind"] if tables and tables[-1]["event"] else None


async def test_snapshot_then_updates_filtered_by_game_and_table(web: WebHall) -> None:
    bus = web.hall.bus
    scores: dict[str, int] = {}
    publish_mia_round(bus, 1, ["alice", "bob"], scores)
    bus.emit("onitama", "t1", "game_started", view={"board": "start"}, players=["a", "b"])
    await asyncio.sleep(0.1)

    async with (
        connect(ws_url(web, "?game=mia")) as mia,
        connect(ws_url(web)) as everything,
        connect(ws_url(web, "?game=onitama&table=t1")) as t1,
    ):
        snap = await recv(mia)
        assert snap["type"] == "snapshot"
        assert [(t["game"], t["table"]) for t in snap["tables"]] == [("mia", "mia")]
        table = snap["tables"][0]
        assert table["view"]["last_round"]["losers"] == ["bob"]
        assert table["event"]["kind"] == "game_over"
        assert [e["kind"] for e in table["events"]][-2:] == ["score", "game_over"]

        snap = await recv(everything)
        assert {(t["game"], t["table"]) for t in snap["tables"]} == {
            ("mia", "mia"),
            ("onitama", "t1"),
        }
        snap = await recv(t1)
        assert [t["view"] for t in snap["tables"]] == [{"board": "start"}]

        publish_mia_round(bus, 2, ["bob", "alice"], scores, see=False)
        frames = await until(mia, lambda f: last_kind(f) == "game_over")
        assert all(f["type"] == "update" for f in frames)
        assert all(t["game"] == "mia" for f in frames for t in f["tables"])
        view = frames[-1]["tables"][-1]["view"]
        assert view["round"]["round"] == 2 and view["round"]["losers"] == ["alice"]
        assert view["scores"] == {"alice": 1.0, "bob": 1.0}

        bus.emit("onitama", "t1", "move", view={"board": "after"}, move="a1-a2")
        bus.emit("onitama", "t2", "game_started", view={"board": "other"})
        frames = await until(t1, lambda f: last_kind(f) == "move")
        table = frames[-1]["tables"][-1]
        # The table's view is the event's view, exactly, and the view is not repeated in
        # the event list; the newest event keeps it for renderers that read it there.
        assert table["view"] == {"board": "after"}
        assert table["events"][-1]["data"] == {"move": "a1-a2"}
        assert table["event"]["data"] == {"move": "a1-a2", "view": {"board": "after"}}
        await until(everything, lambda f: any(t["table"] == "t2" for t in f["tables"]))
        # The t1 spectator hears nothing about t2.
        bus.emit("onitama", "t1", "move", view={"board": "again"}, move="a2-a3")
        frames = await until(t1, lambda f: f["tables"][-1]["view"] == {"board": "again"})
        assert {t["table"] for f in frames for t in f["tables"]} == {"t1"}


async def test_bursts_are_coalesced_and_every_event_accounted_for(tmp_path: Path) -> None:
    hall, web = await start_web(f"sqlite:///{tmp_path / 'w.db'}", interval=0.2, frame_events=25)
    try:
        async with connect(ws_url(web)) as ws:
            assert (await recv(ws))["type"] == "snapshot"
            for i in range(400):
                hall.bus.emit("tiles", "x", "move", n=i, view={"n": i})
            frames = await until(ws, lambda f: f["tables"][-1]["view"] == {"n": 399})
            assert len(frames) <= 3  # one frame per interval, not one per event
            listed = [e["data"]["n"] for f in frames for e in f["tables"][0]["events"]]
            skipped = sum(f["tables"][0]["skipped"] for f in frames)
            assert len(listed) + skipped == 400
            assert listed == sorted(listed) and listed[-1] == 399
            assert all(len(f["tables"][0]["events"]) <= 25 for f in frames)
    finally:
        await stop_web(hall)


@pytest.mark.serial
async def test_a_slow_spectator_is_dropped_without_slowing_the_bus(tmp_path: Path) -> None:
    hall, web = await start_web(f"sqlite:///{tmp_path / 'w.db'}", interval=0.005, client_queue=4)
    try:
        big = "x" * 200_000
        # max_queue=1: the client stops reading its socket once one frame waits unread.
        async with (
            connect(ws_url(web), max_queue=1, max_size=None) as slow,
            connect(ws_url(web), max_size=None) as fast,
        ):
            await recv(fast)
            received: list[int] = []

            async def reader() -> None:
                async for raw in fast:
                    for t in json.loads(raw)["tables"]:
                        received.append(t["view"]["n"])

            task = asyncio.create_task(reader())
            worst = 0.0
            for i in range(150):
                start = time.perf_counter()
                hall.bus.emit("tiles", "big", "move", view={"n": i, "pad": big})
                worst = max(worst, time.perf_counter() - start)
                await asyncio.sleep(0.01)
                if web.hub.dropped_clients:
                    break
            deadline = time.monotonic() + 10
            while not web.hub.dropped_clients and time.monotonic() < deadline:
                hall.bus.emit("tiles", "big", "move", view={"n": -1, "pad": big})
                await asyncio.sleep(0.01)
            assert web.hub.dropped_clients == 1
            assert worst < 0.05  # publishing never waited for a client
            hall.bus.emit("tiles", "big", "move", view={"n": 10_000, "pad": ""})
            deadline = time.monotonic() + 5
            while 10_000 not in received and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert 10_000 in received  # the fast spectator keeps watching
            assert len(web.hub.clients) == 1
            task.cancel()
            # The slow one is told why (once it reads again).
            try:
                while True:
                    await asyncio.wait_for(slow.recv(), 5)
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 4001
    finally:
        await stop_web(hall)


async def test_spectator_limit(tmp_path: Path) -> None:
    hall, web = await start_web(f"sqlite:///{tmp_path / 'w.db'}", max_clients=2)
    try:
        async with connect(ws_url(web)) as a, connect(ws_url(web)) as b:
            await recv(a)
            await recv(b)
            async with connect(ws_url(web)) as c:
                try:
                    await asyncio.wait_for(c.recv(), 5)
                    raise AssertionError("a third spectator was accepted")
                except ConnectionClosed as closed:
                    assert closed.rcvd is not None and closed.rcvd.code == 1013
        deadline = time.monotonic() + 5
        while web.hub.clients and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert not web.hub.clients  # closed connections are forgotten
    finally:
        await stop_web(hall)


async def test_api_live_matches_the_snapshot(web: WebHall) -> None:
    import httpx

    publish_mia_round(web.hall.bus, 5, ["alice", "bob"], {})
    await asyncio.sleep(0.1)
    async with httpx.AsyncClient(base_url=web.url) as http:
        tables = (await http.get("/api/live", params={"game": "mia"})).json()
        assert len(tables) == 1 and tables[0]["view"]["last_round"]["round"] == 5
        assert (await http.get("/api/live", params={"game": "marias"})).json() == []


async def test_broken_events_do_not_stop_the_live_views(web: WebHall) -> None:
    bus = web.hall.bus
    async with connect(ws_url(web)) as ws:
        await recv(ws)
        bus.emit("mia", "mia", "score", scores={"alice": "lots"})  # the fold cannot use it
        bus.emit("tiles", "bad", "move", view={"x": float("nan"), "when": object()})
        bus.emit("onitama", "ok", "move", view={"board": "fine"})
        frames = await until(ws, lambda f: any(t["table"] == "ok" for t in f["tables"]))
        tables = {t["table"]: t for f in frames for t in f["tables"]}
        assert tables["ok"]["view"] == {"board": "fine"}
        assert "not JSON-ready" in tables["bad"]["view"]["error"]
        publish_mia_round(bus, 1, ["alice", "bob"], {})
        frames = await until(ws, lambda f: last_kind(f) == "game_over")
        assert frames[-1]["tables"][-1]["view"]["last_round"]["losers"] == ["bob"]
