"""The engine's modules depend one way: no import circle among the modules ``engine`` stands
on, not even one hidden in a function or behind ``TYPE_CHECKING``; and each fits in a head."""

from __future__ import annotations

import ast
from pathlib import Path

import herna.games.tiles

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


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in ROOT.glob("*.py"):
        name = f"{PACKAGE}.{path.stem}".removesuffix(".__init__")
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                deps.add(node.module)
            elif isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
        graph[name] = {d for d in deps if d.startswith(PACKAGE) and d != name}
    return graph


def test_no_import_circle_under_the_engine() -> None:
    graph = _imports()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            cycle = " -> ".join([*path[path.index(name) :], name])
            raise AssertionError(f"import circle: {cycle}")
        if name in done:
            return
        for dep in sorted(graph.get(name, ())):
            visit(dep, [*path, name])
        done.add(name)

    visit(f"{PACKAGE}.engine", [])
    assert {f"{PACKAGE}.{name}" for name in ENGINE} <= done


def test_the_engine_modules_fit_in_a_head() -> None:
    for name in ENGINE:
        lines = (ROOT / f"{name}.py").read_text(encoding="utf-8").count("\n")
        assert lines < 800, (name, lines)
