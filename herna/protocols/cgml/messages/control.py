"""Chapter 4 of seed 001: control messages (``abort``, ``load``, ``disconnect``, ``pause``,
``cancelgame``, ``renonc``) and Herna's ``<error>``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from herna.protocols.cgml.messages.nodes import Message, Node, PlayerRef, _attrs, _text


@dataclass(frozen=True, slots=True)
class Abort(Message):
    """Super game server -> players: the game ended early because of ``player``."""

    player: PlayerRef
    message: str
    tag: ClassVar[str] = "abort"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("abort", (), None, (self.player.node(), _text("message", self.message))),)


@dataclass(frozen=True, slots=True)
class Load(Message):
    """Bot server -> login server: load 0 (idle) .. 100 (full)."""

    value: int
    tag: ClassVar[str] = "load"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("load", (), str(self.value)),)


LEFT = "left"
"""The ``<disconnect>`` reason of a seat that leaves its table on purpose (the group ends
with "… left" rather than "… lost the connection")."""


@dataclass(frozen=True, slots=True)
class Disconnect(Message):
    """Either way: a fatal error; the connection is closed."""

    reason: str
    tag: ClassVar[str] = "disconnect"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("disconnect", (), self.reason),)


@dataclass(frozen=True, slots=True)
class PauseStart(Message):
    """Player -> server, relayed to all: pause the game (``playerid``: extension)."""

    message: str | None = None
    playerid: str | None = None
    tag: ClassVar[str] = "pause"

    def nodes(self) -> tuple[Node, ...]:
        attrs = _attrs(("type", "start"), ("playerid", self.playerid))
        children = () if self.message is None else (_text("message", self.message),)
        return (Node("pause", attrs, None, children),)


@dataclass(frozen=True, slots=True)
class PauseFinish(Message):
    """Player -> server, relayed to all: end the pause (``playerid``: extension)."""

    playerid: str | None = None
    tag: ClassVar[str] = "pause"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("pause", _attrs(("type", "finish"), ("playerid", self.playerid)), ""),)


@dataclass(frozen=True, slots=True)
class CancelGame(Message):
    """Server -> players: the game ends early by the rules (``renonc``, ``rejected`` ...)."""

    reason: str
    tag: ClassVar[str] = "cancelgame"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("cancelgame", (), self.reason),)


@dataclass(frozen=True, slots=True)
class Renonc(Message):
    """Server -> players: ``player`` broke the rules of the game."""

    player: PlayerRef
    message: str
    tag: ClassVar[str] = "renonc"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("renonc", (), None, (self.player.node(), _text("message", self.message))),)


@dataclass(frozen=True, slots=True)
class Error(Message):
    """Herna extension: a well-formed message that is not valid now; nothing changed."""

    reason: str
    code: str = "ERROR"
    tag: ClassVar[str] = "error"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("error", (("code", self.code),), self.reason),)
