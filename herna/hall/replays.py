"""Replays of recorded games, for the web hall's stepper and `herna replay`.

Each game provides ``replay_steps(match: StoredMatch) -> list[ReplayStep]`` that rebuilds the
game from its record (seed + action log) and returns the spectator view after every step.
Adding a game is one line in :data:`REPLAYERS`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypedDict

from herna.hall.records import StoredMatch


class ReplayStep(TypedDict):
    label: str
    """What happened in this step, for people ("alice announced 6,2")."""
    view: dict[str, Any]
    """Spectator view after the step: the same shape the live events carry in ``view``."""


REPLAYERS: dict[str, str] = {
    "mia": "herna.games.mia.replay:replay_steps",
    "onitama": "herna.games.onitama.replay:replay_steps",
    "marias": "herna.games.marias.replay:replay_steps",
    "tiles": "herna.games.tiles.replay:replay_steps",
}


def replayer(game: str) -> Callable[[StoredMatch], list[ReplayStep]] | None:
    path = REPLAYERS.get(game)
    if path is None:
        return None
    module, _, attr = path.partition(":")
    fn: Callable[[StoredMatch], list[ReplayStep]] = getattr(importlib.import_module(module), attr)
    return fn


def replay_steps(match: StoredMatch) -> list[ReplayStep]:
    """The steps of a recorded game; a game with no replayer gets its raw event log."""
    fn = replayer(match.game)
    if fn is not None:
        return fn(match)
    return [{"label": kind, "view": {"event": data}} for kind, data in match.events]
