from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from herna.web.i18n import compile_catalogs
from tests.chromium import Chromium
from tests.postgres import fresh_database, postgres_server

log = logging.getLogger(__name__)

# Three test workers share two cores: an example's time says nothing about the code under
# test here (the serial tests, run alone, are the ones that measure time).
settings.register_profile("herna", deadline=None)
settings.load_profile("herna")


def pytest_sessionstart(session: pytest.Session) -> None:
    """A fresh clone has the catalogs' .po files only: compile what is missing or older
    (make test does it too; a test run started by hand may come first)."""
    compile_catalogs()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each storage test runs against a real SQLite file and a real PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'herna.db'}"
    # A fresh database per test keeps tests independent.
    return fresh_database(request.getfixturevalue("postgres_url"))


@pytest.fixture(scope="session")
async def chromium() -> AsyncIterator[Chromium]:
    """This test process's connection to its headless Chromium (tests/chromium.py): one
    Playwright driver and one Chromium per process, made when first asked for; each test gets
    fresh browser contexts (the ``browser`` fixture) that are closed with it."""
    shared = Chromium()
    yield shared
    await shared.close()


def _playwrights(task: asyncio.Task[object]) -> bool:
    """A task of the shared Playwright driver's connection (it lives as long as the process)."""
    code = getattr(task.get_coro(), "cr_code", None)
    return code is not None and "/playwright/" in code.co_filename


@pytest.fixture(autouse=True)
async def _nothing_outlives_its_test() -> AsyncIterator[None]:
    """Every test shares its process's event loop (pyproject.toml): what a test started and
    left running (a hall it did not stop, a bot still playing) is cancelled when it ends, so
    it cannot play on, hold a port or use CPU under the tests after it."""
    before = asyncio.all_tasks()
    yield
    left = {
        task
        for task in asyncio.all_tasks() - before - {asyncio.current_task()}
        if not _playwrights(task)
    }
    for task in left:
        task.cancel()
    if left:
        _done, pending = await asyncio.wait(left, timeout=5)
        for task in pending:
            log.warning("a task of the test did not end when cancelled: %r", task)
