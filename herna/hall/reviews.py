"""Reviews of finished games: computed once, in a worker process, kept beside the match.

A game's review is a pure function of its record (``herna.games.<game>.review``, listed in
:data:`REVIEWERS`: the Onitama engine review, the mariáš deal review); this module stores it
(table ``match_reviews``, one row per match: ``computing``, ``done`` or ``failed``) and runs
it off every event loop:

* :class:`ReviewStore` reads and writes the rows. :meth:`ReviewStore.claim` is the one
  place that decides who computes: it inserts the ``computing`` row, and a second claim of
  the same match (another request, another process) finds it and computes nothing.
* :func:`compute` is what the worker runs: read the match, review it, store the result.
* :class:`Reviewer` owns one worker process (started on first use, by a thread of its own,
  killed with its parent) and a queue of matches; the web hall asks it for the review a
  page wants, and for every finished game with a person in it (:meth:`Reviewer.scan`).

The engine's time per position is bounded (the review's settings), so a review's time is
bounded by its plies; a row left ``computing`` by a worker that died is taken again after
:data:`STALE` seconds.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing as mp
import os
import queue
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from herna.core.processes import background_worker
from herna.hall.db import MatchPlayerRow, MatchReviewRow, MatchRow

log = logging.getLogger("herna.reviews")

REVIEWERS: dict[str, str] = {
    "onitama": "herna.games.onitama.review:review_match",
    "marias": "herna.games.marias.review:review_match",
}
"""Per game, the function that reviews a stored match (imported in the worker only: the
Onitama engine loads numba, the mariáš review searches for seconds)."""
REVIEW_TEXTS: dict[str, str] = {
    "onitama": "herna.games.onitama.review:review_lines",
    "marias": "herna.games.marias.review:review_lines",
}
"""Per game, ``(review data, names) -> lines`` for ``herna replay --review``; the names are
by seat colour (Onitama) and by seat number from 0 (``"0"``: every game)."""

PEOPLE_KINDS = ("person", "human")
"""Player kinds whose games are reviewed without being asked."""

STALE = 600.0
"""Seconds after which a ``computing`` row is taken to be a dead worker's and computed again."""


@dataclass(frozen=True)
class Review:
    match_id: int
    status: str
    """``computing``, ``done`` or ``failed``."""
    data: dict[str, Any]
    updated_at: datetime


def _now() -> datetime:
    return datetime.now(UTC)


def _as_utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


class ReviewStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get(self, match_id: int) -> Review | None:
        with Session(self.engine) as session:
            row = session.get(MatchReviewRow, match_id)
            if row is None:
                return None
            return Review(row.match_id, row.status, dict(row.data), _as_utc(row.updated_at))

    def claim(self, match_id: int, now: datetime | None = None) -> bool:
        """Whether the caller should compute this match's review: True once per match (and
        again after a failure or a stale ``computing`` row)."""
        now = now or _now()
        with Session(self.engine) as session:
            try:
                session.add(MatchReviewRow(match_id=match_id, status="computing", data={},
                                           updated_at=now))  # fmt: skip
                session.commit()
                return True
            except IntegrityError:
                session.rollback()
            # Taken already: take it over only from a failure or a worker that died.
            result = session.execute(
                update(MatchReviewRow)
                .where(MatchReviewRow.match_id == match_id)
                .where(
                    (MatchReviewRow.status == "failed")
                    | (
                        (MatchReviewRow.status == "computing")
                        & (MatchReviewRow.updated_at < now - timedelta(seconds=STALE))
                    )
                )
                .values(status="computing", data={}, updated_at=now)
            )
            session.commit()
            return bool(getattr(result, "rowcount", 0))

    def finish(self, match_id: int, data: dict[str, Any], status: str = "done") -> None:
        with Session(self.engine) as session:
            session.execute(
                update(MatchReviewRow)
                .where(MatchReviewRow.match_id == match_id)
                .values(status=status, data=data, updated_at=_now())
            )
            session.commit()

    def release(self, match_ids: Iterable[int]) -> None:
        """Give back claims that will not be computed (the reviewer stopped first): the next
        page that asks claims them again at once, not after :data:`STALE`."""
        ids = list(match_ids)
        if not ids:
            return
        with Session(self.engine) as session:
            session.execute(
                delete(MatchReviewRow)
                .where(MatchReviewRow.match_id.in_(ids))
                .where(MatchReviewRow.status == "computing")
            )
            session.commit()

    def people_games(self, after: int, games: tuple[str, ...] = tuple(REVIEWERS)) -> list[int]:
        """Matches above id ``after`` of a reviewed game with a person in them, finished and
        not reviewed yet, oldest first."""
        with Session(self.engine) as session:
            query = (
                select(MatchRow.id)
                .where(MatchRow.id > after)
                .where(MatchRow.game.in_(games))
                .where(MatchRow.status == "finished")
                .where(
                    MatchRow.id.in_(
                        select(MatchPlayerRow.match_id).where(MatchPlayerRow.kind.in_(PEOPLE_KINDS))
                    )
                )
                .where(MatchRow.id.not_in(select(MatchReviewRow.match_id)))
                .order_by(MatchRow.id)
                .limit(100)
            )
            return [int(i) for i in session.scalars(query)]

    def newest_match(self) -> int:
        with Session(self.engine) as session:
            return int(session.scalar(select(MatchRow.id).order_by(MatchRow.id.desc())) or 0)


def _load(path: str) -> Callable[..., Any]:
    module, name = path.split(":")
    function: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return function


def reviewer_for(game: str) -> Callable[..., dict[str, Any]] | None:
    path = REVIEWERS.get(game)
    return _load(path) if path else None


