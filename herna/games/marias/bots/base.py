"""The bot interface."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from herna.games.marias.actions import Action


class BotRng(Protocol):
    """What bots need from an RNG (``random.Random`` has it)."""

    def random(self) -> float: ...

    def randrange(self, stop: int, /) -> int: ...


class Bot(Protocol):
    """A mariáš player that decides from its own view only."""

    name: str

    def choose(
        self, view: Mapping[str, Any], legal_actions: Sequence[Action], rng: BotRng
    ) -> Action: ...
