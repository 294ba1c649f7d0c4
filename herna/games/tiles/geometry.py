"""Board geometry of the tile/path games: sides, path points, rotation, adjacency.

Each side of a tile has ``n`` path points (``board.paths_on_tile_side``), numbered
clockwise around the tile. Herna numbers every point of a tile with one integer,
also clockwise, starting at the leftmost point of the top side::

    point = side * n + index        sides: U=0, R=1, D=2, L=3

so turning a tile 90 degrees clockwise adds ``n`` to every point (modulo ``4n``).
Point ``U i`` of cell (c, r) is the same place as ``D (n-1-i)`` of (c, r-1), and
``R i`` of (c, r) is ``L (n-1-i)`` of (c+1, r).

>>> n = 2
>>> point_name(parse_point("D1", n), n)
'D1'
>>> point_name(rotate_point(parse_point("U0", n), 1, n), n)
'R0'
>>> across((3, 3), parse_point("U0", 2), 2)
((3, 2), 5)
>>> point_name(5, 2)
'D1'
"""

from __future__ import annotations

SIDES = "URDL"
"""Side letters in clockwise order; a side's number is its position here."""

DELTAS: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""(dx, dy) of the neighbouring cell across each side."""

Cell = tuple[int, int]
"""(column, row), both from 0; (0, 0) is the top-left corner."""


def make_point(side: str, index: int, n: int) -> int:
    """The point number of ``side``/``index``; raises ValueError when out of range."""
    s = SIDES.find(side)
    if s < 0 or len(side) != 1:
        raise ValueError(f"side must be one of U, R, D, L, got {side!r}")
    if not 0 <= index < n:
        raise ValueError(f"path index must be 0..{n - 1}, got {index}")
    return s * n + index


def parse_point(text: str, n: int) -> int:
    """``"U0"`` -> point number (the notation of ``connections``)."""
    if len(text) < 2 or not text[1:].isdigit():
        raise ValueError(f"a path point is a side letter and an index, like U0, got {text!r}")
    return make_point(text[0], int(text[1:]), n)


def point_side(point: int, n: int) -> str:
    return SIDES[point // n]


def point_index(point: int, n: int) -> int:
    return point % n


def point_name(point: int, n: int) -> str:
    """Point number -> ``"U0"``."""
    return f"{SIDES[point // n]}{point % n}"


def rotate_point(point: int, quarter_turns: int, n: int) -> int:
    """The point after turning the tile ``quarter_turns`` times 90 degrees clockwise."""
    return (point + quarter_turns * n) % (4 * n)


def across(cell: Cell, point: int, n: int) -> tuple[Cell, int]:
    """The neighbouring cell that shares ``point`` and that point's number there.

    The cell may be off the board; callers check.
    """
    side, index = divmod(point, n)
    dx, dy = DELTAS[side]
    return (cell[0] + dx, cell[1] + dy), ((side + 2) % 4) * n + (n - 1 - index)


def on_board(cell: Cell, width: int, height: int) -> bool:
    return 0 <= cell[0] < width and 0 <= cell[1] < height
