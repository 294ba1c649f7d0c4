"""The live hub: one subscription to the hall's EventBus fanned out to browser WebSockets.

Game servers publish on the bus and never wait for anyone. The hub drains its subscription,
folds each table's events into a spectator view (:mod:`herna.web.folds`) and, at most every
``interval`` seconds, sends each connected browser one frame with the tables that changed.
A frame is JSON-encoded once per distinct filter, not once per client.

With many spectators frames are spaced further apart so that all clients together get at
most ``send_budget`` frames per second: the cost of watching stays bounded however many
browsers watch (by default 50 spectators get ten frames a second each, 500 get one).

Every client has a bounded send queue (``client_queue`` frames). A client whose queue is
full — its browser or network cannot keep up — is dropped (closed with code 4001, reason
"too slow") instead of buffering without bound or slowing the hall. The browser reconnects
and starts again from a snapshot.

Frames (JSON text)::

    {"type": "snapshot", "tables": [TABLE, ...]}     # first frame after connecting
    {"type": "update", "tables": [TABLE, ...]}       # tables that changed since last frame
    TABLE = {"game", "table", "status": "live" | "over" | "closed", "view": {...} | null,
             "event": EVENT | null,                  # newest event
             "events": [EVENT, ...],                 # events since the previous frame
                                                     # (the newest ``frame_events`` of them)
             "skipped": n,                           # events not listed in "events"
             "since": ts | null,                     # publish time of the oldest event
                                                     # in this update (listed or skipped)
             "updated": ts}
    EVENT = {"game", "table", "kind", "data", "ts", "seq"}   # GameEvent.to_json()

``status``: ``live`` while a game or deal is in play; ``over`` between two of them (the next
may start at the same table: a mariáš group deals again at one address); ``closed`` when the
table plays no more (``group_closed``). Tables ``over`` or ``closed`` for ``finished_ttl``
seconds leave the live list.

For games whose events carry ``data["view"]`` the view is not repeated in ``events`` (the
table's ``view`` is the newest one); ``event`` keeps it so renderers can read either.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from herna.hall.events import EventBus, GameEvent, Subscription
from herna.web.folds import TableFold, fold_for

log = logging.getLogger(__name__)

TableKey = tuple[str, str]

CLOSING_KINDS = frozenset({"group_closed", "table_closed"})
"""Events after which a table plays no more (``game_over`` ends one deal or game; a mariáš
group or a tile table can go on with the next at the same address)."""


@dataclass
class LiveSettings:
    interval: float = 0.1
    """Minimum seconds between two frames to a client (coalescing at high event rates)."""

    client_queue: int = 16
    """Frames queued per client before it is dropped as too slow."""

    max_clients: int = 2000
    """WebSocket spectators accepted at once; more are refused (close code 1013)."""

    max_tables: int = 200
    """Live tables remembered; the least recently updated are forgotten first."""

    recent_events: int = 30
    """Events per table kept for the snapshot a new client gets."""

    frame_events: int = 30
    """Events per table listed in one update frame (the rest are counted as skipped)."""

    finished_ttl: float = 120.0
    """Seconds a finished table stays on the live list after its game_over."""

    bus_limit: int = 50_000
    """Queue limit of the hub's own bus subscription."""

    send_budget: float = 500.0
    """Frames per second to all clients together. With many spectators the interval grows
    (``clients / send_budget`` seconds) so that watching never costs the game servers more
    than a bounded share of the event loop."""

    def interval_for(self, clients: int) -> float:
        """Seconds between two flushes with ``clients`` spectators connected."""
        return max(self.interval, clients / self.send_budget if self.send_budget > 0 else 0.0)


def encode(value: Any) -> str:
    """Compact JSON text as browsers parse it (no NaN; odd values become strings)."""
    return json.dumps(
        value, separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=str
    )


def encode_table(part: dict[str, Any]) -> str:
    """One table of a frame; a view that cannot be encoded is replaced by an error note
    rather than breaking the frame for every other table."""
    try:
        return encode(part)
    except (TypeError, ValueError) as exc:
        log.warning("web hall: %s/%s view is not JSON-ready: %s", part["game"], part["table"], exc)
        safe = {**part, "view": {"error": f"view not JSON-ready: {exc}"}, "event": None}
        safe["events"] = []
        return encode(safe)


def _event_json(event: GameEvent, strip_view: bool) -> dict[str, Any]:
    out = event.to_json()
    if strip_view and "view" in event.data:
        out["data"] = {k: v for k, v in event.data.items() if k != "view"}
    return out


