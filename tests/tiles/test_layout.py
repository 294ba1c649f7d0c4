"""The engine's modules depend one way: no import circle among the modules ``engine`` stands
on, not even one hidden in a function or behind ``TYPE_CHECKING``; and each fits in a head."""

from __future__ import annotations

from pathlib import Path

import herna.games.tiles
from tests.import_graph import assert_no_circle, assert_small, package_imports

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
    # Only what the engine stands on: the bots' modules import each other (bots, search).
    graph = {
        name: deps
        for name, deps in package_imports(PACKAGE, ROOT).items()
        if name.count(".") == PACKAGE.count(".") + 1
    }
    done = assert_no_circle(graph, [f"{PACKAGE}.engine"])
    assert {f"{PACKAGE}.{name}" for name in ENGINE} <= done


def test_the_engine_modules_fit_in_a_head() -> None:
    assert_small(ROOT, ENGINE)
