"""Onitama (seed 003): a pure rules engine, notation, perft and bots.

* :mod:`.cards` the 16 base cards and their move tables,
* :mod:`.board` squares (``a1``..``e5``) and the 25-character board string,
* :mod:`.state` :class:`OnitamaState` and its actions,
* :mod:`.notation` text forms of moves and positions,
* :mod:`.perft` move-path counts that match the published figures,
* :mod:`.bots` random, greedy and alpha-beta bots,
* :mod:`.levels` the compiled engine's levels for people (:mod:`.engine` plays them),
* :mod:`.replay` replays of recorded games.
"""

from herna.games.onitama.board import SQUARE_NAMES, parse_square, square_name
from herna.games.onitama.cards import BLACK, CARD_NAMES, CARDS, WHITE, Card, card_index
from herna.games.onitama.state import (
    ACTION_CODEC,
    Action,
    Deal,
    Draw,
    Move,
    OnitamaState,
    Pass,
    PlayerAction,
    Stalemate,
)

__all__ = [
    "ACTION_CODEC",
    "BLACK",
    "CARDS",
    "CARD_NAMES",
    "SQUARE_NAMES",
    "WHITE",
    "Action",
    "Card",
    "Deal",
    "Draw",
    "Move",
    "OnitamaState",
    "Pass",
    "PlayerAction",
    "Stalemate",
    "card_index",
    "parse_square",
    "square_name",
]
