"""Writing match records: bulk inserts with SQLAlchemy Core, in a process of their own.

A busy game server must never wait for the disk, and in CPython it must not share its GIL
with a thread doing ORM work either (every ``sendto`` releases the GIL and then queues behind
the writer for up to the switch interval, which showed up as 10 ms latency spikes in
``bench/mia_rounds.py``). So :class:`~herna.hall.records.RecordStore` only appends each record
to the journal (:mod:`herna.hall.journal`), and this writer process reads the journal,
commits its records in batches with :func:`write_records` and deletes each segment once all
of it is in the database.

The writer is started with :mod:`subprocess` (``python -m herna.hall.writer``), not
:mod:`multiprocessing`: nothing here needs a semaphore, so no resource-tracker process is
started, and it runs in a session of its own, so Ctrl-C or a signal to ``herna serve``'s
process group does not interrupt a commit. It dies with its parent all the same: the parent
holds the only write end of its control pipe, and the writer exits as soon as that pipe
reports end-of-file (the kernel closes it when the parent dies, ``kill -9`` included).
Whatever it had not committed is still in the journal, and the next start replays it.

Control pipe (parent → writer), one line each: first a JSON object with ``url``,
``journal``, ``owner``, ``batch_size`` and ``database`` (the SQLite file the parent opened:
path, ``st_dev``, ``st_ino``; null for PostgreSQL); then ``flush <n>`` (answered with
``<n> <written> <failed>`` once everything appended before it is committed) or ``stop``
(finish, delete the segments, answer ``-1 <written> <failed>`` and exit).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import select as io_select
import signal
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import and_, case, delete, func, insert, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from herna.hall.db import (
    CounterRow,
    FileIdentity,
    GameTotalRow,
    MatchEventRow,
    MatchKeyRow,
    MatchPlayerRow,
    MatchRow,
    PlayerTotalRow,
    RatingPointRow,
    RatingRow,
    StandingRow,
    file_changed,
)
from herna.hall.journal import HEADER, MAX_FRAME, frame, own_segments, parse_frames

log = logging.getLogger(__name__)

_model = PlackettLuce()


_UPSERTS: dict[tuple[str, str], Any] = {}


def _upsert(
    conn: Connection,
    table: Any,
    rows: list[dict[str, Any]],
    keys: list[str],
    update: dict[str, Any],
) -> None:
    """Insert ``rows`` or update the existing ones, as one executemany.

    The statement is built once per table and dialect (a multi-row VALUES statement would be
    compiled anew for every batch size, which cost the writer a quarter of its time)."""
    if not rows:
        return
    cache_key = (conn.dialect.name, table.name)
    stmt = _UPSERTS.get(cache_key)
    if stmt is None:
        dialect = sqlite if conn.dialect.name == "sqlite" else postgresql
        ins = dialect.insert(table)
        stmt = ins.on_conflict_do_update(
            index_elements=keys, set_={k: v(ins.excluded) for k, v in update.items()}
        )
        _UPSERTS[cache_key] = stmt
    conn.execute(stmt, rows)


Keyed = tuple[str, Any]
"""A record (MatchRecord) with the unique key it was given when it was submitted."""


PACKED_EVENTS = "packed_events"
"""The key in ``meta`` of a packed record's actions (see ``MatchRecord.packed``)."""

MIN_KEEP = 1000
"""The fewest records a retention setting keeps: far more than one journal batch, so no
record whose journal segment may still be replayed is ever deleted (with its key)."""

PRUNE_EVERY = 1000
"""Records committed between two prunings: one DELETE per thousand rounds, not per batch."""


def _packed(rec: Any) -> list[list[Any]] | None:
    """``[[player, action], ...]`` when ``rec`` asks to be packed and has only plain actions."""
    if not getattr(rec, "packed", False):
        return None
    out: list[list[Any]] = []
    for kind, data in rec.events:
        if kind != "action" or set(data) != {"player", "action"}:
            return None  # anything else keeps its rows (nothing is lost by packing)
        out.append([data["player"], data["action"]])
    return out


