"""Work that every visitor's request shares (issue 28): the home page's results and counts are
computed at most once a second however many ask, and /api/live serves one snapshot per hub
version instead of building it again for each request."""

from __future__ import annotations

import asyncio
import threading

import httpx

from herna.web.fresh import Fresh
from herna.web.plugin import WebHall
from tests.web.helpers import publish_mia_round


class Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_fresh_computes_once_for_everyone_who_asks_meanwhile() -> None:
    clock = Ticks()
    gate = threading.Event()
    calls: list[int] = []

    def compute() -> int:
        gate.wait(5)
        calls.append(1)
        return len(calls)

    fresh = Fresh(compute, max_age=1.0, clock=clock)
    waiting = [asyncio.ensure_future(fresh.get()) for _ in range(20)]
    await asyncio.sleep(0.05)
    waiting[0].cancel()  # one page closed: the others still get the value
    gate.set()
    results = await asyncio.gather(*waiting[1:])
    assert results == [1] * 19 and fresh.computed == 1
    clock.now = 0.9
    assert await fresh.get() == 1 and fresh.computed == 1  # younger than a second
    clock.now = 1.1
    assert await fresh.get() == 2 and fresh.computed == 2


async def test_a_failed_computation_is_tried_again() -> None:
    outcomes = iter([RuntimeError("database busy"), 7])

    def compute() -> int:
        out = next(outcomes)
        if isinstance(out, Exception):
            raise out
        return out

    fresh = Fresh(compute)
    try:
        await fresh.get()
    except RuntimeError:
        pass
    else:
        raise AssertionError("the error was swallowed")
    assert await fresh.get() == 7


async def test_api_live_builds_one_snapshot_per_version(web: WebHall) -> None:
    bus = web.hall.bus
    scores: dict[str, int] = {}
    publish_mia_round(bus, 1, ["alice", "bob"], scores)
    await asyncio.sleep(0.2)
    url = f"http://127.0.0.1:{web.port}/api/live"
    async with httpx.AsyncClient() as client:
        first = [await client.get(url) for _ in range(10)]
        assert {r.text for r in first} == {first[0].text} and "alice" in first[0].text
        made = web.hub.snapshots_made
        more = [await client.get(url) for _ in range(10)]
        assert web.hub.snapshots_made == made  # nothing happened: nothing was built again
        assert {r.text for r in more} == {first[0].text}
        publish_mia_round(bus, 2, ["carol", "bob"], scores)
        for _ in range(50):
            await asyncio.sleep(0.05)
            after = await client.get(url)
            if "carol" in after.text:
                break
        assert "carol" in after.text  # a new event is in the next snapshot
        assert web.hub.snapshots_made > made
