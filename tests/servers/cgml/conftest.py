from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.servers.cgml.helpers import OPEN_STORES


@pytest.fixture(autouse=True)
def _close_record_stores() -> Iterator[None]:
    yield
    while OPEN_STORES:
        OPEN_STORES.pop().close()
