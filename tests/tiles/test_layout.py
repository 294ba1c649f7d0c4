"""The package's modules depend one way: no import circle, not even one hidden in a function or
behind ``TYPE_CHECKING``; and each of the engine's modules fits in a head."""

from __future__ import annotations

from pathlib import Path

import herna.games.tiles
from tests.import_graph import (
    assert_no_circle,
    assert_package_without_circle,
    assert_small,
    package_imports,
)

PACKAGE = "herna.games.tiles"
ROOT = Path(herna.games.tiles.__file__).parent
ENGINE = (
    "pieces",
    "precomputed",
    "state_base",
    "movement",
    "effects",
    "applying",
    "legal",
    "views",
    "engine",
)


def test_no_import_circle_under_the_engine() -> None:
    graph = package_imports(PACKAGE, ROOT)
    done = assert_no_circle(graph, [f"{PACKAGE}.engine"])
    assert {f"{PACKAGE}.{name}" for name in ENGINE} <= done


def test_no_import_circle_in_the_package() -> None:
    # The bots' modules too: search and bots both build on goal, and bots on search.
    assert_package_without_circle(herna.games.tiles)


def test_the_engine_modules_fit_in_a_head() -> None:
    assert_small(ROOT, ENGINE)
