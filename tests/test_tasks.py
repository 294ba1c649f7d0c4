"""A stop ends the tasks it cancels even when one of them lost its cancellation (as
``asyncio.wait_for`` on Python 3.11 loses one that comes as its inner await ends)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import pytest

from herna.core.tasks import cancel_and_wait


async def _plays_on_once(ended: list[str]) -> None:
    """Swallows the first cancellation (a game that went on), ends at the second."""
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.sleep(60)
    try:
        await asyncio.sleep(60)
    finally:
        ended.append("second")


async def _ends_only_when_let(let: asyncio.Event) -> None:
    while not let.is_set():
        try:
            await let.wait()
        except asyncio.CancelledError:
            continue


def test_a_task_that_lost_its_cancellation_is_cancelled_again() -> None:
    async def main() -> tuple[list[str], float, list[object]]:
        ended: list[str] = []
        plain = asyncio.create_task(asyncio.sleep(60))
        stubborn = asyncio.create_task(_plays_on_once(ended))
        await asyncio.sleep(0)
        began = time.monotonic()
        left = await cancel_and_wait([plain, stubborn], grace=10)
        return ended, time.monotonic() - began, list(left)

    ended, took, left = asyncio.run(main())
    assert ended == ["second"] and left == []
    assert took < 3


def test_a_task_that_never_ends_is_named_and_the_stop_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    log = logging.getLogger("herna.test.tasks")

    async def main() -> tuple[float, int]:
        let = asyncio.Event()
        task = asyncio.create_task(_ends_only_when_let(let), name="stubborn bot")
        await asyncio.sleep(0)
        began = time.monotonic()
        left = await cancel_and_wait([task], grace=1.5, log=log)
        took = time.monotonic() - began
        let.set()
        await task
        return took, len(left)

    with caplog.at_level(logging.ERROR, logger="herna.test.tasks"):
        took, left = asyncio.run(main())
    assert left == 1 and 1.4 < took < 3
    assert "stubborn bot" in caplog.text and "after it was cancelled" in caplog.text
