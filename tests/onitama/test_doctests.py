"""The examples in the Onitama modules' docstrings are kept true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "herna.games.onitama.cards",
    "herna.games.onitama.board",
    "herna.games.onitama.state",
    "herna.games.onitama.notation",
    "herna.games.onitama.perft",
    "herna.games.onitama.bots",
    "herna.protocols.onitama.common",
    "herna.protocols.onitama.seed",
    "herna.protocols.onitama.final",
    "herna.protocols.onitama.connection",
    "herna.protocols.onitama.client_game",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    assert result.attempted > 0
