"""The compiled engine's levels for people, weakest first, and how each plays.

The levels are plain data, apart from :mod:`.engine` so that option parsers, pages and
:mod:`.bots` can name them without loading numba (about a second); the engine reads them
from here. Each level is measured against the next by ``bench/onitama_strength.py`` (see
docs/games/onitama.md).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """How a level plays: a time budget per move, a depth cap and a chance of a random
    reasonable move instead of the best one (so people can beat the lower levels)."""

    name: str
    budget: float
    max_depth: int
    blunder: float
    description: str


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 0.05, 2, 0.25, "looks two plies ahead; one move in four is a guess"),
    "medium": Level("medium", 0.05, 3, 0.0, "looks three plies ahead"),
    "hard": Level("hard", 0.03, 64, 0.0, "full engine, 30 ms per move"),
    "strongest": Level("strongest", 0.1, 64, 0.0, "full engine, 100 ms per move"),
}
LEVEL_NAMES = tuple(LEVELS)
DEFAULT_LEVEL = "strongest"
