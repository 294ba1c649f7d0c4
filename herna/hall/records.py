"""Records: every finished game is stored with its players, result and event log, so it can be
listed, scored, rated and replayed.

Servers hand a :class:`MatchRecord` to :meth:`RecordStore.submit`, which never blocks the
event loop: a writer process (:mod:`herna.hall.writer`) commits records in batches.
:meth:`RecordStore.flush` (called on shutdown and by tests) waits until everything submitted
is on disk.
"""

from __future__ import annotations

import asyncio
import atexit
import itertools
import logging
import pickle
import queue
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from herna.hall.db import MatchPlayerRow, MatchRow, RatingRow, StandingRow, make_engine
from herna.hall.writer import _STOP, Flush, spawn_writer, write_records

log = logging.getLogger(__name__)

SHIP_DELAY = 0.05
"""Inside an event loop, records submitted within this many seconds go to the writer as one
batch: every hand-over wakes a queue thread and the writer process, which a busy server
feels (Mia at 500 rounds/s: one wake-up per round cost ~40 % of its throughput)."""


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class PlayerResult:
    seat: int
    name: str
    score: float = 0.0
    winner: bool = False
    kind: str = "unknown"  # "bot", "human", "house-bot" or "unknown"
    rated: bool = True
    """False: the result counts in the standings, but the player's OpenSkill rating does not
    move (a Mia player who never acted in a round: nothing in it was their skill)."""


@dataclass
class MatchRecord:
    """What a server knows about a finished game; ``events`` is the replayable log."""

    game: str
    table_id: str
    players: list[PlayerResult]
    result: dict[str, Any]
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    seed: int | None = None
    status: str = "finished"  # "finished", "aborted", "canceled"
    started_at: datetime = field(default_factory=utcnow)
    finished_at: datetime = field(default_factory=utcnow)
    meta: dict[str, Any] = field(default_factory=dict)
    rated: bool = True
    """Whether this match changes standings and ratings (canceled rounds do not)."""


@dataclass(frozen=True)
class StoredMatch:
    """A record as read back from the database."""

    id: int
    game: str
    table_id: str
    seed: int | None
    status: str
    started_at: datetime
    finished_at: datetime
    result: dict[str, Any]
    meta: dict[str, Any]
    players: tuple[PlayerResult, ...]
    events: tuple[tuple[str, dict[str, Any]], ...]

    def to_json(self, with_events: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "game": self.game,
            "table": self.table_id,
            "seed": self.seed,
            "status": self.status,
            "started_at": self.started_at.isoformat(),
            "finished_at": self.finished_at.isoformat(),
            "result": self.result,
            "meta": self.meta,
            "players": [
                {
                    "seat": p.seat,
                    "name": p.name,
                    "score": p.score,
                    "winner": p.winner,
                    "kind": p.kind,
                }
                for p in self.players
            ],
        }
        if with_events:
            out["events"] = [{"kind": k, "data": d} for k, d in self.events]
        return out


@dataclass(frozen=True)
class Standing:
    game: str
    name: str
    points: float
    games: int
    wins: int
    mu: float | None = None
    sigma: float | None = None

    @property
    def ordinal(self) -> float | None:
        """Conservative skill estimate (mu - 3 sigma), the usual leaderboard key."""
        if self.mu is None or self.sigma is None:
            return None
        return self.mu - 3 * self.sigma


def _as_utc(value: datetime) -> datetime:
    # SQLite hands back naive datetimes; all Herna times are UTC.
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _stored(row: MatchRow, with_events: bool) -> StoredMatch:
    return StoredMatch(
        id=row.id,
        game=row.game,
        table_id=row.table_id,
        seed=row.seed,
        status=row.status,
        started_at=_as_utc(row.started_at),
        finished_at=_as_utc(row.finished_at),
        result=row.result or {},
        meta=row.meta or {},
        players=tuple(PlayerResult(p.seat, p.name, p.score, p.winner, p.kind) for p in row.players),
        events=tuple((e.kind, e.data) for e in row.events) if with_events else (),
    )


