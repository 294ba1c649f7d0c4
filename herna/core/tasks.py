"""Ending asyncio tasks at a stop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any


async def cancel_and_wait(
    tasks: Iterable[asyncio.Task[Any]],
    grace: float = 10.0,
    log: logging.Logger | None = None,
) -> list[asyncio.Task[Any]]:
    """Cancel ``tasks`` and wait until they end, at most ``grace`` seconds; the ones still
    running then (each is logged with its stack). A task that lost its cancellation (one
    that caught it, or awaited something that did) is cancelled again every second: a stop
    must not wait for a game that went on."""
    loop = asyncio.get_running_loop()
    pending = {t for t in tasks if not t.done()}
    deadline = loop.time() + grace
    while pending:
        left = deadline - loop.time()
        if left <= 0:
            break
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=min(1.0, left))
    for task in pending:
        if log is not None:
            log.error("still running %g s after it was cancelled: %r", grace, task)
    return list(pending)
