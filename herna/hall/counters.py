"""Numbers that are never handed out twice — not after ``kill -9``, and not by two processes
on one database (Mia rounds, Onitama and tiles tables).

Each process reserves a **block** of numbers at a time (:data:`BLOCK`, more for a counter
that uses them quickly: :data:`MAX_BLOCK`) with one atomic
``UPDATE … RETURNING`` of the ``counters`` row (the "hi/lo" scheme), and hands out the numbers
of its block from memory. The reservation is committed before any number of the block is
used, so a number can be lost (a process that stops leaves the rest of its block unused:
numbers skip) but never reused. The next block is fetched in a background thread when half
of the current one is used, so the game servers' event loop does not wait for the database.

If the database cannot be reached when a block is needed (after this process reserved one
before; the very first reservation must reach it), numbering goes on past the last block in
this process and each such number is journaled (``on_local``) as before blocks
existed: safe for this process across ``kill -9`` (the journal's counter entries are written
with the records), not guaranteed unique across processes until the database is back. A
warning says so; the next reservation is tried again after :data:`RETRY_SECONDS`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import Engine, case, insert, literal, update
from sqlalchemy.exc import IntegrityError

from herna.hall.db import CounterRow

log = logging.getLogger(__name__)

BLOCK = 100
"""Numbers reserved at a time at first: one database write per 100 Mia rounds or tables."""
MAX_BLOCK = 12_800
"""The most reserved at a time: a counter that used its block within :data:`QUICK_SECONDS`
reserves twice as many next time (a busy Onitama server starts hundreds of tables a
second; with blocks of 100 the event loop waited for a reservation still on its way)."""
QUICK_SECONDS = 30.0
RETRY_SECONDS = 5.0


def reserve(engine: Engine, counter: str, after: int, size: int = BLOCK) -> tuple[int, int]:
    """Reserve the numbers ``start..end`` of ``counter``, all above ``after`` and above every
    number reserved before (by any process), in one atomic statement; returns (start, end)."""
    value = CounterRow.value
    bumped = case((value > after, value), else_=literal(after)) + size
    for _ in range(3):
        try:
            with engine.begin() as conn:
                end = conn.execute(
                    update(CounterRow)
                    .where(CounterRow.name == counter)
                    .values(value=bumped)
                    .returning(value)
                ).scalar()
                if end is None:
                    end = after + size
                    conn.execute(insert(CounterRow).values(name=counter, value=end))
            return int(end) - size + 1, int(end)
        except IntegrityError:
            continue  # another process created the row first: bump it instead
    raise RuntimeError(f"could not reserve numbers of {counter}")


@dataclass
class _Block:
    next: int = 1
    end: int = 0
    ahead: tuple[int, int] | None = None
    fetching: threading.Thread | None = None
    retry_at: float = 0.0
    size: int = BLOCK
    """How many the next reservation takes (doubled while blocks go quickly)."""
    since: float = 0.0
    """When the block in use was taken into use (monotonic)."""
    lock: threading.Lock = field(default_factory=threading.Lock)


class CounterBlocks:
    """Hands out numbers of each counter from blocks reserved in the database (module doc)."""

    def __init__(self, engine: Engine, on_local: Callable[[str, int], None]) -> None:
        self.engine = engine
        self.on_local = on_local
        """Called with (counter, number) for a number handed out while the database could
        not be reached: the caller journals it."""
        self._blocks: dict[str, _Block] = {}
        self._guard = threading.Lock()
        self.reservations = 0
        self.local = False
        """Set by :meth:`go_local`: no block is reserved in the database any more."""

    def next(self, counter: str, after: int = 0) -> int:
        """The next number of ``counter``, above ``after`` and every number handed out."""
        with self._guard:
            block = self._blocks.setdefault(counter, _Block())
        while True:
            with block.lock:
                number = max(block.next, after + 1)
                if number <= block.end:
                    block.next = number + 1
                    if block.end - number < block.size // 2:
                        self._prefetch(counter, block)
                    return number
                fetching = block.fetching
                if fetching is None:
                    if block.ahead is not None and block.ahead[1] > after:
                        block.next, block.end = block.ahead
                        block.ahead = None
                        block.since = time.monotonic()
                        continue
                    block.ahead = None
                    return self._reserve_now(counter, block, number, after)
            fetching.join()  # outside the lock: the fetching thread takes it to finish

    def go_local(self) -> None:
        """Stop reserving blocks in the database (its file was deleted: what is reserved there
        is lost, so a new database would hand the same numbers out again). The end of every
        block reserved so far is journaled now, and every number from now on as it is handed
        out, so the next start's database continues above all of them."""
        self.local = True
        with self._guard:
            blocks = list(self._blocks.items())
        for counter, block in blocks:
            with block.lock:
                end = max(block.end, block.ahead[1] if block.ahead is not None else 0)
                block.ahead = None
                if end:
                    self.on_local(counter, end)

    def _reserve_now(self, counter: str, block: _Block, number: int, after: int) -> int:
        """The block is used up and nothing is on its way: reserve one here (``block.lock``
        is held), or number locally while the database cannot be reached."""
        if not self.local and time.monotonic() >= block.retry_at:
            try:
                start, end = reserve(self.engine, counter, max(after, block.end), block.size)
            except Exception as e:  # the database is down or locked for too long
                if block.end == 0:
                    raise  # nothing known of this counter yet: no number is safe to give
                block.retry_at = time.monotonic() + RETRY_SECONDS
                log.warning(
                    "could not reserve %s numbers in the database (%s); numbering goes on "
                    "in this process and is journaled",
                    counter,
                    e,
                )
            else:
                self.reservations += 1
                block.next, block.end = start + 1, end
                block.since = time.monotonic()
                return start
        block.next = number + 1
        block.end = max(block.end, number)
        self.on_local(counter, number)
        return number

    def _prefetch(self, counter: str, block: _Block) -> None:
        """Reserve the next block in the background (``block.lock`` is held)."""
        if block.ahead is not None or block.fetching is not None or block.end == 0 or self.local:
            return
        if time.monotonic() < block.retry_at:
            return
        after = block.end
        if block.since and time.monotonic() - block.since < QUICK_SECONDS:
            block.size = min(MAX_BLOCK, 2 * block.size)
        size = block.size

        def fetch() -> None:
            try:
                got = reserve(self.engine, counter, after, size)
            except Exception as e:
                log.warning("could not reserve %s numbers ahead (%s)", counter, e)
                got = None
            with block.lock:
                # A block reserved in a lost database file (go_local meanwhile) is not safe.
                if got is not None and not self.local:
                    block.ahead = got
                    self.reservations += 1
                else:
                    block.retry_at = time.monotonic() + RETRY_SECONDS
                block.fetching = None

        block.fetching = threading.Thread(target=fetch, name=f"herna-{counter}", daemon=True)
        block.fetching.start()
