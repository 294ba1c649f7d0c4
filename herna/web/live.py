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
and resumes (below).

Versions and resuming
---------------------
Every event of a table has a **version** (1, 2, 3 … per table, consecutive) within a
**stream**, given by the bus of the process that hosts the table (:mod:`herna.hall.events`)
and carried unchanged over the PostgreSQL bridge (:mod:`herna.hall.bridge`). So every live
process — the web hall of the game's own ``herna serve``, or a web hall in another process on
the same database — knows a table's events by the same numbers, and a browser that
reconnects to any of them resumes where it was. A stream that changes (a restarted process, a
table its bus forgot and saw again) starts the table's history afresh; so does a gap in the
versions (an event this process never got, e.g. while its bridge was reconnecting): the hub
keeps only unbroken runs of events, so it never claims to have events it lacks.

The hub keeps the newest ``history`` events of each table (200 by default). A browser that
reconnects says, per table it follows, the stream and the newest version it has
(``?resume=`` on ``/ws/live``, see :meth:`herna.web.app.WebApp.ws_live`); for each table
whose stream matches and whose missing events are all still kept, the first frame lists
exactly the events after that version (``"mode": "resume"``), otherwise a fresh snapshot of
the table (``"mode": "snapshot"``). The first frame never lists an event that the next
update will list: it covers the events up to the last flush (``LiveTable.flushed``), the
next update the ones after. A browser that comes from a live process further ahead than
this one (it has versions this hub has not flushed yet) resumes with no events: the updates
that follow list the versions it already has again, and the page skips those.

Frames (JSON text)::

    {"type": "snapshot", "tables": [TABLE, ...]}     # first frame after connecting
    {"type": "resume", "tables": [TABLE, ...]}       # first frame after ?resume=...
    {"type": "update", "tables": [TABLE, ...]}       # tables that changed since last frame
    TABLE = {"game", "table", "status": "live" | "over" | "closed", "view": {...} | null,
             "event": EVENT | null,                  # newest event
             "events": [EVENT, ...],                 # update: events since the previous
                                                     # frame (the newest ``frame_events``);
                                                     # snapshot: the newest
                                                     # ``recent_events``; resume: every
                                                     # event after the client's version
             "skipped": n,                           # events not listed in "events"
             "since": ts | null,                     # publish time of the oldest event
                                                     # in this update (listed or skipped)
             "stream": str, "version": n,            # the newest event accounted for
             "mode": "snapshot" | "resume",          # first frame only
             "updated": ts}
    EVENT = {"game", "table", "kind", "data", "ts", "seq", "v"}   # v: the event's version

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
import itertools
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
    """Events per table listed in the snapshot a new client gets."""

    history: int = 200
    """Events per table kept for browsers that reconnect and resume (module doc); a gap
    longer than this gets a snapshot instead."""

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

    @classmethod
    def live_tier(cls) -> LiveSettings:
        """The defaults of a web hall that has its process to itself (``herna serve --only
        web``, fed over the PostgreSQL bridge, docs/scaling.md): no game server shares its
        event loop, so the send budget only has to keep it within its own core — 10,000
        frames/s cost it about 0.3 of a core (bench/web_spectators.py --web-process) and give
        5,000 spectators a frame every 0.5 s — and it takes more spectators."""
        return cls(send_budget=10_000.0, max_clients=10_000)

    def interval_for(self, clients: int) -> float:
        """Seconds between two flushes with ``clients`` spectators connected."""
        return max(self.interval, clients / self.send_budget if self.send_budget > 0 else 0.0)


DELIVERY_SLICE = 32
"""Clients offered a frame in one turn of the event loop (their sends run in the next)."""


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


def _event_json(event: GameEvent) -> dict[str, Any]:
    out = event.to_json()
    if "view" in event.data:
        out["data"] = {k: v for k, v in event.data.items() if k != "view"}
    out["v"] = event.version
    return out


ResumePoints = dict[tuple[str, str], tuple[str, int]]
"""What a reconnecting browser has: (game, table) -> (stream, newest version)."""


def parse_resume(text: str, limit: int) -> ResumePoints | None:
    """The ``resume`` query parameter of ``/ws/live``: a JSON list of
    ``[game, table, stream, version]``, at most ``limit`` of them read. None when it is not
    such a list (the browser then gets a plain snapshot); malformed entries are left out
    (those tables get a snapshot)."""
    try:
        items = json.loads(text)
    except ValueError:
        return None
    if not isinstance(items, list):
        return None
    points: ResumePoints = {}
    for item in items[:limit]:
        if (
            isinstance(item, list)
            and len(item) == 4
            and all(isinstance(x, str) for x in item[:3])
            and isinstance(item[3], int)
            and not isinstance(item[3], bool)
        ):
            points[(item[0], item[1])] = (item[2], item[3])
    return points