def prune(engine: Engine, keep: Mapping[str, int]) -> int:
    """Delete each game's records beyond its newest ``keep[game]``; returns how many.

    Only match rows and what hangs off them go: standings and ratings were updated when
    each record was written, so no point and no rating is lost."""
    deleted = 0
    mt: Any = MatchRow.__table__
    with engine.begin() as conn:
        for game, n in keep.items():
            cutoff = conn.scalar(
                select(mt.c.id)
                .where(mt.c.game == game)
                .order_by(mt.c.id.desc())
                .limit(1)
                .offset(max(MIN_KEEP, int(n)))
            )
            if cutoff is None:
                continue
            _uncount(conn, game, cutoff)
            old = select(mt.c.id).where(mt.c.game == game, mt.c.id <= cutoff)
            for table in (MatchPlayerRow, MatchEventRow, MatchKeyRow):
                t: Any = table.__table__
                conn.execute(delete(t).where(t.c.match_id.in_(old)))
            deleted += conn.execute(delete(mt).where(mt.c.game == game, mt.c.id <= cutoff)).rowcount
    return deleted


def write_records(
    engine: Engine, records: Sequence[Keyed], counters: Mapping[str, int] | None = None
) -> list[int]:
    """Insert ``records`` in one transaction; update standings, ratings and ``counters``.

    A record whose key is stored already (a journal replayed after a crash) is skipped, with
    its points: nothing is ever written twice. Returns the new match ids in order."""
    players: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    standing: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0, 0])
    with engine.begin() as conn:
        if counters:
            ct = CounterRow.__table__
            _upsert(
                conn,
                ct,
                [{"name": k, "value": v} for k, v in counters.items()],
                ["name"],
                {"value": lambda ex: case((ex.value > ct.c.value, ex.value), else_=ct.c.value)},  # type: ignore[attr-defined]
            )
        if not records:
            return []
        kt: Any = MatchKeyRow.__table__
        keys = [k for k, _ in records]
        stored = set(conn.scalars(select(kt.c.key).where(kt.c.key.in_(keys))))
        if stored:
            records = [(k, r) for k, r in records if k not in stored]
            if not records:
                return []
        mt: Any = MatchRow.__table__
        # One executemany with RETURNING ("insertmanyvalues"), ids in parameter order.
        ids = list(
            conn.execute(
                insert(mt).returning(mt.c.id, sort_by_parameter_order=True),
                [
                    {
                        "game": rec.game,
                        "table_id": rec.table_id,
                        "seed": rec.seed,
                        "status": rec.status,
                        "started_at": rec.started_at,
                        "finished_at": rec.finished_at,
                        "result": rec.result,
                        "meta": rec.meta
                        if (packed := _packed(rec)) is None
                        else {**rec.meta, PACKED_EVENTS: packed},
                    }
                    for _, rec in records
                ],
            ).scalars()
        )
        conn.execute(
            insert(kt),
            [{"key": k, "match_id": i} for (k, _), i in zip(records, ids, strict=True)],
        )
        for match_id, (_, rec) in zip(ids, records, strict=True):
            for p in rec.players:
                players.append(
                    {
                        "match_id": match_id,
                        "seat": p.seat,
                        "name": p.name,
                        "kind": p.kind,
                        "score": p.score,
                        "winner": p.winner,
                    }
                )
                if rec.rated:
                    acc = standing[(rec.game, p.name)]
                    acc[0] += p.score
                    acc[1] += 1
                    acc[2] += int(p.winner)
            if _packed(rec) is None:
                events.extend(
                    {"match_id": match_id, "seq": i, "kind": kind, "data": data}
                    for i, (kind, data) in enumerate(rec.events)
                )
        if players:
            conn.execute(insert(MatchPlayerRow.__table__), players)  # type: ignore[arg-type]
        if events:
            conn.execute(insert(MatchEventRow.__table__), events)  # type: ignore[arg-type]
        st = StandingRow.__table__
        _upsert(
            conn,
            st,
            [
                {"game": g, "name": n, "points": v[0], "games": v[1], "wins": v[2]}
                for (g, n), v in standing.items()
            ],
            ["game", "name"],
            {
                "points": lambda ex: st.c.points + ex.points,  # type: ignore[attr-defined]
                "games": lambda ex: st.c.games + ex.games,  # type: ignore[attr-defined]
                "wins": lambda ex: st.c.wins + ex.wins,  # type: ignore[attr-defined]
            },
        )
        _update_ratings(conn, [r for _, r in records if r.rated])
        _count(conn, [r for _, r in records])
    return ids


