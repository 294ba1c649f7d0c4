"""``<standin>`` (Herna extension): a client tells the super game server that a stand-in now
answers for its player, or that the player is back.

The web hall's browser seat is one CGML client per person. When the person's browser is gone
longer than the seat's grace window, the client lets a house-bot strategy answer for them so
that the others are not held hostage, and says so with ``<standin type="start"/>``; when the
person returns it sends ``<standin type="finish"/>``. The server changes nothing in the game
(the seat is still the player's) and writes the ids of the players who had a stand-in during
a deal into that deal's record (``meta.stand_in``). See docs/protocols/cgml.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from herna.protocols.cgml.messages import Message, Node


@dataclass(frozen=True, slots=True)
class StandIn(Message):
    """Player -> super game server: a stand-in answers for me from now (``active``) or no
    longer (not ``active``)."""

    active: bool
    tag: ClassVar[str] = "standin"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("standin", (("type", "start" if self.active else "finish"),), ""),)


__all__ = ["StandIn"]