@dataclass
class LiveTable:
    game: str
    table: str
    fold: TableFold
    stream: str = ""
    status: str = "live"
    updated: float = 0.0
    last: GameEvent | None = None
    version: int = 0
    """Version of the newest event folded (its stream's numbering, module doc)."""
    flushed: int = 0
    """Version of the newest event already accounted for in an update frame; the next
    update starts after it."""
    history: deque[GameEvent] = field(default_factory=deque)
    """The newest events, an unbroken run of versions ``version - len(history) + 1`` …
    ``version``."""
    pending: deque[GameEvent] = field(default_factory=deque)
    """Events for the next update (the newest ``frame_events`` of them), oldest first."""
    skipped: int = 0
    since: float | None = None
    errors: int = 0

    @property
    def oldest(self) -> int:
        """Version of the oldest event kept (``version + 1`` when none is)."""
        return self.version - len(self.history) + 1

    def kept(self, first: int, last: int) -> list[GameEvent]:
        """The events of versions ``first`` … ``last``; ``first`` must be kept."""
        oldest = self.oldest
        start, stop = first - oldest, last - oldest + 1
        assert start >= 0, (first, oldest)
        if stop <= start:
            return []
        return list(itertools.islice(self.history, start, stop))

    def can_resume(self, stream: str, version: int) -> bool:
        """Whether every event after ``version`` of ``stream`` up to the last flush is
        still kept (none is needed when the browser is ahead of this hub)."""
        return stream == self.stream and self.oldest - 1 <= version

    def follow(self, event: GameEvent) -> None:
        """Account for the table's next event: a new stream or a gap in the versions starts
        the history afresh (only unbroken runs are kept, module doc)."""
        if event.stream != self.stream:
            self.stream = event.stream
            self.history.clear()
            self.pending.clear()
            self.skipped = 0
            self.since = None
            self.flushed = event.version - 1
        elif event.version != self.version + 1:
            self.history.clear()
            if event.version <= self.flushed:  # numbered again from lower: start afresh
                self.flushed = event.version - 1
        self.version = event.version
        self.history.append(event)

    def to_json(
        self,
        events: Iterable[GameEvent],
        last: int,
        skipped: int = 0,
        since: float | None = None,
        mode: str | None = None,
    ) -> dict[str, Any]:
        """The table's part of a frame: ``events`` (each with its version), and the frame
        accounts for the events up to version ``last``."""
        out = {
            "game": self.game,
            "table": self.table,
            "status": self.status,
            "view": self.fold.view(),
            "event": self.last.to_json() if self.last else None,
            "events": [_event_json(e) for e in events],
            "skipped": skipped,
            "since": since,
            "stream": self.stream,
            "version": last,
            "updated": self.updated,
        }
        if mode is not None:
            out["mode"] = mode
        return out

    def snapshot_json(self, recent: int) -> dict[str, Any]:
        """A fresh start: the newest ``recent`` events up to the last flush."""
        first = max(self.oldest, self.flushed - recent + 1)
        return self.to_json(self.kept(first, self.flushed), self.flushed, mode="snapshot")

    def resume_json(self, version: int) -> dict[str, Any]:
        """Every event after ``version`` up to the last flush (see :meth:`can_resume`)."""
        events = self.kept(version + 1, self.flushed)
        return self.to_json(events, max(version, self.flushed), mode="resume")


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
        self.resumed = 0
        self.meter = CpuMeter()
        self.version = 0
        """Counts the events applied: a snapshot made at one version is the snapshot until
        the next event, so every request and socket in between shares it."""
        self.changed_at = time.time()
        """Wall-clock time of the last change of :attr:`version` (``Last-Modified``)."""
        self._snapshots: dict[tuple[str | None, str | None], tuple[int, str]] = {}
        self.snapshots_made = 0

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
                table.flushed = table.version
                table.skipped = 0
                table.since = None
            self.version += 1
            self.changed_at = time.time()
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
            table.history = deque(maxlen=max(1, self.settings.history))
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
        table.follow(event)
        if len(table.pending) == table.pending.maxlen:
            table.skipped += 1
        if table.since is None:
            table.since = event.ts
        table.pending.append(event)
        self._dirty.add(key)
        self.events += 1
        self.version += 1
        self.changed_at = time.time()

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
            deliveries: list[tuple[LiveClient, str]] = []
            try:
                deliveries = self._frames()
            except Exception:  # a bug here must not stop the live views for good
                log.exception("web hall: live flush failed")
            self._expire()
            self.meter.seconds += time.thread_time() - cpu
            # A frame offered wakes its client's sender in the loop's next turn: offered to a
            # thousand spectators at once, a thousand sends would run back to back while a
            # move that came in meanwhile waited for them all (issue 28 measured an Onitama
            # move's p99 at 86 ms so). A few at a time, the tables' work comes between.
            for start in range(0, len(deliveries), DELIVERY_SLICE):
                cpu = time.thread_time()
                self._offer(deliveries[start : start + DELIVERY_SLICE])
                self.meter.seconds += time.thread_time() - cpu
                await asyncio.sleep(0)
            await asyncio.sleep(self.settings.interval_for(len(self.clients)))

    def _expire(self) -> None:
        now = time.time()
        ttl = self.settings.finished_ttl
        for key in [k for k, t in self.tables.items() if t.status in ("over", "closed")]:
            if now - self.tables[key].updated > ttl and key not in self._dirty:
                del self.tables[key]
                self.version += 1

    def _flush(self) -> None:
        """Fold what changed into frames and offer them to every client at once."""
        self._offer(self._frames())

    def _offer(self, deliveries: list[tuple[LiveClient, str]]) -> None:
        for client, frame in deliveries:
            # A client that left while earlier slices were sent is gone, not slow.
            if client in self.clients and not client.offer(frame):
                self._drop(client)

    def _frames(self) -> list[tuple[LiveClient, str]]:
        """Mark what changed as flushed and return each client's update frame."""
        if not self._dirty:
            return []
        self.version += 1  # snapshots show what was flushed
        changed = [t for k, t in self.tables.items() if k in self._dirty]
        self._dirty.clear()
        if not self.clients:  # nobody watching: nothing to build
            for t in changed:
                t.pending.clear()
                t.flushed = t.version
                t.skipped = 0
                t.since = None
            return []
        parts: dict[TableKey, str] = {}
        for t in changed:
            part = t.to_json(t.pending, t.version, t.skipped, t.since)
            parts[(t.game, t.table)] = encode_table(part)
            t.flushed = t.version
            t.pending.clear()
            t.skipped = 0
            t.since = None
        frames: dict[tuple[str | None, str | None], str | None] = {}
        deliveries: list[tuple[LiveClient, str]] = []
        for client in self.clients:
            key = client.key
            if key not in frames:
                tables = [p for k, p in parts.items() if client.wants(*k)]
                frames[key] = (
                    '{"type":"update","tables":[' + ",".join(tables) + "]}" if tables else None
                )
            frame = frames[key]
            if frame is not None:
                deliveries.append((client, frame))
        self.frames += sum(1 for f in frames.values() if f is not None)
        return deliveries

    # -- clients ----------------------------------------------------------------------------
    def snapshot(
        self,
        game: str | None = None,
        table: str | None = None,
        resume: ResumePoints | None = None,
    ) -> list[dict[str, Any]]:
        """Current state of the matching live tables, newest first: a snapshot of each, or
        for the tables in ``resume`` that can resume, the events after the version given."""
        out = []
        recent = self.settings.recent_events
        for t in reversed(self.tables.values()):
            if (game is None or t.game == game) and (table is None or t.table == table):
                point = resume.get((t.game, t.table)) if resume else None
                if point is not None and t.can_resume(*point):
                    self.resumed += 1
                    out.append(t.resume_json(point[1]))
                else:
                    out.append(t.snapshot_json(recent))
        return out

    def snapshot_json(
        self,
        game: str | None = None,
        table: str | None = None,
        resume: ResumePoints | None = None,
    ) -> str:
        """:meth:`snapshot` as the comma-separated JSON of its tables (a plain snapshot is
        encoded once per :attr:`version` and filter, then shared)."""
        if resume:
            return ",".join(encode_table(part) for part in self.snapshot(game, table, resume))
        made = self._snapshots.get((game, table))
        if made is not None and made[0] == self.version:
            return made[1]
        if len(self._snapshots) > 256:  # filters are few; a scan of many must not pile up
            self._snapshots.clear()
        text = ",".join(encode_table(part) for part in self.snapshot(game, table))
        self._snapshots[(game, table)] = (self.version, text)
        self.snapshots_made += 1
        return text

    def connect(
        self,
        send: Sender,
        game: str | None,
        table: str | None,
        resume: ResumePoints | None = None,
    ) -> LiveClient | None:
        """Register a client and queue its first frame: a snapshot, or with ``resume`` (what
        a reconnecting browser has) a resume frame; None when the hall is full."""
        if len(self.clients) >= self.settings.max_clients:
            return None
        client = LiveClient(send, game, table, self.settings.client_queue, self.meter)
        kind = "snapshot" if resume is None else "resume"
        tables = self.snapshot_json(game, table, resume)
        client.offer('{"type":"' + kind + '","tables":[' + tables + "]}")
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
            "resumed_tables": self.resumed,
            "cpu_seconds": round(self.meter.seconds, 3),
        }
