"""Who sits in a CGML group: its members, their connections, the group's settings and
phases. :class:`~herna.servers.cgml.group.Group` runs the game for them.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from herna.games.marias import Rules
from herna.protocols.cgml.messages import Message, PlayerRef


class Peer(Protocol):
    """What the group needs from a member's connection."""

    closed: bool

    def send(self, message: Message) -> None: ...

    def send_bytes(self, data: bytes) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class GroupSettings:
    rules: Rules = field(default_factory=Rules)
    bot_timeout: float = 30.0
    """Seconds a bot has to answer an ask."""
    human_timeout: float = 300.0
    """Seconds a person has to answer an ask (generous)."""
    join_timeout: float = 60.0
    """Seconds every member has to send ``newgroup accept`` after the group was created."""
    newgame_timeout: float = 120.0
    """Seconds to answer ``newgame ask``."""
    max_pause: float = 600.0
    """Longest pause; a longer one aborts the game (message ``pause too long``)."""
    training: bool = False
    """Training mode: a move against the rules is refused with ``<renonc>`` to that player
    only and asked again, instead of ending the game."""
    max_games: int | None = None
    """Games per group before it ends by itself (None: until a member rejects)."""


class GroupPhase(enum.Enum):
    JOINING = "joining"
    ASKING = "asking"
    PLAYING = "playing"
    CLOSED = "closed"


@dataclass
class Member:
    ref: PlayerRef
    seat: int
    peer: Peer | None = None
    accepted: bool = False
    secret: str | None = field(default=None, repr=False)
    """The secret of this member's ticket (None: a group that admits by player id)."""

    @property
    def id(self) -> str:
        return self.ref.id or ""

    @property
    def is_human(self) -> bool:
        return self.ref.race == "human"


def seat_names(members: Sequence[Member]) -> list[str]:
    """Seat names for records: unique within the table."""
    out: list[str] = []
    for m in members:
        name = m.ref.name or m.id
        base, n = name, 2
        while name in out:
            name = f"{base}#{n}"
            n += 1
        out.append(name)
    return out
