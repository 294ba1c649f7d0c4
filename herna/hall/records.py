"""Records: every finished game is stored with its players, result and event log, so it can be
listed, scored, rated and replayed.

Servers hand a :class:`MatchRecord` to :meth:`RecordStore.submit` *before* they tell any
player the result: submit appends the record to the journal (:mod:`herna.hall.journal`; one
``os.write``, no waiting for the disk) and returns, and a writer process
(:mod:`herna.hall.writer`) commits the journal in batches. A record that was submitted is
therefore never lost to ``kill -9``: the next start replays whatever the database is
missing (:meth:`RecordStore.recover`). :meth:`RecordStore.flush` (called on shutdown and by
tests) waits until everything submitted is committed.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import json
import logging
import os
import secrets
import select as io_select
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

import herna
from herna.hall.counters import CounterBlocks
from herna.hall.db import (
    MatchPlayerRow,
    MatchRow,
    RatingRow,
    StandingRow,
    file_changed,
    file_identity,
    make_engine,
)
from herna.hall.journal import (
    JournalWriter,
    abandoned,
    frame,
    journal_dir_for,
    owner_gone,
    read_segment,
    segments_by_owner,
)
from herna.hall.writer import PACKED_EVENTS, commit_entries, write_records
from herna.hall.writer_spawn import WriterProcess, start_writer

log = logging.getLogger(__name__)


def new_key() -> str:
    """A record's unique key (128 random bits): what makes replaying the journal idempotent."""
    return secrets.token_hex(16)


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
    packed: bool = False
    """Store the actions inside the match row (``meta["packed_events"]``, ``[[player,
    action], ...]``) instead of one ``match_events`` row each: for games with many tiny
    records (a Mia round is 3-6 actions) the rows and their index were half the database.
    Read back, :class:`StoredMatch` has the same ``events`` either way."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled into the journal at every game's end, before its players hear the result:
        # plain values pickle in little more than half the time of the dataclasses and their
        # two datetimes (19.5 against 34 µs an Onitama record, docs/scaling.md) and load
        # back as the same record.
        return _record, (
            self.game,
            self.table_id,
            [(p.seat, p.name, p.score, p.winner, p.kind, p.rated) for p in self.players],
            self.result,
            self.events,
            self.seed,
            self.status,
            _instant(self.started_at),
            _instant(self.finished_at),
            self.meta,
            self.rated,
            self.packed,
        )


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def _instant(when: datetime) -> datetime | int:
    """A time in UTC (as :func:`utcnow` gives) as microseconds since 1970; any other as is."""
    return (when - _EPOCH) // _MICROSECOND if when.tzinfo is UTC else when


def _record(
    game: str,
    table_id: str,
    players: list[tuple[int, str, float, bool, str, bool]],
    result: dict[str, Any],
    events: list[tuple[str, dict[str, Any]]],
    seed: int | None,
    status: str,
    started: datetime | int,
    finished: datetime | int,
    meta: dict[str, Any],
    rated: bool,
    packed: bool,
) -> MatchRecord:
    """A :class:`MatchRecord` unpickled (see ``MatchRecord.__reduce__``)."""
    return MatchRecord(
        game,
        table_id,
        [PlayerResult(*p) for p in players],
        result,
        events,
        seed,
        status,
        started if isinstance(started, datetime) else _EPOCH + started * _MICROSECOND,
        finished if isinstance(finished, datetime) else _EPOCH + finished * _MICROSECOND,
        meta,
        rated,
        packed,
    )


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
    meta = dict(row.meta or {})
    packed = meta.pop(PACKED_EVENTS, None)
    events: tuple[tuple[str, dict[str, Any]], ...] = ()
    if with_events:
        if packed is not None:
            events = tuple(("action", {"player": p, "action": a}) for p, a in packed)
        else:
            events = tuple((e.kind, e.data) for e in row.events)
    return StoredMatch(
        id=row.id,
        game=row.game,
        table_id=row.table_id,
        seed=row.seed,
        status=row.status,
        started_at=_as_utc(row.started_at),
        finished_at=_as_utc(row.finished_at),
        result=row.result or {},
        meta=meta,
        players=tuple(PlayerResult(p.seat, p.name, p.score, p.winner, p.kind) for p in row.players),
        events=events,
    )


class RecordStore:
    """Read and write match records.

    :meth:`submit` journals a record and returns at once (the writer process commits it
    within about 50 ms); :meth:`flush` waits until everything submitted is committed;
    :meth:`save` writes synchronously in the caller's process; :meth:`allocate` hands out
    numbers that are never handed out again. Reads run in the caller's process.

    A store that only reads never touches the journal. The first :meth:`recover`,
    :meth:`submit` or :meth:`allocate` replays what dead processes left in the journal
    (``herna serve`` calls :meth:`recover` before any server starts) and starts the writer.
    """

    def __init__(
        self,
        url: str,
        batch_size: int = 500,
        journal_dir: str | Path | None = None,
        keep: dict[str, int] | None = None,
        *,
        create: bool = True,
    ) -> None:
        """``create=False``: a command that only reads; a missing SQLite file is an error
        (:class:`herna.hall.db.DatabaseUnavailable`), not a new database."""
        self.url = url
        self.keep = dict(keep or {})
        """Per game, how many of its newest records the writer keeps (``--keep-mia-rounds``);
        older ones are deleted. Standings and ratings are not records: they keep counting."""
        self.engine = make_engine(url, create=create)
        self.database_file = file_identity(url)
        """The SQLite file as opened (path, device, inode); None for PostgreSQL."""
        self.gone: str | None = None
        """Why the database file is not the one opened any more (deleted, replaced), for the
        status page; None while it is (see :meth:`check_database`)."""
        self._batch_size = batch_size
        self._journal_dir = Path(journal_dir) if journal_dir else journal_dir_for(url)
        self._temp_journal: tempfile.TemporaryDirectory[str] | None = None
        self._journal: JournalWriter | None = None
        self._writer: WriterProcess | None = None
        self._control = -1
        self._replies = -1
        self._reply_buffer = b""
        self._lock = threading.Lock()
        self._flushes = itertools.count(1)
        self._appends = 0
        self._held: list[bytes] = []
        """Frames the journal could not take (a full disk), oldest first: written before the
        next one, as soon as the disk takes them again."""
        self.trouble: str | None = None
        """Why records are held in memory instead of journaled, for the status page; None
        while all is well."""
        self._counters = CounterBlocks(self.engine, self._journal_number)
        self._saved = 0
        self._atexit_registered = False
        self._written_by_writer = 0
        self.failed = 0
        self.replayed = 0
        """Records found in the journal of a dead process and written by :meth:`recover`."""

    @property
    def written(self) -> int:
        """Records committed so far (as of the last flush for the writer process)."""
        return self._saved + self._written_by_writer

    @property
    def journal_dir(self) -> Path | None:
        """The journal's directory (``None`` until the store first writes)."""
        return self._journal.directory if self._journal is not None else None

    # -- writing -------------------------------------------------------------------------
    def recover(self) -> int:
        """Replay what dead processes left in the journal and get ready to write; returns the
        number of records replayed (0 when called again)."""
        with self._lock:
            before = self.replayed
            self._open_locked()
            return self.replayed - before

    def start_writing(self) -> None:
        """Open the journal and start the writer process now rather than at the first record,
        so that a game server's first result does not wait for a process to start."""
        with self._lock:
            self._open_locked()
            if self._writer is None:
                self._spawn_locked()

    def submit(self, record: MatchRecord) -> None:
        """Journal a record for the writer process and return (no waiting for the database).

        Call it before telling anybody the result: once it returns, the record survives
        ``kill -9`` of every Herna process."""
        self._append(frame(("r", new_key(), record)))

    def allocate(self, counter: str, after: int = 0) -> int:
        """The next number of ``counter`` (e.g. ``"mia.round"``), greater than ``after`` and
        than every number of it handed out before, by this process, any before it, or any
        other process on the same database.

        Numbers come from blocks reserved in the database (:mod:`herna.hall.counters`): a
        block is committed before any of its numbers is used, so not even ``kill -9`` can
        make a number be handed out twice (numbers may skip)."""
        with self._lock:
            self._open_locked()
        return self._counters.next(counter, after)

    def _journal_number(self, counter: str, number: int) -> None:
        """A number handed out while the database was unreachable: journaled, as records are,
        so the counter is written with them and a restart never reuses it."""
        self._append(frame(("n", counter, number)))

    def _append(self, data: bytes) -> None:
        with self._lock:
            self._open_locked()
            self._held.append(data)
            try:
                while self._held:
                    self._append_locked(self._held[0])
                    del self._held[0]
            except OSError as exc:
                # A full disk must not stop a table: the record waits here (it is lost only
                # if the process dies meanwhile) and goes out with the next one.
                if self.trouble is None:
                    log.error(
                        "records cannot be written to the journal in %s (%s); they are held "
                        "in memory and written when there is room again",
                        self._journal.directory if self._journal is not None else "?",
                        exc.strerror or exc,
                    )
                self.trouble = (
                    f"Records cannot be written ({exc.strerror or exc}): "
                    f"{len(self._held)} held in memory until there is room again."
                )
                return
            if self.trouble is not None:
                log.warning("records are written again; the held ones are in the journal")
                self.trouble = None

    def _append_locked(self, data: bytes) -> None:
        assert self._journal is not None
        self._journal.append(data)
        self._appends += 1
        # A dead writer only delays commits (the journal has everything), but look now and
        # then so that a new one takes over without waiting for the next flush.
        if self._writer is None or (self._appends % 256 == 0 and self._writer.poll() is not None):
            self._spawn_locked()

    def _open_locked(self) -> None:
        if self._journal is not None:
            return
        directory = self._journal_dir
        if directory is None:
            # In-memory SQLite: the database dies with the process, so may its journal.
            self._temp_journal = tempfile.TemporaryDirectory(prefix="herna-journal-")
            directory = Path(self._temp_journal.name)
        directory.mkdir(parents=True, exist_ok=True)
        self.replayed += self._replay(directory)
        self._journal = JournalWriter(directory)
        if not self._atexit_registered:
            # A store nobody closed must still commit what it journaled before the
            # interpreter exits (and must not leave its writer waiting).
            atexit.register(self._close_at_exit)
            self._atexit_registered = True

    def _replay(self, directory: Path, skip_owner: str | None = None) -> int:
        """Write the records of every owner that is gone (nobody holds the lock of its newest
        segment), here and now; records already stored are skipped by their keys.

        A live owner's older segments are unlocked too (its writer is still reading them), so
        the test is per owner, not per segment: another running process's journal is never
        taken for dead, and several processes can share one database and journal directory."""
        replayed = 0
        for owner, segments in segments_by_owner(directory).items():
            if owner == skip_owner or not owner_gone(segments):
                continue
            for path in segments:
                with abandoned(path) as ours:
                    if not ours:
                        continue
                    entries = read_segment(path)
                    written_here = 0
                    for i in range(0, len(entries), self._batch_size):
                        written, failed = commit_entries(
                            self.engine,
                            entries[i : i + self._batch_size],
                            directory / f"failed-{path.stem}.bad",
                        )
                        written_here += written
                        self.failed += failed
                    replayed += written_here
                    if entries:
                        log.warning(
                            "journal %s: %d entries from a process that ended without "
                            "committing them; %d records were missing from the database and "
                            "are written now",
                            path.name,
                            len(entries),
                            written_here,
                        )
                    path.unlink(missing_ok=True)
        return replayed

    def check_database(self) -> str | None:
        """Whether the SQLite file at the database's path is still the one this store opened
        (``herna serve`` asks every second). The first time it is not, numbers stop coming
        from the database (:meth:`CounterBlocks.go_local`) and the reason is returned, once,
        for the caller to log and act on; None otherwise.

        The writer process looks for itself before each commit (:class:`herna.hall.writer.
        Tail`): it commits nothing into a deleted file and deletes no journal segment, so the
        next start replays every record since into the new database. PostgreSQL: a lost
        connection only makes the writer wait and retry, with the journal keeping the records."""
        if self.gone is not None:
            return None
        changed = file_changed(self.database_file)
        if changed is None:
            return None
        self.gone = changed
        # Numbers reserved in the lost file would be handed out again by the new one: from
        # now on each number is journaled, and so is the end of every block in use.
        self._counters.go_local()
        return changed

    def adopt(self) -> int:
        """Replay what other processes sharing this journal left when they ended, while this
        one runs (``herna serve`` calls it every few seconds): with several processes on one
        database, one killed process's last records reach the database through the others,
        not only at the next start. Returns the number of records written."""
        journal = self._journal
        if journal is None or self.gone is not None or file_changed(self.database_file):
            return 0  # not into a deleted file: the next start replays it into the new one
        found = self._replay(journal.directory, skip_owner=journal.owner)
        with self._lock:
            self.replayed += found
        return found

    def _spawn_locked(self) -> None:
        """Start a writer process for this store's journal (again, if the last one died: it
        starts at the oldest segment still there, and already stored records are skipped)."""
        assert self._journal is not None
        self._stop_writer_locked(wait=0)
        control_r, control_w = os.pipe()
        reply_r, reply_w = os.pipe()
        env = dict(os.environ)
        # The child must import this very Herna (a test or a checkout), not an installed one.
        root = str(Path(herna.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        try:
            self._writer = start_writer(control_r, reply_w, env)
        finally:
            os.close(control_r)
            os.close(reply_w)
        self._control, self._replies, self._reply_buffer = control_w, reply_r, b""
        config = {
            "url": self.url,
            "journal": str(self._journal.directory),
            "owner": self._journal.owner,
            "batch_size": self._batch_size,
            "keep": self.keep,
            "database": self.database_file,
        }
        os.write(self._control, json.dumps(config).encode() + b"\n")

    def _stop_writer_locked(self, wait: float) -> None:
        """Forget the current writer: closing its control pipe makes it exit."""
        for fd in (self._control, self._replies):
            if fd >= 0:
                os.close(fd)
        self._control = self._replies = -1
        writer, self._writer = self._writer, None
        if writer is not None:
            try:
                writer.wait(wait)
            except subprocess.TimeoutExpired:
                writer.kill()
                writer.wait()

    def _ask(self, command: str, token: int, deadline: float) -> bool:
        """Send ``command`` to the writer and wait for the answer with ``token``; False if the
        writer died meanwhile."""
        try:
            os.write(self._control, command.encode() + b"\n")
        except OSError:  # BrokenPipeError: the writer is gone
            return False
        while True:
            while b"\n" in self._reply_buffer:
                line, self._reply_buffer = self._reply_buffer.split(b"\n", 1)
                got, written, failed = (int(x) for x in line.split())
                self._written_by_writer, self.failed = written, failed
                if got == token:
                    return True
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"the record writer did not finish in time ({command})")
            # poll(), not select(): past 1,024 open connections the pipe's descriptor is
            # beyond what select() can watch.
            replies = io_select.poll()
            replies.register(self._replies, io_select.POLLIN)
            if replies.poll(min(left, 0.5) * 1000):
                chunk = os.read(self._replies, 4096)
                if not chunk:
                    return False
                self._reply_buffer += chunk

    def save(self, record: MatchRecord) -> int:
        """Write one record now, in the caller's process; returns its id."""
        ids = write_records(self.engine, [(new_key(), record)])
        self._saved += 1
        return ids[0]

    def flush(self, timeout: float = 60.0) -> None:
        """Block until every submitted record is committed."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._writer is not None:
                if self._writer.poll() is None and self._ask(
                    f"flush {(token := next(self._flushes))}", token, deadline
                ):
                    return
                self._respawn_locked(deadline)

    def _respawn_locked(self, deadline: float) -> None:
        if time.monotonic() >= deadline:
            raise RuntimeError("the record writer keeps dying; the records stay in the journal")
        log.error("the record writer process died; a new one takes over the journal")
        self._spawn_locked()

    def _close_at_exit(self) -> None:
        try:
            self.close(timeout=15, dispose=False)
        except Exception:
            log.exception("records not confirmed written at exit (they stay in the journal)")

    def close(self, timeout: float = 60.0, dispose: bool = True) -> None:
        """Commit everything, stop the writer and let go of the journal."""
        deadline = time.monotonic() + timeout
        with self._lock:
            try:
                while self._writer is not None:
                    if self._writer.poll() is None and self._ask("stop", -1, deadline):
                        break
                    self._respawn_locked(deadline)
            finally:
                self._stop_writer_locked(wait=max(0.0, deadline - time.monotonic()))
                if self._journal is not None:
                    self._journal.close()
                    with contextlib.suppress(OSError):  # only if nothing was left in it
                        self._journal.directory.rmdir()
                    self._journal = None
                if self._temp_journal is not None:
                    with contextlib.suppress(OSError):
                        self._temp_journal.cleanup()
                    self._temp_journal = None
                self._counters = CounterBlocks(self.engine, self._journal_number)
        if dispose:
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
            newest: Any = MatchRow.id.desc()
            if player:
                # The player's newest games from the end of their part of the index (see
                # herna.web.queries.MatchFilter.apply), not a list of every game they played.
                query = query.join(MatchPlayerRow, MatchPlayerRow.match_id == MatchRow.id).where(
                    MatchPlayerRow.name == player
                )
                newest = MatchPlayerRow.match_id.desc()
            if since:
                query = query.where(MatchRow.finished_at >= since)
            if until:
                query = query.where(MatchRow.finished_at <= until)
            query = query.order_by(newest).limit(limit).offset(offset)
            return [_stored(r, with_events=False) for r in session.scalars(query)]

    def count(self, game: str | None = None) -> int:
        with Session(self.engine) as session:
            query = select(func.count(MatchRow.id))
            if game:
                query = query.where(MatchRow.game == game)
            return int(session.scalar(query) or 0)

    def standings(self, game: str, limit: int | None = None) -> list[Standing]:
        """Every player's totals in ``game``, best first (points, then name); ``limit``: only
        the first so many (read from the database as such: the Players page's overview)."""
        with Session(self.engine) as session:
            query = select(StandingRow).where(StandingRow.game == game)
            rated = select(RatingRow).where(RatingRow.game == game)
            if limit is not None:
                query = query.order_by(StandingRow.points.desc(), StandingRow.name).limit(limit)
            rows = list(session.scalars(query))
            if limit is not None:
                rated = rated.where(RatingRow.name.in_([s.name for s in rows]))
            ratings = {r.name: r for r in session.scalars(rated)}
            out = []
            for s in rows:
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


def read_matches(
    engine: Any, where: Any = None, limit: int = 50, offset: int = 0, order: Any = None
) -> list[StoredMatch]:
    """Matches newest first, without their event logs; ``where(query) -> query`` narrows
    the ``select(MatchRow)`` (the web hall's history filters), ``order`` is the newest-first
    order that suits it (default: by id)."""
    with Session(engine) as session:
        query = select(MatchRow).options(selectinload(MatchRow.players))
        if where is not None:
            query = where(query)
        query = query.order_by(MatchRow.id.desc() if order is None else order)
        query = query.limit(limit).offset(offset)
        return [_stored(r, with_events=False) for r in session.scalars(query)]
