"""The XML building blocks every message is written with: :class:`Node`, the base
:class:`Message` and the ``<player>`` element they share (:class:`PlayerRef`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class Node:
    """A tiny XML element model for writing: tag, attributes in order, text or children."""

    tag: str
    attrs: tuple[tuple[str, str], ...] = ()
    text: str | None = None
    children: tuple[Node, ...] = ()


def _text(tag: str, value: str, *attrs: tuple[str, str]) -> Node:
    return Node(tag, tuple(attrs), value)


def _attrs(*pairs: tuple[str, str | None]) -> tuple[tuple[str, str], ...]:
    return tuple((k, v) for k, v in pairs if v is not None)


# -- shared parts ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A ``<player id="...">`` element with optional ``<name>`` and ``<race>``."""

    id: str | None = None
    name: str | None = None
    race: str | None = None

    def node(self) -> Node:
        children: list[Node] = []
        if self.name is not None:
            children.append(_text("name", self.name))
        if self.race is not None:
            children.append(_text("race", self.race))
        return Node("player", _attrs(("id", self.id)), None, tuple(children))


class Message(ABC):
    """Base of every CGML message."""

    __slots__ = ()
    tag: ClassVar[str] = ""

    @abstractmethod
    def nodes(self) -> tuple[Node, ...]:
        """The message as XML nodes (what the codec writes)."""
