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

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

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
END_WORDS = {
    "server shutdown": "the server was shut down",
    "both players left": "both players left",
    "move limit": "too many moves",
}
"""Why a game ended without a winner."""


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


def who_words(name: str, color: str) -> str:
    """``ann (white)``: a player as a move's words name them."""
    return f"{name} ({color})" if name and name != color else color


def action_words(last: Mapping[str, Any], who: str, say: Callable[[str], str] = str) -> str:
    """A view's ``last`` (what the last action did) in words; ``who`` is its player; ``say``
    translates a sentence of :data:`ACTION_WORDS` (the catalogs' gettext: ``herna play
    onitama --language cs``; the game package has no catalogs).

    >>> action_words({"type": "move", "card": "Tiger", "from": "c1", "to": "c3",
    ...               "capture": True}, "ann (white)")
    'ann (white) played Tiger c1→c3 (capture)'
    """
    kind = str(last.get("type") or "")
    fields = {k: last.get(k) for k in ("card", "from", "to", "old", "new")}
    if kind == "move":
        text = say(ACTION_WORDS["move"]).format(who=who, **fields)
        return text + (say(ACTION_WORDS["capture"]) if last.get("capture") else "")
    if kind == "stalemate":
        sentence = ACTION_WORDS["stalemate" if last.get("new") else "give_up"]
        return say(sentence).format(who=who, **fields)
    if kind in ("pass", "forfeit"):
        return say(ACTION_WORDS[kind]).format(who=who, **fields)
    return kind.replace("_", " ")


def win_words(reason: object) -> str:
    """``way_of_the_stone`` -> ``by the Way of the Stone (captured the master)``."""
    text = str(reason or "")
    return WIN_WORDS.get(text, f"({text.replace('_', ' ')})" if text else "")


def end_words(reason: object) -> str:
    text = str(reason or "")
    return END_WORDS.get(text, text.replace("_", " "))


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
    "END_WORDS",
    "WIN_WORDS",
    "action_words",
    "end_words",
    "move_words",
    "who_words",
    "win_words",
]
