"""Mia in a person's words: dice as people call them and each way of losing as a sentence,
in English or Czech (``lang``, :mod:`herna.core.lang`). The game keeps its German name:
English says "Mia" and "pasch" (Mäxchen's words), Czech explains them.

>>> dice_words(Dice(2, 1)), dice_words(Dice(4, 4)), dice_words(Dice(6, 5))
('Mia', 'double 4s (pasch)', '6-5')
>>> dice_words(Dice(4, 4), "cs")
'dvě čtyřky (pasch)'
>>> loss_sentence(["bob"], "CAUGHT_BLUFFING", ["ann", "bob"], Dice(6, 2), Dice(4, 1))
'bob was caught bluffing: announced 6-2, the dice were 4-1'
>>> loss_sentence(["bob"], "CAUGHT_BLUFFING", ["ann", "bob"], Dice(6, 2), Dice(4, 1), lang="cs")
'bob prohrává: blaf odhalen (ohlášeno 6-2, pod kelímkem: 4-1)'
>>> loss_sentence(["ann"], "SEE_FAILED", ["ann", "bob"], Dice(5, 3), Dice(5, 3))
'ann looked and lost: the dice were as announced (5-3)'
>>> [dice_words(d) for d in announcements_above(Dice(6, 6))]
['Mia']
"""

from __future__ import annotations

from collections.abc import Sequence

from herna.core.catalogs import say_in
from herna.core.lang import N_, pick
from herna.games.mia.dice import ALL_DICE, Dice

DOUBLES = {
    1: N_("double 1s (pasch)"),
    2: N_("double 2s (pasch)"),
    3: N_("double 3s (pasch)"),
    4: N_("double 4s (pasch)"),
    5: N_("double 5s (pasch)"),
    6: N_("double 6s (pasch)"),
}
"""A double by its face, said in a language by the catalogs (Czech: "dvě čtyřky (pasch)");
static/games/mia.js marks the same messages (tests/test_public_text.py runs both)."""


def dice_words(dice: Dice, lang: str = "en") -> str:
    """``Mia``, ``double 4s (pasch)`` / ``dvě čtyřky (pasch)`` or ``6-5`` (higher die
    first)."""
    if dice.is_mia:
        return "Mia"
    if dice.is_double:
        return say_in(lang)(DOUBLES[dice.high])
    return f"{dice.high}-{dice.low}"


def announcements_above(last: Dice | None) -> list[Dice]:
    """What may be announced after ``last``: every throw strictly higher, lowest first."""
    return [d for d in ALL_DICE if last is None or d > last]


def _names(names: Sequence[str], you: str | None = None, lang: str = "en") -> str:
    """``ann``, ``ann and bob``, ``ann, bob and cy``; ``you`` is said as "you" ("ty")."""
    said = [pick(lang, "you", "ty") if n == you else n for n in names]
    if said and names[0] == you:
        said[0] = said[0].capitalize()
    if len(said) <= 1:
        return "".join(said)
    return ", ".join(said[:-1]) + pick(lang, " and ", " a ") + said[-1]


_PLAIN = {
    "SEE_BEFORE_FIRST_ROLL": (
        "wanted to see before anybody had announced",
        "odkrývat nejde, dokud nikdo nic neohlásil",
    ),
    "DID_NOT_TAKE_TURN": ("did not roll or look in time", "vypršel čas na hod nebo odkrytí"),
    "DID_NOT_ANNOUNCE": (
        "rolled but did not announce in time",
        "po hodu vypršel čas bez ohlášení",
    ),
    "INVALID_TURN": ("made a move that is not allowed", "tah, který pravidla nedovolují"),
}
"""The loss reasons that need no dice: English after the losers ("bob did not ..."), Czech
after "bob prohrává:"."""


