"""Text forms of squares, cards, moves and whole positions, all round-tripping.

* Square: file letter then rank digit, lower case (``c1``); the letter is the column
  (``a``..``e`` left to right from White's side), the digit the row (``1`` = White's back row).
* Card: English name, capitalised when written, any case when read (``Tiger``).
* Move: ``Tiger c1c3``; :func:`parse_move` also reads ``tiger c1 c3`` and the wire form
  ``Tiger|c1|c3``. No-move actions: ``stalemate Tiger`` / ``pass Tiger``.
* Position: ``<board> <w1,w2,b1,b2,spare> <white|black>``, the same three fields that
  ``RECONNECT`` carries, e.g. ``bbBbb...............wwWww Ox,Boar,Horse,Elephant,Crab white``.

>>> format_move(parse_move("tiger C1 c3"))
'Tiger c1c3'
"""

from __future__ import annotations

import re

from herna.games.onitama.board import parse_square, square_name
from herna.games.onitama.cards import BLACK, COLOR_NAMES, WHITE, canonical_card
from herna.games.onitama.state import Move, OnitamaState, Pass, PlayerAction, Rule, Stalemate

__all__ = [
    "canonical_card",
    "format_action",
    "format_cards",
    "format_move",
    "format_position",
    "parse_action",
    "parse_cards",
    "parse_color",
    "parse_move",
    "parse_position",
    "parse_square",
    "square_name",
]

_SPLIT = re.compile(r"[\s|]+")


def format_move(move: Move) -> str:
    return f"{move.card} {square_name(move.frm)}{square_name(move.to)}"


def parse_move(text: str) -> Move:
    """``"Tiger c1c3"``, ``"tiger c1 c3"`` or ``"Tiger|c1|c3"``; raises ``ValueError``."""
    parts = [p for p in _SPLIT.split(text.strip()) if p]
    if len(parts) == 2 and len(parts[1]) == 4:
        parts = [parts[0], parts[1][:2], parts[1][2:]]
    if len(parts) != 3:
        raise ValueError(f"not a move: {text!r} (expected e.g. 'Tiger c1c3')")
    return Move(canonical_card(parts[0]), parse_square(parts[1]), parse_square(parts[2]))


def format_action(action: PlayerAction) -> str:
    if isinstance(action, Move):
        return format_move(action)
    return str(action)


def parse_action(text: str) -> PlayerAction:
    """A move, ``stalemate <card>`` or ``pass <card>``."""
    parts = [p for p in _SPLIT.split(text.strip()) if p]
    if len(parts) == 2 and parts[0].lower() in ("stalemate", "pass"):
        card = canonical_card(parts[1])
        return Stalemate(card) if parts[0].lower() == "stalemate" else Pass(card)
    return parse_move(text)


def format_cards(state: OnitamaState) -> str:
    """``w1,w2,b1,b2,spare``."""
    return ",".join(state.cards())


def parse_cards(text: str) -> tuple[list[str], list[str], str]:
    """``"Ox,Boar,Horse,Elephant,Crab"`` → (white hand, black hand, spare)."""
    names = [canonical_card(n) for n in text.split(",")]
    if len(names) != 5:
        raise ValueError(f"expected five cards w1,w2,b1,b2,spare, got {len(names)}")
    if len(set(names)) != 5:
        raise ValueError("the five cards in play must be different")
    return names[0:2], names[2:4], names[4]


def parse_color(text: str) -> int:
    key = text.strip().lower()
    if key == "white":
        return WHITE
    if key == "black":
        return BLACK
    raise ValueError(f"not a colour: {text!r} (white or black)")


def format_position(state: OnitamaState) -> str:
    return f"{state.board} {format_cards(state)} {COLOR_NAMES[state.to_move]}"


def parse_position(text: str, rule: Rule = "stalemate") -> OnitamaState:
    """The inverse of :func:`format_position`; raises ``ValueError``."""
    parts = text.split()
    if len(parts) != 3:
        raise ValueError("a position is '<board> <w1,w2,b1,b2,spare> <white|black>'")
    white, black, spare = parse_cards(parts[1])
    return OnitamaState.setup(
        white, black, spare, board=parts[0], to_move=parse_color(parts[2]), rule=rule
    )