class RecordStore:
    """Read and write match records.

    :meth:`submit` hands a record to the writer process (see :mod:`herna.hall.writer`) and
    returns at once; :meth:`flush` waits until everything submitted is committed; :meth:`save`
    writes synchronously in the caller's process. Reads run in the caller's process.
    """

    def __init__(self, url: str, batch_size: int = 500) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._batch_size = batch_size
        self._writer: Any = None
        self._inbox: Any = None
        self._outbox: Any = None
        self._lock = threading.Lock()
        self._flushes = itertools.count(1)
        self._saved = 0
        self._atexit_registered = False
        self._written_by_writer = 0
        self._outgoing: list[MatchRecord] = []
        self._ship_scheduled = False
        self.failed = 0

    @property
    def written(self) -> int:
        """Records committed so far (as of the last flush for the writer process)."""
        return self._saved + self._written_by_writer

    # -- writing -------------------------------------------------------------------------
    def submit(self, record: MatchRecord) -> None:
        """Queue a record for the writer process (returns at once).

        Called from an event loop, records are batched for up to :data:`SHIP_DELAY` seconds
        before they are handed over; elsewhere each one is handed over at once.
        """
        if self._writer is not None and not self._writer.is_alive():
            self._rescue()  # what the dead writer never wrote is written here first
        with self._lock:
            if self._writer is None:
                self._writer, self._inbox, self._outbox = spawn_writer(self.url, self._batch_size)
                if not self._atexit_registered:
                    # A store nobody closed must neither lose its queue nor hang the
                    # interpreter's exit (multiprocessing joins queue threads at exit).
                    atexit.register(self._close_at_exit)
                    self._atexit_registered = True
            self._outgoing.append(record)
            if self._ship_scheduled and len(self._outgoing) < self._batch_size:
                return
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
            if loop is None or len(self._outgoing) >= self._batch_size:
                self._ship_locked()
            else:
                self._ship_scheduled = True
                loop.call_later(SHIP_DELAY, self._ship)

    def _ship(self) -> None:
        with self._lock:
            self._ship_locked()

    def _ship_locked(self) -> None:
        self._ship_scheduled = False
        if self._outgoing and self._inbox is not None:
            batch, self._outgoing = self._outgoing, []
            self._inbox.put(batch)

    def save(self, record: MatchRecord) -> int:
        """Write one record now, in the caller's process; returns its id."""
        ids = write_records(self.engine, [record])
        self._saved += 1
        return ids[0]

    def flush(self, timeout: float = 60.0) -> None:
        """Block until every submitted record is committed."""
        if self._writer is None:
            return
        self._ship()
        token = next(self._flushes)
        self._inbox.put(Flush(token))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self._writer.is_alive():
                self._rescue()
                return
            try:
                got, written, failed = self._outbox.get(timeout=0.5)
            except queue.Empty:
                continue
            self._written_by_writer, self.failed = written, failed
            if got in (token, -1):
                return
        raise RuntimeError(f"the record writer did not finish within {timeout} s")

    def _rescue(self) -> None:
        """The writer process died: write what is still queued here, so nothing is lost."""
        log.error("the record writer process died; writing queued records in-process")
        # Read the queue's pipe directly: the writer was almost certainly killed inside
        # Queue.get, which holds the queue's read lock while it waits, so Queue.get here
        # would never get that lock again.
        reader = self._inbox._reader
        while True:
            try:
                if not reader.poll(0.2):
                    break
                item = reader.recv()
            except (EOFError, OSError, pickle.UnpicklingError):
                log.exception("the rest of the dead writer's queue is unreadable")
                break
            for record in item if isinstance(item, list) else [item]:
                if isinstance(record, MatchRecord):
                    self.save(record)
        with self._lock:
            pending, self._outgoing = self._outgoing, []
        for record in pending:
            self.save(record)
        # Nobody reads the pipe any more: don't let interpreter exit wait on its feeder thread.
        self._inbox.cancel_join_thread()
        self._writer = None

    def _close_at_exit(self) -> None:
        writer = self._writer
        if writer is None:
            return
        try:
            self.flush(timeout=15)
            self._inbox.put(_STOP)
            writer.join(timeout=5)
        except Exception:
            log.exception("records not confirmed written at exit")
        finally:
            if writer.is_alive():
                writer.terminate()
            self._inbox.cancel_join_thread()
            self._writer = None

    def close(self) -> None:
        if self._writer is not None and self._writer.is_alive():
            self.flush()
            self._inbox.put(_STOP)
            self._writer.join(timeout=30)
        self._writer = None
        self.engine.dispose()

    # -- reading -------------------------------------------------------------------------
    def get(self, match_id: int) -> StoredMatch | None:
        with Session(self.engine) as session:
            row = session.scalar(
                select(MatchRow)
                .where(MatchRow.id == match_id)
                .options(selectinload(MatchRow.players), selectinload(MatchRow.events))
            )
            return _stored(row, with_events=True) if row else None

    def matches(
        self,
        game: str | None = None,
        player: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[StoredMatch]:
        """Finished matches, newest first, without their event logs."""
        with Session(self.engine) as session:
            query = select(MatchRow).options(selectinload(MatchRow.players))
            if game:
                query = query.where(MatchRow.game == game)
            if player:
                query = query.where(
                    MatchRow.id.in_(
                        select(MatchPlayerRow.match_id).where(MatchPlayerRow.name == player)
                    )
                )
            if since:
                query = query.where(MatchRow.finished_at >= since)
            if until:
                query = query.where(MatchRow.finished_at <= until)
            query = query.order_by(MatchRow.id.desc()).limit(limit).offset(offset)
            return [_stored(r, with_events=False) for r in session.scalars(query)]

    def count(self, game: str | None = None) -> int:
        with Session(self.engine) as session:
            query = select(func.count(MatchRow.id))
            if game:
                query = query.where(MatchRow.game == game)
            return int(session.scalar(query) or 0)

    def standings(self, game: str) -> list[Standing]:
        """Every player's totals in ``game``, best first (points, then rating)."""
        with Session(self.engine) as session:
            ratings = {
                r.name: r for r in session.scalars(select(RatingRow).where(RatingRow.game == game))
            }
            out = []
            for s in session.scalars(select(StandingRow).where(StandingRow.game == game)):
                r = ratings.get(s.name)
                out.append(
                    Standing(
                        game,
                        s.name,
                        s.points,
                        s.games,
                        s.wins,
                        r.mu if r else None,
                        r.sigma if r else None,
                    )
                )
        out.sort(key=lambda s: (-s.points, s.name))
        return out

    def points(self, game: str, names: Iterable[str] | None = None) -> dict[str, float]:
        """Stored point totals per player (Mia restores its score table from this)."""
        wanted = set(names) if names is not None else None
        return {
            s.name: s.points for s in self.standings(game) if wanted is None or s.name in wanted
        }

    def player_stats(self, name: str) -> list[Standing]:
        """One player's standing in every game they played."""
        with Session(self.engine) as session:
            rows = session.scalars(select(StandingRow).where(StandingRow.name == name)).all()
            out = []
            for s in rows:
                r = session.get(RatingRow, (s.game, s.name))
                out.append(
                    Standing(
                        s.game,
                        s.name,
                        s.points,
                        s.games,
                        s.wins,
                        r.mu if r else None,
                        r.sigma if r else None,
                    )
                )
            return out
