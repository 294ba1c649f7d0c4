"""How an Onitama game ended, in words — the one formatter of results and reasons used by the
history, the replays, ``herna replay`` and the logs (issue 26: the same words on every page).

Records keep the wire's reason (``way_of_the_stone``, ``out_of_time``, ``opponent_left``,
``illegal_move``) or the engine's (``way of the stone``, ``forfeit``); a person reads how the
game was won.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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


def win_words(reason: object) -> str:
    """``way_of_the_stone`` -> ``by the Way of the Stone (captured the master)``."""
    text = str(reason or "")
    return WIN_WORDS.get(text, f"({text.replace('_', ' ')})" if text else "")


def end_words(reason: object) -> str:
    text = str(reason or "")
    return END_WORDS.get(text, text.replace("_", " "))


def move_words(state: OnitamaState, move: Move) -> str:
    """A move in the position it is played from, as a person says it: ``Tiger c1c3: the
    master to c3, taking the pawn there`` (the reviews' best moves and the like)."""
    mover = state.to_move
    piece = state.piece_at(move.frm)
    taken = state.piece_at(move.to)
    who = "the master" if piece.isupper() else "the pawn"
    to = square_name(move.to)
    text = f"{move.card} {square_name(move.frm)}{to}: {who} to {to}"
    if taken.isupper():
        return text + ", capturing the master (wins)"
    if taken != ".":
        text += ", taking the pawn there"
    if piece.isupper() and move.to == TEMPLE[1 - mover]:
        text += ", reaching the temple arch (wins)"
    return text


__all__ = ["END_WORDS", "WIN_WORDS", "end_words", "move_words", "win_words"]
