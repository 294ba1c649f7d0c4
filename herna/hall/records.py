"""Records: every finished game is stored with its players, result and event log, so it can be
listed, scored, rated and replayed.

Servers hand a :class:`MatchRecord` to :meth:`RecordStore.submit`, which never blocks the
event loop: a writer thread commits records in batches. :meth:`RecordStore.flush` (called on
shutdown and by tests) waits until everything submitted is on disk.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from herna.hall.db import (
    MatchEventRow,
    MatchPlayerRow,
    MatchRow,
    RatingRow,
    StandingRow,
    make_engine,
)

log = logging.getLogger(__name__)


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class PlayerResult:
    seat: int
    name: str
    score: float = 0.0
    winner: bool = False
    kind: str = "unknown"  # "bot", "human", "house-bot" or "unknown"


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


_STOP = object()


class RecordStore:
    """Read and write match records. Thread-safe; writes go through one writer thread."""

    def __init__(self, url: str, batch_size: int = 200) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._model = PlackettLuce()
        self._queue: queue.Queue[Any] = queue.Queue()
        self._batch_size = batch_size
        self._writer: threading.Thread | None = None
        self._lock = threading.Lock()
        self.written = 0
        self.failed = 0

    # -- writing -------------------------------------------------------------------------
    def submit(self, record: MatchRecord) -> None:
        """Queue a record for the writer thread (returns at once)."""
        with self._lock:
            if self._writer is None or not self._writer.is_alive():
                self._writer = threading.Thread(
                    target=self._write_loop, name="herna-records", daemon=True
                )
                self._writer.start()
        self._queue.put(record)

    def save(self, record: MatchRecord) -> int:
        """Write one record now, in the caller's thread; returns its id."""
        with Session(self.engine) as session, session.begin():
            ids = self._write(session, [record])
        self.written += 1
        return ids[0]

    def flush(self, timeout: float = 30.0) -> None:
        """Block until every submitted record is committed."""
        if self._writer is None:
            return
        done = threading.Event()
        self._queue.put(done)
        done.wait(timeout)

    def close(self) -> None:
        self.flush()
        if self._writer is not None and self._writer.is_alive():
            self._queue.put(_STOP)
            self._writer.join(timeout=10)
        self.engine.dispose()

    def _write_loop(self) -> None:
        while True:
            item = self._queue.get()
            batch: list[MatchRecord] = []
            markers: list[threading.Event] = []
            stop = False
            while True:
                if item is _STOP:
                    stop = True
                elif isinstance(item, threading.Event):
                    markers.append(item)
                else:
                    batch.append(item)
                if len(batch) >= self._batch_size:
                    break
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
            if batch:
                self._commit_batch(batch)
            for marker in markers:
                marker.set()
            if stop:
                return

    def _commit_batch(self, batch: list[MatchRecord]) -> None:
        try:
            with Session(self.engine) as session, session.begin():
                self._write(session, batch)
            self.written += len(batch)
        except Exception:
            # Keep the data: retry one by one so one bad record cannot lose a batch.
            log.exception("batch of %d records failed; retrying one by one", len(batch))
            for record in batch:
                try:
                    self.save(record)
                except Exception:
                    self.failed += 1
                    log.exception("record of %s %s lost", record.game, record.table_id)

    def _write(self, session: Session, records: Sequence[MatchRecord]) -> list[int]:
        rows = []
        for rec in records:
            row = MatchRow(
                game=rec.game,
                table_id=rec.table_id,
                seed=rec.seed,
                status=rec.status,
                started_at=rec.started_at,
                finished_at=rec.finished_at,
                result=rec.result,
                meta=rec.meta,
            )
            row.players = [
                MatchPlayerRow(
                    seat=p.seat, name=p.name, kind=p.kind, score=p.score, winner=p.winner
                )
                for p in rec.players
            ]
            row.events = [
                MatchEventRow(seq=i, kind=kind, data=data)
                for i, (kind, data) in enumerate(rec.events)
            ]
            session.add(row)
            rows.append(row)
            if rec.rated and rec.players:
                self._update_standings(session, rec)
                self._update_ratings(session, rec)
        session.flush()
        return [r.id for r in rows]

    def _update_standings(self, session: Session, rec: MatchRecord) -> None:
        for p in rec.players:
            row = session.get(StandingRow, (rec.game, p.name))
            if row is None:
                row = StandingRow(game=rec.game, name=p.name, points=0.0, games=0, wins=0)
                session.add(row)
            row.points += p.score
            row.games += 1
            row.wins += int(p.winner)

    def _update_ratings(self, session: Session, rec: MatchRecord) -> None:
        names = [p.name for p in rec.players]
        if len(rec.players) < 2 or len(set(names)) != len(names):
            return
        rows = []
        for p in rec.players:
            row = session.get(RatingRow, (rec.game, p.name))
            if row is None:
                fresh = self._model.rating()
                row = RatingRow(game=rec.game, name=p.name, mu=fresh.mu, sigma=fresh.sigma, games=0)
                session.add(row)
            rows.append(row)
        teams = [[self._model.create_rating([r.mu, r.sigma])] for r in rows]
        # Higher score is better; OpenSkill wants "lower rank is better".
        ranks = [-p.score for p in rec.players]
        new = self._model.rate(teams, ranks=ranks)
        for row, team in zip(rows, new, strict=True):
            row.mu, row.sigma = team[0].mu, team[0].sigma
            row.games += 1

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
