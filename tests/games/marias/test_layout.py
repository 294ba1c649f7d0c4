"""The engine's modules depend one way: no import circle, not even one hidden in a function
or behind ``TYPE_CHECKING`` (the state once imported its claims and views lazily, and they
imported the state back)."""

from __future__ import annotations

from pathlib import Path

import herna.games.marias
from tests.import_graph import assert_package_without_circle, assert_small

ROOT = Path(herna.games.marias.__file__).parent


def test_no_import_circle_in_the_engine() -> None:
    assert_package_without_circle(herna.games.marias)


def test_the_engine_modules_fit_in_a_head() -> None:
    assert_small(ROOT, ("core", "state", "legality", "claim", "view", "actions", "rules"))
