"""Bots for the tile/path games. They see what a player sees: a view (``state.view(seat)``) and
the legal actions in their JSON form, exactly as the network protocol delivers them.

``random`` picks any legal action; ``goal`` (goal-seeking, :mod:`.goal`) scores each action of
its turn by where it stands afterwards; ``search`` (:mod:`.search`) plays the goal bot's best
actions on through the opponents' replies and its next turn. :func:`make_bot` makes any of
them by kind or by level.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from herna.core.rng import SeededRng
from herna.games.tiles.goal import GoalBot, NoisyGoalBot
from herna.games.tiles.rules import Rules
from herna.games.tiles.search import SearchBot

LEVEL_NAMES = ("easy", "medium", "hard", "strongest")
"""Levels for people, weakest first: ``easy`` is the goal bot with a short look and one
action in four at random, ``medium`` the goal bot, ``hard`` the search bot with a narrow
search, ``strongest`` the search bot (docs/games/tiles.md measures each against the next)."""

STRATEGIES = ("random", "goal", "search", *LEVEL_NAMES)
"""Every name :func:`make_bot` knows: the bots by kind, then the levels."""

DEFAULT_LEVEL = "medium"

LEVEL_WORDS = {
    "easy": "heads for its goal, but not always",
    "medium": "heads for its goal, one turn ahead",
    "hard": "also weighs the others' replies and its next turn, briefly",
    "strongest": "weighs the others' replies and its next turn",
}
"""Each level in a few words for people choosing their opponents."""


class TilesBot(Protocol):
    strategy: str

    def choose(
        self, view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]
    ) -> Mapping[str, Any]:
        """One of ``actions`` (JSON form) for the player whose view this is."""
        ...


class RandomBot:
    strategy = "random"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rng = SeededRng(seed)

    def choose(
        self, view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]
    ) -> Mapping[str, Any]:
        return self.rng.choice(actions)


def make_bot(strategy: str, rules: Rules, seed: int = 0) -> TilesBot:
    """A bot by kind (``random``, ``goal``, ``search``) or by level (``easy`` … ``strongest``);
    raises ``ValueError`` for any other name."""
    if strategy == "random":
        return RandomBot(rules, seed)
    if strategy == "easy":
        return NoisyGoalBot(rules, seed)
    if strategy in ("goal", "medium"):
        return GoalBot(rules, seed)
    if strategy == "hard":
        return SearchBot(rules, seed, width=2, samples=1, budget=600, next_budget=100, seconds=0.08)
    if strategy in ("search", "strongest"):
        return SearchBot(rules, seed)
    raise ValueError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")


# The goal bots live in :mod:`.goal`; they are named here too, beside the other kinds make_bot
# makes.
__all__ = [
    "DEFAULT_LEVEL",
    "LEVEL_NAMES",
    "LEVEL_WORDS",
    "STRATEGIES",
    "GoalBot",
    "NoisyGoalBot",
    "RandomBot",
    "TilesBot",
    "make_bot",
]