def review_text(game: str, data: dict[str, Any], names: dict[str, str]) -> list[str]:
    """A stored review as text lines (``herna replay ID --review``)."""
    lines: list[str] = _load(REVIEW_TEXTS[game])(data, names)
    return lines


def compute(url: str, match_id: int) -> str:
    """Review one match and store the result (what the worker process runs; a command may
    call it in its own process too). The review's status afterwards."""
    from herna.hall.records import RecordStore  # the worker's own store: reads, one write

    store = RecordStore(url, create=False)
    try:
        reviews = ReviewStore(store.engine)
        match = store.get(match_id)
        review = reviewer_for(match.game) if match is not None else None
        if match is None or review is None:
            reviews.finish(match_id, {"error": "this game has no review"}, "failed")
            return "failed"
        try:
            data = review(match)
        except Exception as exc:  # a bug in a review must not leave it "computing" for ever
            log.exception("reviewing match %s failed", match_id)
            reviews.finish(match_id, {"error": f"{type(exc).__name__}: {exc}"}, "failed")
            return "failed"
        reviews.finish(match_id, data)
        return "done"
    finally:
        store.close()


REVIEW_NICE = 10
"""How much the review worker lowers its priority: a mariáš deal's review takes seconds of
CPU, and on a busy machine the tables' loops must go first (it only makes a review later)."""


def _worker() -> ProcessPoolExecutor:
    # spawn, not fork: the parent runs an event loop and threads a fork would copy mid-step
    return ProcessPoolExecutor(
        1, mp_context=mp.get_context("spawn"), initializer=background_worker,
        initargs=(os.getpid(), REVIEW_NICE),
    )  # fmt: skip


class Reviewer:
    """Reviews matches in one worker process, one at a time, in the order asked.

    :meth:`request` is cheap and never waits for a review (pages call it); the review is then
    in the store as ``computing`` and later ``done``. Reviews run in a ``spawn``ed process so
    a game server's event loop never computes one, and a thread of the reviewer's own feeds
    it (that thread starts the worker, so the kernel's parent-death signal is tied to a
    thread that lives as long as the process)."""

    def __init__(self, url: str, engine: Engine) -> None:
        self.url = url
        self.store = ReviewStore(engine)
        self._queue: queue.Queue[int | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._seen = -1
        """Matches up to this id have been looked at by :meth:`scan`."""
        self.done = 0
        self._pool: ProcessPoolExecutor | None = None
        self._closing = False
        self._unfinished: set[int] = set()
        """Claimed and queued, not computed yet: given back by :meth:`close`."""

    def request(self, match_id: int, game: str) -> str:
        """The review's status, starting it if nobody has: ``done``, ``computing``,
        ``failed`` or ``none`` (the game has no reviewer)."""
        if game not in REVIEWERS:
            return "none"
        found = self.store.get(match_id)
        if found is not None and found.status == "done":
            return "done"
        if self.store.claim(match_id):
            self._enqueue(match_id)
            return "computing"
        found = self.store.get(match_id)
        return found.status if found is not None else "computing"

    def scan(self) -> int:
        """Claim and queue the finished games with a person in them that have no review;
        the first call only notes where the records stand (older games are reviewed when a
        page asks). How many were queued."""
        if self._seen < 0:
            self._seen = self.store.newest_match()
            return 0
        queued = 0
        for match_id in self.store.people_games(self._seen):
            self._seen = max(self._seen, match_id)
            if self.store.claim(match_id):
                self._enqueue(match_id)
                queued += 1
        return queued

    def _enqueue(self, match_id: int) -> None:
        with self._lock:
            self._unfinished.add(match_id)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="herna-reviews", daemon=True)
                self._thread.start()
        self._queue.put(match_id)

    def _run(self) -> None:
        pool = self._pool = _worker()
        try:
            while (match_id := self._queue.get()) is not None and not self._closing:
                try:
                    future = pool.submit(compute, self.url, match_id)
                except BrokenExecutor:  # the worker died between two reviews
                    pool = self._pool = _worker()
                    future = pool.submit(compute, self.url, match_id)
                except RuntimeError:
                    # The interpreter is exiting (no new work is taken then). Not a failed
                    # review: the claimed rows stay computing and the next start takes them
                    # again (STALE).
                    return
                try:
                    status = future.result()
                except Exception:  # the worker died: a new one for the next match
                    if self._closing:
                        return  # ended by close(), which gave the claim back
                    log.exception("the review worker failed on match %s", match_id)
                    self.store.finish(match_id, {"error": "the review worker failed"}, "failed")
                    with self._lock:
                        self._unfinished.discard(match_id)
                    pool.shutdown(wait=False, cancel_futures=True)
                    pool = self._pool = _worker()
                    continue
                with self._lock:
                    self._unfinished.discard(match_id)
                self.done += 1
                log.debug("match %s reviewed: %s", match_id, status)
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Take no more reviews and end the one being computed: a stopping hall does not
        leave seconds of search running behind it. The claims not computed are given back, so
        the next start computes them when a page asks."""
        if self._thread is None:
            return
        self._closing = True
        self._queue.put(None)
        with self._lock:
            unfinished, self._unfinished = set(self._unfinished), set()
        self.store.release(unfinished)
        if self._pool is not None:
            # A ProcessPoolExecutor cannot cancel a call that runs: end its worker process.
            for process in list((getattr(self._pool, "_processes", None) or {}).values()):
                process.terminate()


__all__ = [
    "REVIEWERS",
    "REVIEW_TEXTS",
    "Review",
    "ReviewStore",
    "Reviewer",
    "compute",
    "review_text",
    "reviewer_for",
]