@dataclass
class LiveTable:
    game: str
    table: str
    fold: TableFold
    status: str = "live"
    updated: float = 0.0
    last: GameEvent | None = None
    recent: deque[GameEvent] = field(default_factory=deque)
    pending: deque[GameEvent] = field(default_factory=deque)
    skipped: int = 0
    since: float | None = None
    errors: int = 0

    def to_json(
        self, events: Iterable[GameEvent], skipped: int = 0, since: float | None = None
    ) -> dict[str, Any]:
        return {
            "game": self.game,
            "table": self.table,
            "status": self.status,
            "view": self.fold.view(),
            "event": self.last.to_json() if self.last else None,
            "events": [_event_json(e, strip_view=True) for e in events],
            "skipped": skipped,
            "since": since,
            "updated": self.updated,
        }


Sender = Callable[[str], Awaitable[None]]


class CpuMeter:
    """CPU seconds the live views cost the event loop's thread (folding, encoding, sending).

    A send that had to wait for a slow socket lets other tasks run meanwhile; such sends are
    not counted (their thread time would include the other tasks' work)."""

    SUSPENDED = 0.005
    """A send that took longer than this (wall clock) is taken to have waited."""

    def __init__(self) -> None:
        self.seconds = 0.0

    async def send(self, send: Sender, frame: str) -> None:
        cpu, wall = time.thread_time(), time.perf_counter()
        await send(frame)
        if time.perf_counter() - wall < self.SUSPENDED:
            self.seconds += time.thread_time() - cpu


class LiveClient:
    """One browser connection: a filter and a bounded mailbox drained by a sender task."""

    def __init__(
        self,
        send: Sender,
        game: str | None,
        table: str | None,
        limit: int,
        meter: CpuMeter | None = None,
    ) -> None:
        self._send = send
        self.meter = meter or CpuMeter()
        self.game = game
        self.table = table
        self.limit = limit
        self.frames: deque[str] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self.dropped = False
        self.closed = asyncio.Event()
        self.sent = 0

    @property
    def key(self) -> tuple[str | None, str | None]:
        return (self.game, self.table)

    def wants(self, game: str, table: str) -> bool:
        return (self.game is None or self.game == game) and (
            self.table is None or self.table == table
        )

    def offer(self, frame: str) -> bool:
        """Queue a frame; False (and the client is marked dropped) if the queue is full."""
        if self.closed.is_set():
            return False
        if len(self.frames) >= self.limit:
            self.dropped = True
            self.closed.set()
            return False
        self.frames.append(frame)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        return True

    async def run(self) -> None:
        """Send queued frames, forever; the connection handler cancels this task when the
        client goes away or :attr:`closed` is set (dropped, hall stopping)."""
        loop = asyncio.get_running_loop()
        while True:
            while self.frames:
                await self.meter.send(self._send, self.frames.popleft())
                self.sent += 1
            self._waiter = loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None


