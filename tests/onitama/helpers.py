"""Positions and small helpers shared by the Onitama tests."""

from __future__ import annotations

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.onitama.bots import Strategy
from herna.games.onitama.state import OnitamaState

BLOCKED_BOARD = "w...Bw....w....w....W...."
"""White pawns fill the a-file (master on a1): with Tiger and Horse White has no move."""


def blocked_state(rule: str = "stalemate") -> OnitamaState:
    return OnitamaState.setup(
        ["Tiger", "Horse"],
        ["Ox", "Crab"],
        "Eel",
        board=BLOCKED_BOARD,
        rule=rule,  # type: ignore[arg-type]
    )


def dealt(seed: int, rule: str = "stalemate") -> OnitamaState:
    """A new game with its cards dealt from ``seed``."""
    rng = SeededRng(seed)
    state = OnitamaState.new(rule)  # type: ignore[arg-type]
    while state.current_player() == CHANCE:
        state = state.apply(rng.weighted(state.chance_outcomes()))
    return state


def play_out(white: Strategy, black: Strategy, seed: int, max_plies: int = 400) -> OnitamaState:
    """A whole game between two bots (chance from ``seed``)."""
    rng = SeededRng(seed)
    state = dealt(seed)
    bots = (white, black)
    while not state.is_terminal() and state.ply < max_plies:
        player = state.current_player()
        if player == CHANCE:
            state = state.apply(rng.weighted(state.chance_outcomes()))
        else:
            state = state.apply(bots[player].choose(state))
    return state
