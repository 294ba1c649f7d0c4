"""Writing match records: bulk inserts with SQLAlchemy Core, in a process of their own.

A busy game server must never wait for the disk, and in CPython it must not share its GIL
with a thread doing ORM work either (every ``sendto`` releases the GIL and then queues behind
the writer for up to the switch interval, which showed up as 10 ms latency spikes in
``bench/mia_rounds.py``). So :class:`RecordStore` hands records to a writer *process* through
a multiprocessing queue; the writer commits them in batches with :func:`write_records`.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import queue
import signal
import threading
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import insert, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from herna.hall.db import MatchEventRow, MatchPlayerRow, MatchRow, RatingRow, StandingRow

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


def write_records(engine: Engine, records: Sequence[Any]) -> list[int]:
    """Insert ``records`` (MatchRecord) in one transaction; update standings and ratings.
    Returns the new match ids in order."""
    if not records:
        return []
    players: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    standing: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0, 0])
    with engine.begin() as conn:
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
                        "meta": rec.meta,
                    }
                    for rec in records
                ],
            ).scalars()
        )
        for match_id, rec in zip(ids, records, strict=True):
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
        _update_ratings(conn, [r for r in records if r.rated])
    return ids


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


@dataclass(frozen=True)
class Flush:
    """A marker: the writer answers with its counters once everything before it is written."""

    token: int


_STOP = "stop"
WRITER_NICENESS = 19


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


def writer_main(url: str, inbox: Any, outbox: Any, batch_size: int) -> None:
    """The writer process: take records from ``inbox``, write them in batches.

    Ctrl-C and SIGTERM go to the whole process group; the writer ignores them and finishes
    when its parent says stop (after the last records), or when the parent is gone.
    """
    from herna.hall.db import make_engine

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _run_in_background()
    parent = os.getppid()
    engine = make_engine(url)
    written = failed = 0
    while True:
        try:
            item = inbox.get(timeout=1.0)
        except queue.Empty:
            if os.getppid() != parent:  # orphaned: nobody will send more or say stop
                engine.dispose()
                return
            continue
        batch: list[Any] = []
        markers: list[Flush] = []
        stop = False
        while True:
            if item == _STOP:
                stop = True
            elif isinstance(item, Flush):
                markers.append(item)
            elif isinstance(item, list):  # a batch shipped by RecordStore.submit
                batch.extend(item)
            else:
                batch.append(item)
            if len(batch) >= batch_size or stop:
                break
            try:
                item = inbox.get_nowait()
            except queue.Empty:
                break
        if batch:
            try:
                write_records(engine, batch)
                written += len(batch)
            except Exception:
                # Keep the data: retry one by one so one bad record cannot lose a batch.
                log.exception("batch of %d records failed; retrying one by one", len(batch))
                for record in batch:
                    try:
                        write_records(engine, [record])
                        written += 1
                    except Exception:
                        failed += 1
                        log.exception("record of %s %s lost", record.game, record.table_id)
        for marker in markers:
            outbox.put((marker.token, written, failed))
        if stop:
            engine.dispose()
            outbox.put((-1, written, failed))
            return


def spawn_writer(url: str, batch_size: int) -> tuple[Any, Any, Any]:
    """Start the writer process; returns (process, inbox, outbox)."""
    ctx = multiprocessing.get_context("spawn")
    inbox = ctx.Queue()
    outbox = ctx.Queue()
    process = ctx.Process(
        target=writer_main, args=(url, inbox, outbox, batch_size), name="herna-records", daemon=True
    )
    # Start the child with Ctrl-C and SIGTERM ignored from its first instruction (an ignored
    # disposition survives exec, and Python keeps it), so a signal to the process group
    # during its imports cannot kill it before writer_main runs.
    in_main = threading.current_thread() is threading.main_thread()
    sigs = (signal.SIGINT, signal.SIGTERM) if in_main else ()
    saved = [(sig, signal.getsignal(sig)) for sig in sigs]
    try:
        for sig in sigs:
            signal.signal(sig, signal.SIG_IGN)
        process.start()
    finally:
        for sig, handler in saved:
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
    return process, inbox, outbox