class LiveHub:
    """Folds bus events per table and feeds every connected client."""

    def __init__(self, bus: EventBus, settings: LiveSettings | None = None) -> None:
        self.bus = bus
        self.settings = settings or LiveSettings()
        self.tables: OrderedDict[TableKey, LiveTable] = OrderedDict()
        self.clients: set[LiveClient] = set()
        self._dirty: set[TableKey] = set()
        self._sub: Subscription | None = None
        self._task: asyncio.Task[None] | None = None
        self.events = 0
        self.frames = 0
        self.dropped_clients = 0
        self.resubscribed = 0
        self.meter = CpuMeter()

    # -- lifecycle --------------------------------------------------------------------------
    def start(self) -> None:
        if self._task is None:
            self._sub = self.bus.subscribe(limit=self.settings.bus_limit)
            # Tables that were live before the web hall started still show up.
            for event in list(self.bus.recent):
                self._apply(event)
            self._dirty.clear()
            for table in self.tables.values():
                table.pending.clear()
                table.skipped = 0
                table.since = None
            self._task = asyncio.get_running_loop().create_task(self._pump(), name="herna-live")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._sub is not None:
            self._sub.close()
            self._sub = None
        for client in list(self.clients):
            client.closed.set()

    # -- events -----------------------------------------------------------------------------
    def _apply(self, event: GameEvent) -> None:
        key = (event.game, event.table)
        table = self.tables.get(key)
        if table is None:
            table = LiveTable(event.game, event.table, fold_for(event.game))
            table.recent = deque(maxlen=self.settings.recent_events)
            table.pending = deque(maxlen=self.settings.frame_events)
            self.tables[key] = table
            while len(self.tables) > self.settings.max_tables:
                old, _ = self.tables.popitem(last=False)
                self._dirty.discard(old)
        else:
            self.tables.move_to_end(key)
        try:
            table.fold.apply(event)
        except Exception:  # a malformed event must not stop the live views
            table.errors += 1
            if table.errors == 1:
                log.exception("web hall: cannot fold %s event %s", event.game, event.kind)
        table.last = event
        table.updated = event.ts
        if event.kind in CLOSING_KINDS:
            table.status = "closed"
        elif table.status == "closed":
            pass  # nothing reopens a closed table
        elif event.kind == "game_over":
            table.status = "over"
        elif event.kind == "game_started":
            table.status = "live"
        table.recent.append(event)
        if len(table.pending) == table.pending.maxlen:
            table.skipped += 1
        if table.since is None:
            table.since = event.ts
        table.pending.append(event)
        self._dirty.add(key)
        self.events += 1

    async def _pump(self) -> None:
        while True:
            sub = self._sub
            assert sub is not None
            first = await sub.get()
            if first is None:
                # Our own subscription fell behind (the loop was starved): start again.
                self.resubscribed += 1
                log.warning("web hall: live subscription dropped; resubscribing")
                self._sub = self.bus.subscribe(limit=self.settings.bus_limit)
                continue
            cpu = time.thread_time()
            self._apply(first)
            for event in sub.drain():
                self._apply(event)
            try:
                self._flush()
            except Exception:  # a bug here must not stop the live views for good
                log.exception("web hall: live flush failed")
            self._expire()
            self.meter.seconds += time.thread_time() - cpu
            await asyncio.sleep(self.settings.interval_for(len(self.clients)))

    def _expire(self) -> None:
        now = time.time()
        ttl = self.settings.finished_ttl
        for key in [k for k, t in self.tables.items() if t.status in ("over", "closed")]:
            if now - self.tables[key].updated > ttl and key not in self._dirty:
                del self.tables[key]

    def _flush(self) -> None:
        if not self._dirty:
            return
        changed = [t for k, t in self.tables.items() if k in self._dirty]
        self._dirty.clear()
        if not self.clients:  # nobody watching: nothing to build
            for t in changed:
                t.pending.clear()
                t.skipped = 0
                t.since = None
            return
        parts: dict[TableKey, str] = {}
        for t in changed:
            parts[(t.game, t.table)] = encode_table(t.to_json(t.pending, t.skipped, t.since))
            t.pending.clear()
            t.skipped = 0
            t.since = None
        frames: dict[tuple[str | None, str | None], str | None] = {}
        for client in list(self.clients):
            key = client.key
            if key not in frames:
                tables = [p for k, p in parts.items() if client.wants(*k)]
                frames[key] = (
                    '{"type":"update","tables":[' + ",".join(tables) + "]}" if tables else None
                )
            frame = frames[key]
            if frame is not None and not client.offer(frame):
                self._drop(client)
        self.frames += sum(1 for f in frames.values() if f is not None)

    # -- clients ----------------------------------------------------------------------------
    def snapshot(self, game: str | None = None, table: str | None = None) -> list[dict[str, Any]]:
        """Current state of the matching live tables, newest first."""
        out = []
        for t in reversed(self.tables.values()):
            if (game is None or t.game == game) and (table is None or t.table == table):
                out.append(t.to_json(t.recent))
        return out

    def snapshot_json(self, game: str | None = None, table: str | None = None) -> str:
        """:meth:`snapshot` as the comma-separated JSON of its tables."""
        return ",".join(encode_table(part) for part in self.snapshot(game, table))

    def connect(self, send: Sender, game: str | None, table: str | None) -> LiveClient | None:
        """Register a client and queue its snapshot; None when the hall is full."""
        if len(self.clients) >= self.settings.max_clients:
            return None
        client = LiveClient(send, game, table, self.settings.client_queue, self.meter)
        client.offer('{"type":"snapshot","tables":[' + self.snapshot_json(game, table) + "]}")
        self.clients.add(client)
        return client

    def disconnect(self, client: LiveClient) -> None:
        client.closed.set()
        self.clients.discard(client)

    def _drop(self, client: LiveClient) -> None:
        self.dropped_clients += 1
        log.info("web hall: dropped a slow spectator (%s/%s)", client.game, client.table)
        self.disconnect(client)

    def stats(self) -> dict[str, Any]:
        return {
            "clients": len(self.clients),
            "tables": len(self.tables),
            "events": self.events,
            "frames": self.frames,
            "dropped_clients": self.dropped_clients,
            "cpu_seconds": round(self.meter.seconds, 3),
        }