def loss_sentence(
    losers: Sequence[str],
    reason: str,
    players: Sequence[str] = (),
    announced: Dice | None = None,
    actual: Dice | None = None,
    you: str | None = None,
    lang: str = "en",
) -> str:
    """Who lost and why, as a sentence (no seed keyword in it). ``announced`` is the last
    announcement, ``actual`` the dice shown when they were uncovered; the player ``you`` is
    told as "you".

    >>> loss_sentence(["ann"], "CAUGHT_BLUFFING", ["ann", "bob"], you="ann")
    'You were caught bluffing'
    >>> loss_sentence(["ann"], "DID_NOT_ANNOUNCE", ["ann", "bob"], you="ann", lang="cs")
    'Prohráváš: po hodu vypršel čas bez ohlášení'
    """
    if lang == "cs":
        return _loss_cs(losers, reason, players, announced, actual, you)
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
    if reason in _PLAIN:
        return f"{who} {_PLAIN[reason][0]}"
    return f"{who} lost"


def _loss_cs(
    losers: Sequence[str],
    reason: str,
    players: Sequence[str],
    announced: Dice | None,
    actual: Dice | None,
    you: str | None,
) -> str:
    """The Czech sentence: "<kdo> prohrává: <proč>", so that no past participle has to
    guess a player's gender (the few that must say "(a)"); the player ``you`` is "ty", as
    the play pages speak to the player."""
    said = dice_words(announced, "cs") if announced is not None else ""
    shown = dice_words(actual, "cs") if actual is not None else ""
    if reason == "MIA":
        winners = [p for p in players if p not in losers]
        if winners == [you]:
            return "Máš Miu (Mäxchen): všichni ostatní prohrávají"
        who = _names(winners, you, "cs") or "Házející"
        verb = "mají" if len(winners) > 1 else "má"
        return f"{who} {verb} Miu (Mäxchen): všichni ostatní prohrávají"
    if list(losers) == [you]:
        lost = "Prohráváš"
    else:
        verb = "prohráváte" if you in losers else "prohrávají" if len(losers) > 1 else "prohrává"
        lost = f"{_names(losers, you, 'cs')} {verb}"
    if reason == "CAUGHT_BLUFFING":
        # "pod kelímkem: …": the dice words are "6-3" or "dvě pětky", so no verb agrees
        detail = f" (ohlášeno {said}, pod kelímkem: {shown})" if said and shown else ""
        return f"{lost}: blaf odhalen{detail}"
    if reason == "SEE_FAILED":
        if announced is not None and actual is not None and actual > announced:
            return f"{lost}: odkrytý kelímek ukázal víc ({shown}), než bylo ohlášeno ({said})"
        return f"{lost}: odkrytý kelímek ukázal, co bylo ohlášeno" + (
            f" ({shown})" if shown else ""
        )
    if reason == "LIED_ABOUT_MIA":
        return f"{lost}: ohlášena Mia, ale na kostkách nebyla" + (
            f" (pod kelímkem: {shown})" if shown else ""
        )
    if reason == "ANNOUNCED_LOSING_DICE":
        return f"{lost}: ohlášeno {said or 'hození'}, což není víc než předchozí ohlášení"
    if reason in _PLAIN:
        return f"{lost}: {_PLAIN[reason][1]}"
    return lost


def cancel_words(reason: str, lang: str = "en") -> str:
    """Why a round was canceled, in words ("" for a reason without words)."""
    words = {
        "NO_PLAYERS": ("nobody joined", "nikdo se nepřipojil"),
        "ONLY_ONE_PLAYER": ("only one player joined", "připojil se jen jeden hráč"),
    }.get(reason)
    return pick(lang, *words) if words else ""


STRATEGY_WORDS = {
    "probability": "weighs the odds and remembers who bluffs",
    "honest": "never bluffs",
    "random": "plays at random",
}
"""What each house-bot strategy does, for people choosing whom to play with."""

STRATEGY_WORDS_CS = {
    "probability": "váží šance a pamatuje si, kdo blafuje",
    "honest": "nikdy neblafuje",
    "random": "hraje náhodně",
}
"""The same in Czech."""


def strategy_words(strategy: str, lang: str = "en") -> str:
    """What the house-bot strategy ``strategy`` does, in ``lang``."""
    table = STRATEGY_WORDS_CS if lang == "cs" else STRATEGY_WORDS
    return table.get(strategy, strategy)
