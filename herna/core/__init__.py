"""Shared vocabulary for every Herna game: states, actions, outcomes, errors, rng, clock.

Nothing here does I/O. Games in :mod:`herna.games` implement :class:`~herna.core.game.GameState`;
the hall (:mod:`herna.hall`) drives them through :class:`~herna.hall.match.Match`.
"""

from herna.core.clock import Clock, FakeClock, MonotonicClock, TimerHandle
from herna.core.errors import HernaError, IllegalAction, ProtocolError
from herna.core.game import CHANCE, TERMINAL, GameState, Outcome, PlayerId
from herna.core.rng import SeededRng, new_seed

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Clock",
    "FakeClock",
    "GameState",
    "HernaError",
    "IllegalAction",
    "MonotonicClock",
    "Outcome",
    "PlayerId",
    "ProtocolError",
    "SeededRng",
    "TimerHandle",
    "new_seed",
]