def _count(conn: Connection, records: Sequence[Any]) -> None:
    """Add ``records`` to the totals per game and per player (the pages read these)."""
    games: dict[str, int] = defaultdict(int)
    players: dict[tuple[str, str], dict[str, Any]] = {}
    for rec in records:
        games[rec.game] += 1
        for p in rec.players:
            acc = players.setdefault(
                (p.name, rec.game),
                {"name": p.name, "game": rec.game, "matches": 0, "unfinished": 0,
                 "score_sum": 0.0, "first_at": rec.finished_at, "last_at": rec.finished_at},
            )  # fmt: skip
            acc["matches"] += 1
            acc["unfinished"] += int(rec.status != "finished")
            acc["score_sum"] += float(p.score)
            acc["first_at"] = min(acc["first_at"], rec.finished_at)
            acc["last_at"] = max(acc["last_at"], rec.finished_at)
    _add_totals(conn, games, list(players.values()))


def _uncount(conn: Connection, game: str, cutoff: int) -> None:
    """Take the records of ``game`` up to id ``cutoff`` off the totals before they are pruned
    (a player's first and last game stay what they were: they were played)."""
    mt: Any = MatchRow.__table__
    pt: Any = MatchPlayerRow.__table__
    gone = and_(mt.c.game == game, mt.c.id <= cutoff)
    n = int(conn.scalar(select(func.count()).select_from(mt).where(gone)) or 0)
    if not n:
        return
    rows = conn.execute(
        select(
            pt.c.name,
            func.count(),
            func.sum(case((mt.c.status != "finished", 1), else_=0)),
            func.sum(pt.c.score),
            func.min(mt.c.finished_at),
        )
        .join(mt, mt.c.id == pt.c.match_id)
        .where(gone)
        .group_by(pt.c.name)
    ).all()
    players = [
        {"name": name, "game": game, "matches": -count, "unfinished": -int(unfinished or 0),
         "score_sum": -float(score or 0.0), "first_at": first, "last_at": first}
        for name, count, unfinished, score, first in rows
    ]  # fmt: skip
    _add_totals(conn, {game: -n}, players)


def _add_totals(conn: Connection, games: Mapping[str, int], players: list[dict[str, Any]]) -> None:
    gt: Any = GameTotalRow.__table__
    _upsert(
        conn,
        gt,
        [{"game": g, "matches": n} for g, n in games.items()],
        ["game"],
        {"matches": lambda ex: gt.c.matches + ex.matches},
    )
    pt: Any = PlayerTotalRow.__table__
    _upsert(
        conn,
        pt,
        players,
        ["name", "game"],
        {
            "matches": lambda ex: pt.c.matches + ex.matches,
            "unfinished": lambda ex: pt.c.unfinished + ex.unfinished,
            "score_sum": lambda ex: pt.c.score_sum + ex.score_sum,
            "first_at": lambda ex: case(
                (ex.first_at < pt.c.first_at, ex.first_at), else_=pt.c.first_at
            ),
            "last_at": lambda ex: case((ex.last_at > pt.c.last_at, ex.last_at), else_=pt.c.last_at),
        },
    )


def keeps_rating_point(games: int) -> bool:
    """Whether a player's ``games``-th rated game in a game leaves a point for the rating
    chart: each of the first 100, then every 10th up to 1,000, every 100th up to 10,000 ...
    (about 90 points per tenfold, so the table grows with the logarithm of the games)."""
    if games <= 100:
        return True
    step = 10 ** (len(str(games - 1)) - 2)
    return bool(games % step == 0)


