"""The in-process event bus: every server publishes game events here; spectators (the
terminal watcher, the web hall) subscribe.

Publishing never blocks and never waits for a subscriber: each subscription has a bounded
queue, and a subscriber that falls behind is *dropped* (its ``dropped`` flag is set and it
stops receiving) so that a slow browser can never slow a game server down.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_seq = itertools.count(1)


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One thing that happened at a table, as spectators may see it (never hidden info).

    ``game`` is ``"mia"``, ``"marias"``, ``"onitama"`` or ``"tiles"``; ``table`` identifies the
    match/round/table within that game's server; ``kind`` is a short verb
    (``"round_started"``, ``"move"``, ``"game_over"``); ``data`` is JSON-ready.
    """

    game: str
    table: str
    kind: str
    data: dict[str, Any]
    ts: float = field(default_factory=time.time)
    seq: int = field(default_factory=lambda: next(_seq))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "table": self.table,
            "kind": self.kind,
            "data": self.data,
            "ts": self.ts,
            "seq": self.seq,
        }


EventFilter = Callable[[GameEvent], bool]


class Subscription:
    """A bounded mailbox of events. Iterate with ``async for`` or poll with :meth:`drain`."""

    def __init__(self, bus: EventBus, limit: int, accept: EventFilter | None) -> None:
        self._bus = bus
        self._queue: deque[GameEvent] = deque()
        self._limit = limit
        self._accept = accept
        self._waiter: asyncio.Event | None = None
        self.dropped = False
        self.closed = False

    def _offer(self, event: GameEvent) -> None:
        if self.closed or (self._accept is not None and not self._accept(event)):
            return
        if len(self._queue) >= self._limit:
            # Too slow: drop the subscriber rather than buffer without bound.
            self.dropped = True
            self.close()
            return
        self._queue.append(event)
        if self._waiter is not None:
            self._waiter.set()

    def drain(self) -> list[GameEvent]:
        """All queued events, oldest first (non-blocking)."""
        out = list(self._queue)
        self._queue.clear()
        return out

    async def get(self) -> GameEvent | None:
        """Next event, or None once the subscription is closed or dropped."""
        while not self._queue:
            if self.closed:
                return None
            if self._waiter is None:
                self._waiter = asyncio.Event()
            self._waiter.clear()
            await self._waiter.wait()
        return self._queue.popleft()

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> GameEvent:
        event = await self.get()
        if event is None:
            raise StopAsyncIteration
        return event

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._bus._remove(self)
            if self._waiter is not None:
                self._waiter.set()


class EventBus:
    """Fan-out of :class:`GameEvent` to subscriptions; also keeps a short recent history."""

    def __init__(self, history: int = 1000) -> None:
        self._subscriptions: list[Subscription] = []
        self.recent: deque[GameEvent] = deque(maxlen=history)
        self.published = 0

    def publish(self, event: GameEvent) -> None:
        self.published += 1
        self.recent.append(event)
        if self._subscriptions:
            for sub in list(self._subscriptions):
                sub._offer(event)

    def emit(self, game: str, table: str, kind: str, **data: Any) -> GameEvent:
        """Build and publish an event in one call."""
        event = GameEvent(game, table, kind, data)
        self.publish(event)
        return event

    def subscribe(self, accept: EventFilter | None = None, limit: int = 10_000) -> Subscription:
        sub = Subscription(self, limit, accept)
        self._subscriptions.append(sub)
        return sub

    @property
    def subscriber_count(self) -> int:
        return len(self._subscriptions)

    def _remove(self, sub: Subscription) -> None:
        if sub in self._subscriptions:
            self._subscriptions.remove(sub)
