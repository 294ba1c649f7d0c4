"""Checking the rules files players send with ``join``, off the event loop.

A rules file may be up to 1 MiB, and checking one that size takes seconds (jsonschema and the
cross-field checks are linear but slow: ~1.8 s for 15,000 tiles). On the event loop that would
freeze every server of ``herna serve`` for as long, once per message from a hostile client. So
the hub hands custom rules to a :class:`RulesChecker`:

* :class:`InlineRulesChecker` checks at once, in the caller (tests, tools, the hub's default);
* :class:`ProcessRulesChecker` checks in one worker process and calls back on the event loop;
  at most ``max_pending`` checks wait at a time, beyond that the hub answers ``BUSY``.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing as mp
import os
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from typing import Any, Protocol

from herna.core.processes import die_with_parent
from herna.games.tiles.rules import RulesReport, check_rules

log = logging.getLogger("herna.tiles")

DEFAULT_MAX_PENDING = 4
"""Rules files being checked or waiting for the worker at once (all connections together)."""

Done = Callable[[RulesReport | None], None]
"""Called with the report, or with None when the rules could not be checked (worker failed)."""


class RulesChecker(Protocol):
    def check(self, data: dict[str, Any], done: Done) -> bool:
        """Start checking ``data`` and call ``done`` with the result (now or later on the
        event loop); False, without calling ``done``, when too many checks are waiting."""
        ...

    def close(self) -> None: ...


class InlineRulesChecker:
    """Checks in the caller, synchronously."""

    def check(self, data: dict[str, Any], done: Done) -> bool:
        done(check_rules(data, "custom"))
        return True

    def close(self) -> None:
        """Nothing to release: it checks in the caller."""


class ProcessRulesChecker:
    """Checks in a worker process (started on first use) so the event loop never waits."""

    def __init__(self, max_pending: int = DEFAULT_MAX_PENDING) -> None:
        self.max_pending = max_pending
        self.pending = 0
        self._pool: ProcessPoolExecutor | None = None

    def check(self, data: dict[str, Any], done: Done) -> bool:
        if self.pending >= self.max_pending:
            return False
        loop = asyncio.get_running_loop()
        if self._pool is None:
            # The pool's worker is started from this thread (the event loop's), and the death
            # signal fires when the thread that started it ends: the loop lives as long as
            # the server.
            self._pool = ProcessPoolExecutor(
                1,
                mp_context=mp.get_context("spawn"),
                initializer=die_with_parent,
                initargs=(os.getpid(),),
            )
        try:
            future = self._pool.submit(check_rules, data, "custom")
        except Exception:  # a broken pool (its worker was killed): start afresh next time
            log.exception("the rules checker cannot take work; restarting it")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            return False
        self.pending += 1

        def finished(f: Future[RulesReport]) -> None:
            self.pending -= 1
            try:
                report: RulesReport | None = f.result()
            except CancelledError:
                report = None  # the checker was closed
            except Exception:
                log.exception("checking a rules file failed")
                report = None
            done(report)

        future.add_done_callback(lambda f: loop.call_soon_threadsafe(finished, f))
        return True

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
