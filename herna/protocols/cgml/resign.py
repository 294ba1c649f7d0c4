"""``<resign>`` (Herna extension): the aktér gives up the deal.

The seed has no message for giving up, and the rules digest (shared/marias-rules.md) no rule:
the obvious one is the aktér's concession. The aktér sends ``<resign/>`` on his turn once the
game is announced (when asked for a flek or a card); he loses every part of the contract at full
value with its fleks, as after his own renonc, but nobody broke a rule. The server answers as it
does after a renonc: ``<cancelgame>resigned</cancelgame>`` to all, the ``<result>``, then the
next ``newgame`` question. A defender cannot give up alone (his partner's money is at stake):
he gets ``<error code="NOT_AKTER">`` and may leave the table (``<disconnect>``: the table ends
as an abort). See docs/protocols/cgml.md, "RESIGN".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from herna.protocols.cgml.messages import Message, Node

RESIGNED = "resigned"
"""The ``<cancelgame>`` reason after a resignation (and the record's ``ended``)."""
NOT_AKTER = "NOT_AKTER"
"""The error code for a defender's ``<resign>``."""


@dataclass(frozen=True, slots=True)
class Resign(Message):
    """Player -> super game server: the aktér gives up this deal."""

    tag: ClassVar[str] = "resign"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("resign", (), ""),)


__all__ = ["NOT_AKTER", "RESIGNED", "Resign"]
