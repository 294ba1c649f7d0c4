"""The live hub hands an update to its spectators a slice at a time, so that a move arriving
while a thousand spectators get their frames waits for one slice of sends, not for all of
them (issue 28: an Onitama move's p99 was 86 ms beside 1,000 spectators)."""

from __future__ import annotations

import asyncio

from herna.hall.events import EventBus, GameEvent
from herna.web.live import DELIVERY_SLICE, LiveHub, LiveSettings

SPECTATORS = 10 * DELIVERY_SLICE


async def test_an_update_reaches_many_spectators_over_many_turns_of_the_loop() -> None:
    hub = LiveHub(EventBus(), LiveSettings(interval=0.01, send_budget=0))
    turn = 0
    sent_at: list[int] = []
    firsts = 0

    async def send(frame: str) -> None:
        nonlocal firsts
        if '"type":"update"' in frame:
            sent_at.append(turn)
        else:
            firsts += 1

    async def turns() -> None:
        # Another task on the same loop: one step per turn, as a table's work would be.
        nonlocal turn
        while True:
            turn += 1
            await asyncio.sleep(0)

    hub.start()
    clients = [hub.connect(send, None, None) for _ in range(SPECTATORS)]
    senders = [asyncio.create_task(c.run()) for c in clients if c is not None]
    ticker = asyncio.create_task(turns())
    try:
        while firsts < SPECTATORS:  # everybody's snapshot sent
            await asyncio.sleep(0.01)
        hub.bus.publish(GameEvent("onitama", "t1", "move", {"move": "a1a2"}))
        for _ in range(500):
            if len(sent_at) == SPECTATORS:
                break
            await asyncio.sleep(0.01)
        assert len(sent_at) == SPECTATORS  # every spectator got the update, once
        # Not all in one go: the other task ran between the slices.
        assert len(set(sent_at)) >= SPECTATORS // DELIVERY_SLICE
        assert max(sent_at.count(t) for t in set(sent_at)) <= DELIVERY_SLICE
    finally:
        ticker.cancel()
        for task in senders:
            task.cancel()
        await hub.stop()