def _update_ratings(conn: Connection, records: Sequence[Any]) -> None:
    """OpenSkill (Plackett-Luce) updates, match by match in order, for the whole batch."""
    wanted = {(r.game, p.name) for r in records for p in r.players if p.rated}
    if not wanted:
        return
    rt = RatingRow.__table__
    # (rating, games) per player; rate() returns fresh copies, which become the current
    # ratings, so a rating object is made (with the uuid4 openskill gives each) once a batch.
    current: dict[tuple[str, str], tuple[Any, int]] = {}
    for row in conn.execute(
        select(rt.c.game, rt.c.name, rt.c.mu, rt.c.sigma, rt.c.games).where(
            tuple_(rt.c.game, rt.c.name).in_(list(wanted))
        )
    ):  # type: ignore[attr-defined]
        current[(row.game, row.name)] = (_model.rating(mu=row.mu, sigma=row.sigma), row.games)
    touched: set[tuple[str, str]] = set()
    points: list[dict[str, Any]] = []
    for rec in records:
        rated = [p for p in rec.players if p.rated]
        names = [p.name for p in rated]
        if len(names) < 2 or len(set(names)) != len(names):
            continue
        keys = [(rec.game, n) for n in names]
        for key in keys:
            if key not in current:
                current[key] = (_model.rating(), 0)
        new = _model.rate([[current[k][0]] for k in keys], ranks=[-p.score for p in rated])
        for key, team in zip(keys, new, strict=True):
            current[key] = (team[0], current[key][1] + 1)
            touched.add(key)
            if keeps_rating_point(current[key][1]):
                points.append(
                    {
                        "game": key[0],
                        "name": key[1],
                        "games": current[key][1],
                        "mu": team[0].mu,
                        "sigma": team[0].sigma,
                        "at": rec.finished_at,
                    }
                )
    if points:
        conn.execute(insert(RatingPointRow.__table__), points)  # type: ignore[arg-type]
    _upsert(
        conn,
        rt,
        [
            {
                "game": g,
                "name": n,
                "mu": current[(g, n)][0].mu,
                "sigma": current[(g, n)][0].sigma,
                "games": int(current[(g, n)][1]),
            }
            for (g, n) in touched
        ],
        ["game", "name"],
        {
            "mu": lambda ex: ex.mu,
            "sigma": lambda ex: ex.sigma,
            "games": lambda ex: ex.games,
        },
    )


WRITER_NICENESS = 19
POLL = 0.05
"""Seconds between looks at the journal when there is nothing new (records reach the
database within about this long of being submitted)."""
RETRY = 1.0
"""Seconds to wait before trying again when the database cannot be reached or is locked."""
CHUNK = 1 << 20


def _run_in_background() -> None:
    """Make the writer the first thing to give way when the CPU is short.

    Records are background work; the game servers and the players' bots on the same machine
    go first and the writer catches up when they idle. SCHED_IDLE (Linux) is preempted at
    once by any ordinary task that wakes up; a niceness of 19 still let the writer finish its
    time slice first, which showed as millisecond spikes in ``bench/mia_rounds.py``'s p99.
    """
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.nice(WRITER_NICENESS)


class DatabaseUnavailable(Exception):
    """The database could not take a write now (unreachable, locked): try again later; the
    journal keeps the records meanwhile."""


def _unavailable(exc: BaseException) -> bool:
    if isinstance(exc, OperationalError | InterfaceError):
        return True
    return isinstance(exc, DBAPIError) and exc.connection_invalidated


def commit_entries(
    engine: Engine, entries: Sequence[tuple[Any, ...]], failed_file: Path
) -> tuple[int, int]:
    """Commit journal entries; returns (records written, records failed).

    A batch that fails is retried record by record, so one bad record cannot lose the others;
    one that still fails is appended to ``failed_file`` (a journal segment an operator can
    read) and logged. Raises :class:`DatabaseUnavailable` when the database cannot be
    written at all: nothing is counted as failed then, the caller keeps the entries."""
    records = [(e[1], e[2]) for e in entries if e[0] == "r"]
    counters: dict[str, int] = {}
    for e in entries:
        if e[0] == "n":
            counters[e[1]] = max(counters.get(e[1], 0), e[2])
    try:
        return len(write_records(engine, records, counters)), 0
    except Exception as exc:
        if _unavailable(exc):
            raise DatabaseUnavailable(str(exc)) from exc
        log.exception("a batch of %d records failed; retrying one by one", len(records))
    written = failed = 0
    try:
        write_records(engine, [], counters)
    except Exception as exc:
        raise DatabaseUnavailable(str(exc)) from exc
    for key, record in records:
        try:
            written += len(write_records(engine, [(key, record)]))
        except Exception as exc:
            if _unavailable(exc):
                raise DatabaseUnavailable(str(exc)) from exc
            failed += 1
            log.exception("record of %s %s not written", record.game, record.table_id)
            with open(failed_file, "ab") as f:
                f.write(frame(("r", key, record)))
    return written, failed


