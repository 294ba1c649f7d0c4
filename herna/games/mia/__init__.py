"""Mäxchen / Mia (seed 002): dice, the rules of a round, bots and replays.

Public API::

    Dice, ALL_DICE, MIA, probability_higher      # the 21 throws and their order
    MiaRound, Roll, See, Announce, DiceRoll, Fault  # one round as a pure state machine
    LOSS_REASONS                                 # the seed's loss reasons
"""

from herna.games.mia.dice import ALL_DICE, MIA, Dice, InvalidDice, probability_higher
from herna.games.mia.round import (
    LOSS_REASONS,
    Announce,
    Announcement,
    DiceRoll,
    Fault,
    MiaAction,
    MiaActionCodec,
    MiaRound,
    Roll,
    See,
)

__all__ = [
    "ALL_DICE",
    "LOSS_REASONS",
    "MIA",
    "Announce",
    "Announcement",
    "Dice",
    "DiceRoll",
    "Fault",
    "InvalidDice",
    "MiaAction",
    "MiaActionCodec",
    "MiaRound",
    "Roll",
    "See",
    "probability_higher",
]
