from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from herna.web.i18n import compile_catalogs
from tests.chromium import Chromium
from tests.postgres import fresh_database, postgres_server


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


@pytest.fixture
async def chromium() -> AsyncIterator[Chromium]:
    """The test's connection to this process's headless Chromium (tests/chromium.py), made
    when first asked for and closed with the test: a connection and an event loop per test
    (a loop shared by many tests would let a hall a test left running play on under every
    test after it), one Chromium per process (launching one per test cost seconds)."""
    shared = Chromium()
    yield shared
    await shared.close()
