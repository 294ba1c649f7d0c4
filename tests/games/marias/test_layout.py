"""The engine's modules depend one way: no import circle, not even one hidden in a function
or behind ``TYPE_CHECKING`` (the state once imported its claims and views lazily, and they
imported the state back)."""

from __future__ import annotations

import ast
from pathlib import Path

import herna.games.marias

PACKAGE = "herna.games.marias"
ROOT = Path(herna.games.marias.__file__).parent


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join((PACKAGE, *parts)).removesuffix(".__init__")
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                deps.add(node.module)
            elif isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
        # The package itself only re-exports; importing it from a submodule would be the
        # circle, so it stays in the graph.
        graph[name] = {d for d in deps if d.startswith(PACKAGE) and d != name}
    return graph


def test_no_import_circle_in_the_engine() -> None:
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

    for name in sorted(graph):
        visit(name, [])


def test_the_engine_modules_fit_in_a_head() -> None:
    for name in ("core", "state", "legality", "claim", "view", "actions", "rules"):
        lines = (ROOT / f"{name}.py").read_text(encoding="utf-8").count("\n")
        assert lines < 800, (name, lines)
