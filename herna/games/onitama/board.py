"""Squares and the 25-character board string.

Squares are numbered ``rank * 5 + file`` with ``file`` 0..4 = ``a``..``e`` (left to right as
White sees the board) and ``rank`` 0..4 = ``1``..``5`` (White's back row is rank 1). The board
string lists rank 5 first, files ``a``..``e`` within a rank: ``W``/``w`` white master/student,
``B``/``b`` black master/student, ``.`` empty.

>>> square_name(2), parse_square("C5")
('c1', 22)
>>> START_BOARD
'bbBbb...............wwWww'
"""

from __future__ import annotations

from herna.games.onitama.cards import BLACK, WHITE

SQUARE_NAMES: tuple[str, ...] = tuple(f"{'abcde'[sq % 5]}{sq // 5 + 1}" for sq in range(25))
_SQUARES: dict[str, int] = {name: sq for sq, name in enumerate(SQUARE_NAMES)}

TEMPLE: tuple[int, int] = (2, 22)
"""Temple arch of each colour: White's is c1, Black's is c5."""

START_PIECES: tuple[int, int] = (0b11111, 0b11111 << 20)
START_MASTERS: tuple[int, int] = (2, 22)
START_BOARD = "bbBbb...............wwWww"


def square_name(square: int) -> str:
    return SQUARE_NAMES[square]


def parse_square(text: str) -> int:
    """``"c1"`` → 2; any case, blanks trimmed; raises ``ValueError`` off the board."""
    square = _SQUARES.get(text)  # already as written by square_name: the usual case
    if square is not None:
        return square
    try:
        return _SQUARES[text.strip().lower()]
    except KeyError:
        raise ValueError(f"not a square: {text!r} (files a-e, ranks 1-5)") from None


CELL_INDEX: tuple[int, ...] = tuple((4 - sq // 5) * 5 + sq % 5 for sq in range(25))
"""Square -> index of its character in the board string."""

_EMPTY = "." * 25


def board_string(pieces: tuple[int, int], masters: tuple[int, int]) -> str:
    cells = list(_EMPTY)
    for color, student, master in ((WHITE, "w", "W"), (BLACK, "b", "B")):
        bits = pieces[color]
        while bits:
            low = bits & -bits
            bits ^= low
            cells[CELL_INDEX[low.bit_length() - 1]] = student
        if masters[color] != -1:
            cells[CELL_INDEX[masters[color]]] = master
    return "".join(cells)


def parse_board(text: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The inverse of :func:`board_string`: ``(pieces, masters)``; a missing master is -1.

    Raises ``ValueError`` for a wrong length, unknown symbols, more than one master or more
    than four students of a colour.
    """
    text = text.strip()
    if len(text) != 25:
        raise ValueError(f"a board has 25 cells, got {len(text)}")
    pieces = [0, 0]
    masters = [-1, -1]
    students = [0, 0]
    for i, ch in enumerate(text):
        rank, file = 4 - i // 5, i % 5
        sq = rank * 5 + file
        if ch == ".":
            continue
        if ch not in "WwBb":
            raise ValueError(f"unknown board symbol {ch!r}")
        color = WHITE if ch in "Ww" else BLACK
        pieces[color] |= 1 << sq
        if ch.isupper():
            if masters[color] != -1:
                raise ValueError("more than one master of a colour")
            masters[color] = sq
        else:
            students[color] += 1
            if students[color] > 4:
                raise ValueError("more than four students of a colour")
    return (pieces[0], pieces[1]), (masters[0], masters[1])
