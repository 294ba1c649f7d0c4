"""A bot that plays a uniformly random legal action."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from herna.games.marias.actions import Action
from herna.games.marias.bots.base import BotRng


class RandomBot:
    name = "random"

    def choose(
        self, view: Mapping[str, Any], legal_actions: Sequence[Action], rng: BotRng
    ) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return legal_actions[rng.randrange(len(legal_actions))]