class Tail:
    """Follows one owner's journal segments, oldest first."""

    def __init__(
        self,
        engine: Engine,
        directory: Path,
        owner: str,
        batch_size: int,
        keep: Mapping[str, int] | None = None,
        database: FileIdentity | None = None,
    ) -> None:
        self.engine = engine
        self.database = database
        """The SQLite file the store opened: nothing is committed once its path leads
        elsewhere (:func:`~herna.hall.db.file_changed`)."""
        self.gone: str | None = None
        self.keep = dict(keep or {})
        self._since_prune = PRUNE_EVERY  # prune once soon after start (a lowered setting)
        self.directory = directory
        self.owner = owner
        self.batch_size = batch_size
        self.failed_file = directory / f"failed-{owner}.bad"
        self.seq = 0
        self.path: Path | None = None
        self.fd = -1
        self.offset = 0
        self.written = 0
        self.failed = 0

    def step(self, final: bool) -> str:
        """Commit the next batch. Returns ``"progress"`` (a full batch, or a segment done:
        go on at once), ``"partial"`` (committed what there was: everything appended before
        this step is committed), ``"idle"`` (nothing to do), ``"blocked"`` (the database
        cannot be written now) or ``"gone"`` (the database file was deleted or replaced:
        nothing is committed and no segment deleted, so the next start replays them).
        ``final``: the owner appends nothing more, so the segment being appended to is
        complete too.

        ``"partial"`` makes the caller wait :data:`POLL` before the next batch: going on at
        once would commit the few records that came in during the last commit, and many
        small transactions cost the writer (and the CPU it shares) far more than one."""
        if self.path is None:
            segments = own_segments(self.directory, self.owner)
            if not segments:
                return "idle"
            self.seq, self.path = segments[0]
            try:
                self.fd = os.open(self.path, os.O_RDONLY)
            except FileNotFoundError:  # replayed and deleted by another store meanwhile
                self.path = None
                return "progress"
            self.offset = 0
        entries, used = self._read()
        if self._database_gone():
            return "gone"
        if entries:
            try:
                written, failed = commit_entries(self.engine, entries, self.failed_file)
            except DatabaseUnavailable as exc:
                log.warning("database unavailable (%s); retrying in %g s", exc, RETRY)
                return "blocked"
            self.written += written
            self.failed += failed
            self._since_prune += written
            if self.keep and self._since_prune >= PRUNE_EVERY:
                self._since_prune = 0
                try:
                    pruned = prune(self.engine, self.keep)
                except Exception:  # retention must never stop records being written
                    log.exception("pruning old records failed; trying again later")
                else:
                    if pruned:
                        log.debug("deleted %d records beyond the retention setting", pruned)
            self.offset += used
            if len(entries) >= self.batch_size:
                return "progress"
            # The rest of this segment is committed; a later segment means the owner has
            # moved on, so more records wait there: "partial" would answer a flush before
            # they are committed (a flush after 2,000 records once returned early).
            later = any(seq > self.seq for seq, _ in own_segments(self.directory, self.owner))
            return "progress" if later else "partial"
        later = any(seq > self.seq for seq, _ in own_segments(self.directory, self.owner))
        if not (later or final):
            return "idle"
        # The segment is complete and all of it committed: it is no longer needed.
        os.close(self.fd)
        self.fd = -1
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        self.path = None
        return "progress"

    def _database_gone(self) -> bool:
        """Whether the database file's path leads elsewhere now. Looked at before every
        commit and before a segment is deleted: a commit into a deleted file would be lost at
        the next start, with its journal segment gone too."""
        gone = file_changed(self.database)
        if gone is not None and self.gone is None:
            log.warning(
                "the database file %s was %s; the records stay in the journal for the next start",
                self.database[0] if self.database else "?",
                gone,
            )
        self.gone = gone
        return gone is not None

    def _read(self) -> tuple[list[tuple[Any, ...]], int]:
        data = os.pread(self.fd, CHUNK, self.offset)
        if len(data) >= HEADER.size:
            length, _ = HEADER.unpack_from(data)
            if HEADER.size + length > len(data) and length <= MAX_FRAME:
                data = os.pread(self.fd, HEADER.size + length, self.offset)
        return parse_frames(data, limit=self.batch_size)


