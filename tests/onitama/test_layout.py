"""The rules engine's and the bots' modules depend one way: no import circle, not even one
hidden in a function (the bots load the compiled engine lazily; the levels both name live in
``levels``)."""

from __future__ import annotations

import subprocess
import sys

import herna.games.onitama
from tests.import_graph import assert_package_without_circle, package_root


def test_no_import_circle_in_the_package() -> None:
    assert_package_without_circle(herna.games.onitama)


def test_the_level_names_load_without_numba() -> None:
    # Option parsers take the level names from the bots; numba takes about a second to load.
    code = (
        "import sys; from herna.games.onitama.bots import LEVEL_NAMES; "
        "assert LEVEL_NAMES and 'numba' not in sys.modules, sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=package_root(herna).parent)
