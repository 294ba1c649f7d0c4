"""The examples in the engine's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "herna.games.marias",
    "herna.games.marias.cards",
    "herna.games.marias.contracts",
    "herna.games.marias.actions",
    "herna.games.marias.log",
    "herna.games.marias.bots.judgement",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
