"""Mia in a person's words: dice as people call them and each way of losing as a sentence.

>>> dice_words(Dice(2, 1)), dice_words(Dice(4, 4)), dice_words(Dice(6, 5))
('Mia', 'double 4s (pasch)', '6-5')
>>> loss_sentence(["bob"], "CAUGHT_BLUFFING", ["ann", "bob"], Dice(6, 2), Dice(4, 1))
'bob was caught bluffing: announced 6-2, the dice were 4-1'
>>> loss_sentence(["ann"], "SEE_FAILED", ["ann", "bob"], Dice(5, 3), Dice(5, 3))
'ann looked and lost: the dice were as announced (5-3)'
>>> [dice_words(d) for d in announcements_above(Dice(6, 6))]
['Mia']
"""

from __future__ import annotations

from collections.abc import Sequence

from herna.games.mia.dice import ALL_DICE, Dice


def dice_words(dice: Dice) -> str:
    """``Mia``, ``double 4s (pasch)`` or ``6-5`` (higher die first)."""
    if dice.is_mia:
        return "Mia"
    if dice.is_double:
        return f"double {dice.high}s (pasch)"
    return f"{dice.high}-{dice.low}"


def announcements_above(last: Dice | None) -> list[Dice]:
    """What may be announced after ``last``: every throw strictly higher, lowest first."""
    return [d for d in ALL_DICE if last is None or d > last]


def _names(names: Sequence[str], you: str | None = None) -> str:
    """``ann``, ``ann and bob``, ``ann, bob and cy``; ``you`` is said as "you"."""
    said = ["you" if n == you else n for n in names]
    if said and said[0] == "you":
        said[0] = "You"
    if len(said) <= 1:
        return "".join(said)
    return ", ".join(said[:-1]) + " and " + said[-1]


def loss_sentence(
    losers: Sequence[str],
    reason: str,
    players: Sequence[str] = (),
    announced: Dice | None = None,
    actual: Dice | None = None,
    you: str | None = None,
) -> str:
    """Who lost and why, as a sentence (no seed keyword in it). ``announced`` is the last
    announcement, ``actual`` the dice shown when they were uncovered; the player ``you`` is
    told as "you".

    >>> loss_sentence(["ann"], "CAUGHT_BLUFFING", ["ann", "bob"], you="ann")
    'You were caught bluffing'
    """
    who = _names(losers, you)
    said = dice_words(announced) if announced is not None else ""
    shown = dice_words(actual) if actual is not None else ""
    if reason == "CAUGHT_BLUFFING":
        detail = f": announced {said}, the dice were {shown}" if said and shown else ""
        verb = "were" if who == "You" or len(losers) > 1 else "was"
        return f"{who} {verb} caught bluffing{detail}"
    if reason == "SEE_FAILED":
        if announced is not None and actual is not None and actual > announced:
            return f"{who} looked and lost: the dice ({shown}) were better than announced ({said})"
        return f"{who} looked and lost: the dice were as announced" + (
            f" ({shown})" if shown else ""
        )
    if reason == "MIA":
        winners = [p for p in players if p not in losers]
        return f"{_names(winners, you) or 'The roller'} had Mia: everyone else lost"
    if reason == "LIED_ABOUT_MIA":
        return f"{who} announced Mia without having it" + (
            f" (the dice were {shown})" if shown else ""
        )
    if reason == "ANNOUNCED_LOSING_DICE":
        return f"{who} announced {said or 'dice'}, not higher than the announcement before"
    if reason == "SEE_BEFORE_FIRST_ROLL":
        return f"{who} wanted to see before anybody had announced"
    if reason == "DID_NOT_TAKE_TURN":
        return f"{who} did not roll or look in time"
    if reason == "DID_NOT_ANNOUNCE":
        return f"{who} rolled but did not announce in time"
    if reason == "INVALID_TURN":
        return f"{who} made a move that is not allowed"
    return f"{who} lost"


CANCEL_WORDS = {
    "NO_PLAYERS": "nobody joined",
    "ONLY_ONE_PLAYER": "only one player joined",
}
"""Why a round was canceled, in words."""

STRATEGY_WORDS = {
    "probability": "weighs the odds and remembers who bluffs",
    "honest": "never bluffs",
    "random": "plays at random",
}
"""What each house-bot strategy does, for people choosing whom to play with."""
