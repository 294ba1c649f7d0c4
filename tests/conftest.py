from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import postgres_server


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each storage test runs against a real SQLite file and a real PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'herna.db'}"
    url: str = request.getfixturevalue("postgres_url")
    # A fresh database per test keeps tests independent.
    import uuid

    from sqlalchemy import create_engine, text

    from herna.hall.db import normalise_url

    name = "t_" + uuid.uuid4().hex[:12]
    admin = create_engine(normalise_url(url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return url.rsplit("/", 1)[0] + f"/{name}"