def writer_main(control_fd: int, reply_fd: int) -> None:
    """The writer process: commit the journal's records until told to stop or orphaned."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _run_in_background()
    pending = b""
    while b"\n" not in pending:
        chunk = os.read(control_fd, 65536)
        if not chunk:
            return
        pending += chunk
    line, pending = pending.split(b"\n", 1)
    config = json.loads(line)
    from herna.hall.db import make_engine

    database = config.get("database")
    opened: FileIdentity | None = (
        (str(database[0]), int(database[1]), int(database[2])) if database else None
    )
    if file_changed(opened) is not None:
        # Opening the URL now would create a new, empty file where the old one was (and
        # commit into it what the parent's readers never see): wait for the end instead.
        _hold(control_fd, reply_fd, pending)
        return
    engine = make_engine(config["url"])
    tail = Tail(
        engine,
        Path(config["journal"]),
        config["owner"],
        int(config["batch_size"]),
        {str(g): int(n) for g, n in config.get("keep", {}).items()},
        opened,
    )
    flushes: list[str] = []
    stop = False
    state = "progress"
    # poll(), not select(): a server with more than 1,024 connections open when it starts the
    # writer hands it a descriptor select() cannot watch (ValueError, the writer died at once).
    control = io_select.poll()
    control.register(control_fd, io_select.POLLIN)
    try:
        while True:
            if state == "progress" or (stop and state == "partial"):
                wait = 0.0
            else:
                wait = RETRY if state in ("blocked", "gone") else POLL
            readable = control.poll(wait * 1000)
            if readable:
                chunk = os.read(control_fd, 65536)
                if not chunk:
                    return  # the parent is gone: the journal keeps the rest for its successor
                pending += chunk
            if b"\n" in pending:  # (the first read may have brought commands with the config)
                *lines, pending = pending.split(b"\n")
                for raw in lines:
                    word, _, arg = raw.decode().partition(" ")
                    if word == "flush":
                        flushes.append(arg)
                    elif word == "stop":
                        stop = True
            state = tail.step(final=stop)
            # With the database file gone, a flush is answered at once: nothing more will be
            # committed, and everything stays in the journal (the store says so).
            if state in ("idle", "partial", "gone"):
                for token in flushes:
                    os.write(reply_fd, f"{token} {tail.written} {tail.failed}\n".encode())
                flushes.clear()
                if stop and state in ("idle", "gone"):
                    os.write(reply_fd, f"-1 {tail.written} {tail.failed}\n".encode())
                    return
    except BrokenPipeError:
        return  # the parent is gone
    finally:
        engine.dispose()


def _hold(control_fd: int, reply_fd: int, pending: bytes) -> None:
    """A writer with no database to write to: answer flushes and ``stop`` (nothing written),
    until told to stop or orphaned; the journal keeps every record."""
    try:
        while True:
            while b"\n" in pending:
                raw, pending = pending.split(b"\n", 1)
                word, _, arg = raw.decode().partition(" ")
                if word == "flush":
                    os.write(reply_fd, f"{arg} 0 0\n".encode())
                elif word == "stop":
                    os.write(reply_fd, b"-1 0 0\n")
                    return
            chunk = os.read(control_fd, 65536)
            if not chunk:
                return
            pending += chunk
    except BrokenPipeError:
        return


def main(fds: Sequence[int] | None = None) -> None:
    """The writer process: ``fds`` (the control pipe's read end, the reply pipe's write end),
    else the last two arguments of the command line."""
    logging.basicConfig(
        level=logging.INFO, format="herna-records %(levelname)s %(message)s", stream=sys.stderr
    )
    logging.getLogger("alembic").setLevel(logging.WARNING)  # its "Context impl" lines
    control, reply = fds if fds is not None else (int(sys.argv[-2]), int(sys.argv[-1]))
    writer_main(control, reply)


if __name__ == "__main__":
    main()
