"""Game events between Herna processes that share one PostgreSQL database.

Every ``herna serve`` has its own in-process :class:`~herna.hall.events.EventBus`. When
several of them share a PostgreSQL database (docs/scaling.md: a second super game server
process, a web hall on its own), this bridge carries each process's game events to the
others over PostgreSQL's own ``LISTEN``/``NOTIFY`` — no broker to run besides the database
the hall already needs — so that one web hall shows every process's live tables.

* Sending: the bridge subscribes to the local bus and, every :data:`FLUSH_SECONDS`, sends
  what arrived as JSON in as few ``pg_notify`` calls as fit the 8,000-byte payload limit
  (zlib-compressed when that makes an event fit). An event too large even then is not sent
  (counted in :attr:`PostgresBridge.too_large`); the record in the database is complete
  anyway — the bus only feeds live views.
* Receiving: a second connection listens; events from other processes are published on the
  local bus with their original publish time and their table's stream and version (numbered
  by the process that hosts the table, :mod:`herna.hall.events`), and are never sent back
  out. An event left out or lost shows as a gap in the versions: the web hall then gives a
  browser a fresh snapshot of that table instead of a resume.
* A lost database connection is retried with backoff; live events published meanwhile are
  not replayed (spectators catch up from the next event, as after any reconnect).

Events stay what spectators may see (no hidden cards): the bus never carries anything else.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import secrets
import zlib
from typing import Any

from sqlalchemy.engine import make_url

from herna.hall.db import normalise_url
from herna.hall.events import EventBus, GameEvent, Subscription

log = logging.getLogger(__name__)

CHANNEL = "herna_events"
PAYLOAD_LIMIT = 7_900
"""Bytes of one NOTIFY payload (PostgreSQL's limit is 8,000 by default)."""
FLUSH_SECONDS = 0.02
"""How long events gather before they are sent: fewer, fuller notifications."""


def is_postgres(url: str) -> bool:
    return make_url(normalise_url(url)).get_backend_name() == "postgresql"


def conninfo(url: str) -> str:
    """A libpq URL for psycopg from Herna's database URL (SQLAlchemy's driver name dropped)."""
    parsed = make_url(normalise_url(url)).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


def encode(origin: str, events: list[GameEvent]) -> tuple[list[str], int]:
    """(NOTIFY payloads of at most :data:`PAYLOAD_LIMIT` bytes each, events left out). An
    event that does not fit alone is zlib-compressed; one that does not fit even so is left
    out."""
    room = PAYLOAD_LIMIT - len(origin) - 16
    payloads: list[str] = []
    batch: list[str] = []
    size = left_out = 0
    for event in events:
        item = json.dumps(
            [
                event.game,
                event.table,
                event.kind,
                event.data,
                event.ts,
                event.stream,
                event.version,
            ],
            separators=(",", ":"),
        )
        if len(item) > room:
            item = json.dumps("z" + base64.b64encode(zlib.compress(item.encode(), 6)).decode())
            if len(item) > room:
                left_out += 1
                continue
        if batch and size + len(item) + 1 > room:
            payloads.append(_join(origin, batch))
            batch, size = [], 0
        batch.append(item)
        size += len(item) + 1
    if batch:
        payloads.append(_join(origin, batch))
    return payloads, left_out


def _join(origin: str, items: list[str]) -> str:
    return '{"o":' + json.dumps(origin) + ',"e":[' + ",".join(items) + "]}"


def decode(payload: str) -> tuple[str, list[GameEvent]]:
    """(origin, events) of one payload made by :func:`encode`; raises ``ValueError``."""
    message = json.loads(payload)
    events = []
    for item in message["e"]:
        if isinstance(item, str) and item.startswith("z"):
            item = json.loads(zlib.decompress(base64.b64decode(item[1:])))
        game, table, kind, data, ts, stream, version = item
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise ValueError(f"not an event version: {version!r}")
        events.append(
            GameEvent(
                str(game),
                str(table),
                str(kind),
                dict(data),
                float(ts),
                stream=str(stream),
                version=version,
            )
        )
    return str(message["o"]), events


class PostgresBridge:
    """Carries game events between the processes on one PostgreSQL database (module doc)."""

    def __init__(self, url: str, bus: EventBus) -> None:
        self.url = url
        self.bus = bus
        self.origin = secrets.token_hex(8)
        self._own = _join(self.origin, [])[: -len("[]}")]
        """How this process's own notifications begin."""
        self.sent = 0
        self.received = 0
        self.too_large = 0
        self._relaying = False
        """True while this bridge publishes another process's event on the local bus: its
        own subscription must not send it back out."""
        self._tasks: list[asyncio.Task[None]] = []
        self.listening = asyncio.Event()

    def _subscribe(self) -> Subscription:
        return self.bus.subscribe(accept=lambda _e: not self._relaying, limit=100_000)

    async def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._send_forever(self._subscribe())),
            asyncio.create_task(self._listen_forever()),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _connect(self) -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(conninfo(self.url), autocommit=True)

    async def _send_forever(self, sub: Subscription) -> None:
        delay = 0.5
        while True:
            try:
                conn = await self._connect()
            except Exception as e:
                log.warning(
                    "event bridge: cannot reach the database (%s); again in %.1fs", e, delay
                )
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)
                continue
            delay = 0.5
            try:
                async with conn:
                    while True:
                        event = await sub.get()
                        if event is None:  # dropped: the database was too slow for a while
                            log.warning("event bridge: fell behind; live events were skipped")
                            sub = self._subscribe()
                            continue
                        await asyncio.sleep(FLUSH_SECONDS)
                        events = [event, *sub.drain()]
                        payloads, left_out = encode(self.origin, events)
                        for payload in payloads:
                            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                        self.sent += len(events) - left_out
                        self.too_large += left_out
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("event bridge: sending failed (%s); reconnecting", e)
                await asyncio.sleep(delay)

    async def _listen_forever(self) -> None:
        delay = 0.5
        while True:
            try:
                conn = await self._connect()
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    delay = 0.5
                    async for note in conn.notifies():
                        self._received(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.listening.clear()
                log.warning("event bridge: listening failed (%s); again in %.1fs", e, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    def _received(self, payload: str) -> None:
        # Every process hears its own notifications too: known by their first bytes (see
        # _join), they are dropped before anything is decoded.
        if payload.startswith(self._own):
            return
        try:
            origin, events = decode(payload)
        except (ValueError, KeyError, TypeError, zlib.error) as e:
            log.warning("event bridge: a notification that is not Herna's (%s)", e)
            return
        if origin == self.origin:
            return
        self._relaying = True
        try:
            for event in events:
                self.received += 1
                self.bus.publish(event)
        finally:
            self._relaying = False
