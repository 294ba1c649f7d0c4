"""How an Onitama game went and ended, in words — the one formatter of moves, results and
reasons used by the history, the replays, ``herna replay``, the play page, ``herna play
onitama`` and the logs (issue 26: the same words on every page and in the terminal).

A move reads ``ann (white) played Tiger c1→c3 (capture)``: the card, then the square it left
and the square it reached. The browser carries a copy of :data:`ACTION_WORDS` (in
``static/games/onitama.js``, checked by ``tests/test_public_text.py``); what a person types
in the terminal stays the notation of :mod:`herna.games.onitama.notation` (``Tiger c1c3``).

Records keep the wire's reason (``way_of_the_stone``, ``out_of_time``, ``opponent_left``,
``illegal_move``) or the engine's (``way of the stone``, ``forfeit``); a person reads how the
game was won.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from herna.core.catalogs import say_in
from herna.core.lang import N_
from herna.games.onitama.board import TEMPLE, square_name

if TYPE_CHECKING:
    from herna.games.onitama.state import Move, OnitamaState

WIN_WORDS = {
    "way_of_the_stone": "by the Way of the Stone (captured the master)",
    "way of the stone": "by the Way of the Stone (captured the master)",
    "way_of_the_stream": "by the Way of the Stream (reached the temple)",
    "way of the stream": "by the Way of the Stream (reached the temple)",
    "out_of_time": "on time (the opponent ran out of time)",
    "opponent_left": "because the opponent left",
    "forfeit": "because the opponent left",
    "abandoned": "because the opponent did not come back",
    "illegal_move": "because the opponent made an illegal move",
    "resigned": "because the opponent resigned",
    "resign": "because the opponent resigned",
}
"""``X wins …`` by the recorded reason."""
WIN_WORDS_CS = {
    "way_of_the_stone": "Cestou kamene (vzal mistra)",
    "way of the stone": "Cestou kamene (vzal mistra)",
    "way_of_the_stream": "Cestou proudu (došel do chrámu)",
    "way of the stream": "Cestou proudu (došel do chrámu)",
    "out_of_time": "na čas (soupeři došel čas)",
    "opponent_left": "protože soupeř odešel",
    "forfeit": "protože soupeř odešel",
    "abandoned": "protože se soupeř nevrátil",
    "illegal_move": "protože soupeř zahrál neplatný tah",
    "resigned": "protože se soupeř vzdal",
    "resign": "protože se soupeř vzdal",
}
"""The same in Czech (the browser's catalog says them alike: static/games/onitama.js)."""
END_WORDS = {
    "server shutdown": "the server was shut down",
    "both players left": "both players left",
    "move limit": "too many moves",
}
"""Why a game ended without a winner."""
END_WORDS_CS = {
    "server shutdown": "server byl vypnut",
    "both players left": "oba hráči odešli",
    "move limit": "příliš mnoho tahů",
}
COLOR_WORDS_CS = {"white": "bílý", "black": "černý"}


CARD_WORDS = {
    "Tiger": N_("Tiger"),
    "Dragon": N_("Dragon"),
    "Frog": N_("Frog"),
    "Rabbit": N_("Rabbit"),
    "Crab": N_("Crab"),
    "Elephant": N_("Elephant"),
    "Goose": N_("Goose"),
    "Rooster": N_("Rooster"),
    "Monkey": N_("Monkey"),
    "Mantis": N_("Mantis"),
    "Horse": N_("Horse"),
    "Ox": N_("Ox"),
    "Crane": N_("Crane"),
    "Boar": N_("Boar"),
    "Eel": N_("Eel"),
    "Cobra": N_("Cobra"),
}
"""A card's name for people, keyed by the protocol's name (which the wire, the notation and
the logs keep): the catalogs say it in a page's language (Czech: the Czech edition's names,
Tygr, Kanec …); static/games/onitama.js marks the same messages (``cardWord``, checked by
``tests/test_public_text.py``)."""


ACTION_WORDS = {
    "move": "{who} played {card} {from}→{to}",
    "capture": " (capture)",
    "stalemate": "{who} could not move: swapped {old} for {new}",
    "give_up": "{who} could not move: gives up {old}",
    "pass": "{who} could not move: passed {card} to the spare",
    "forfeit": "{who} left the game",
}
"""What the last action did (a view's ``last``), with ``{who}`` the player as
:func:`who_words` names them."""
ACTION_WORDS_CS = {
    "move": "{who} zahrál(a) kartu {card} {from}→{to}",
    "capture": " (bere)",
    "stalemate": "{who} nemohl(a) táhnout: vyměnil(a) kartu {old} za kartu {new}",
    "give_up": "{who} nemohl(a) táhnout: vzdává se karty {old}",
    "pass": "{who} nemohl(a) táhnout: odložil(a) kartu {card} jako volnou",
    "forfeit": "{who} opustil(a) hru",
}
"""The same in Czech (a player's name may be anyone's: the verb takes both genders; a card's
name stays in the nominative after the word "kartu": "zahrál(a) kartu Kanec c1→c2")."""


def card_words(name: object, lang: str = "en") -> str:
    """A card's name as people read it in ``lang``: ``Boar`` -> ``Kanec`` in Czech; a name
    that is no card stays as it is."""
    text = str(name or "")
    if lang == "en" or text not in CARD_WORDS:
        return text
    return say_in(lang)(CARD_WORDS[text])


def cards_words(text: str, lang: str = "en") -> str:
    """Every card named in a line of notation (``Tiger c1c3``, ``stalemate Crab {draws Eel}``)
    said in ``lang``; the rest of the line as it is."""
    if lang == "en":
        return text
    return re.sub(r"[A-Z][a-z]+", lambda m: card_words(m.group(0), lang), text)


def color_words(color: str, lang: str = "en") -> str:
    """``white`` -> ``bílý`` in Czech."""
    return COLOR_WORDS_CS.get(color, color) if lang == "cs" else color


def who_words(name: str, color: str, lang: str = "en") -> str:
    """``ann (white)``: a player as a move's words name them."""
    said = color_words(color, lang)
    return f"{name} ({said})" if name and name != color else said


def action_words(last: Mapping[str, Any], who: str, lang: str = "en") -> str:
    """A view's ``last`` (what the last action did) in words; ``who`` is its player.

    >>> action_words({"type": "move", "card": "Tiger", "from": "c1", "to": "c3",
    ...               "capture": True}, "ann (white)")
    'ann (white) played Tiger c1→c3 (capture)'
    """
    words = ACTION_WORDS_CS if lang == "cs" else ACTION_WORDS
    kind = str(last.get("type") or "")
    fields = {k: last.get(k) for k in ("from", "to")}
    fields.update({k: card_words(last.get(k), lang) for k in ("card", "old", "new")})
    if kind == "move":
        text = words["move"].format(who=who, **fields)
        return text + (words["capture"] if last.get("capture") else "")
    if kind == "stalemate":
        return words["stalemate" if last.get("new") else "give_up"].format(who=who, **fields)
    if kind in ("pass", "forfeit"):
        return words[kind].format(who=who, **fields)
    return kind.replace("_", " ")


def win_words(reason: object, lang: str = "en") -> str:
    """``way_of_the_stone`` -> ``by the Way of the Stone (captured the master)``."""
    text = str(reason or "")
    words = WIN_WORDS_CS if lang == "cs" else WIN_WORDS
    return words.get(text, f"({text.replace('_', ' ')})" if text else "")


def end_words(reason: object, lang: str = "en") -> str:
    text = str(reason or "")
    words = END_WORDS_CS if lang == "cs" else END_WORDS
    return words.get(text, text.replace("_", " "))


def move_words(state: OnitamaState, move: Move) -> str:
    """A move in the position it is played from, as a person says it: ``Tiger c1→c3: the
    master to c3, taking the pawn there`` (the reviews' best moves and the like; the card and
    squares written as :data:`ACTION_WORDS` writes a move made)."""
    mover = state.to_move
    piece = state.piece_at(move.frm)
    taken = state.piece_at(move.to)
    who = "the master" if piece.isupper() else "the pawn"
    to = square_name(move.to)
    text = f"{move.card} {square_name(move.frm)}→{to}: {who} to {to}"
    if taken.isupper():
        return text + ", capturing the master (wins)"
    if taken != ".":
        text += ", taking the pawn there"
    if piece.isupper() and move.to == TEMPLE[1 - mover]:
        text += ", reaching the temple arch (wins)"
    return text


__all__ = [
    "ACTION_WORDS",
    "CARD_WORDS",
    "END_WORDS",
    "WIN_WORDS",
    "action_words",
    "card_words",
    "cards_words",
    "color_words",
    "end_words",
    "move_words",
    "who_words",
    "win_words",
]
