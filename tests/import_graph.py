"""Which modules of a package import which (read from the source, so an import inside a
function or behind ``TYPE_CHECKING`` counts too), for the tests that keep a package's modules
depending one way and small."""

from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType


def package_imports(package: str, root: Path) -> dict[str, set[str]]:
    """Module name -> the modules of ``package`` it imports (the package itself included)."""
    graph: dict[str, set[str]] = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join((package, *parts)).removesuffix(".__init__")
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                deps.add(node.module)
            elif isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
        graph[name] = {d for d in deps if d.startswith(package) and d != name}
    return graph


def assert_no_circle(graph: dict[str, set[str]], starts: list[str]) -> set[str]:
    """Fail with the circle when one is reachable from ``starts``; the modules visited."""
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

    for start in starts:
        visit(start, [])
    return done


def assert_package_without_circle(package: ModuleType) -> None:
    """Fail with the circle when modules of ``package`` import each other in a circle."""
    graph = package_imports(package.__name__, package_root(package))
    assert_no_circle(graph, sorted(graph))


def package_root(package: ModuleType) -> Path:
    assert package.__file__ is not None
    return Path(package.__file__).parent


def assert_small(root: Path, names: tuple[str, ...], limit: int = 800) -> None:
    for name in names:
        lines = (root / f"{name}.py").read_text(encoding="utf-8").count("\n")
        assert lines < limit, (name, lines)
