"""Every message example in docs/protocols/cgml.md is valid CGML and is written exactly the way
Herna writes it."""

from __future__ import annotations

import re
from pathlib import Path

from herna.protocols.cgml import messages as m
from herna.protocols.cgml.codec import decode, encode_text

DOC = Path(__file__).resolve().parents[3] / "docs" / "protocols" / "cgml.md"


def examples() -> list[str]:
    blocks = re.findall(r"```\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    return [b for b in blocks if b.startswith("<cgml")]


def test_every_example_decodes_and_is_in_canonical_form() -> None:
    found = examples()
    assert len(found) >= 40
    kinds: set[type] = set()
    for block in found:
        message = decode(block)
        kinds.add(type(message))
        assert encode_text(message).replace("\r\n", "\n").rstrip("\n") == block.rstrip("\n")
    # Every message type of chapters 2-4 (and Herna's <error>) has an example.
    every = {
        cls
        for cls in vars(m).values()
        if isinstance(cls, type) and issubclass(cls, m.Message) and cls is not m.Message
    }
    assert every - kinds == set()
