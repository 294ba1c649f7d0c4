"""The 16 Onitama base cards: movement offsets, stamp colours and precomputed target masks.

Offsets are written from the moving player's own view (``dx > 0`` = to the mover's right,
``dy > 0`` = forward). White sits at the bottom (rank 1) and moves towards rank 5, so for
White a card offset is ``(+dx, +dy)`` on the board; Black reads the same card turned by 180°,
so for Black it is ``(-dx, -dy)``.

>>> CARDS[card_index("tiger")].name
'Tiger'
>>> len(CARDS)
16
"""

from __future__ import annotations

from dataclasses import dataclass

WHITE = 0
BLACK = 1
COLOR_NAMES = ("white", "black")


@dataclass(frozen=True)
class Card:
    name: str
    offsets: tuple[tuple[int, int], ...]
    """``(dx, dy)`` pairs from the mover's view: dx to the right, dy forward."""
    stamp: str
    """``"blue"`` or ``"red"``: which colour starts when this is the spare (official rule)."""
    mirror: str
    """The card whose offsets are the left-right mirror image (itself when symmetric)."""


CARDS: tuple[Card, ...] = (
    Card("Tiger", ((0, 2), (0, -1)), "blue", "Tiger"),
    Card("Dragon", ((-2, 1), (2, 1), (-1, -1), (1, -1)), "red", "Dragon"),
    Card("Frog", ((-2, 0), (-1, 1), (1, -1)), "red", "Rabbit"),
    Card("Rabbit", ((2, 0), (1, 1), (-1, -1)), "blue", "Frog"),
    Card("Crab", ((0, 1), (-2, 0), (2, 0)), "blue", "Crab"),
    Card("Elephant", ((-1, 1), (1, 1), (-1, 0), (1, 0)), "red", "Elephant"),
    Card("Goose", ((-1, 1), (-1, 0), (1, 0), (1, -1)), "blue", "Rooster"),
    Card("Rooster", ((1, 1), (-1, 0), (1, 0), (-1, -1)), "red", "Goose"),
    Card("Monkey", ((-1, 1), (1, 1), (-1, -1), (1, -1)), "blue", "Monkey"),
    Card("Mantis", ((-1, 1), (1, 1), (0, -1)), "red", "Mantis"),
    Card("Horse", ((0, 1), (-1, 0), (0, -1)), "red", "Ox"),
    Card("Ox", ((0, 1), (1, 0), (0, -1)), "blue", "Horse"),
    Card("Crane", ((0, 1), (-1, -1), (1, -1)), "blue", "Crane"),
    Card("Boar", ((0, 1), (-1, 0), (1, 0)), "red", "Boar"),
    Card("Eel", ((-1, 1), (-1, -1), (1, 0)), "blue", "Cobra"),
    Card("Cobra", ((1, 1), (1, -1), (-1, 0)), "red", "Eel"),
)
"""All 16 base cards, in a fixed order; a card's index in this tuple is its id."""

CARD_NAMES: tuple[str, ...] = tuple(c.name for c in CARDS)
_BY_KEY: dict[str, int] = {c.name.casefold(): i for i, c in enumerate(CARDS)}
_NAMES = frozenset(CARD_NAMES)


def card_index(name: str) -> int:
    """The id of a card by name, any case, blanks trimmed; raises ``ValueError``.

    >>> card_index(" COBRA ")
    15
    """
    key = name.strip().casefold()
    try:
        return _BY_KEY[key]
    except KeyError:
        raise ValueError(f"unknown card {name!r}") from None


def canonical_card(name: str) -> str:
    """The capitalised name of a card given in any case (``"ox"`` → ``"Ox"``)."""
    if name in _NAMES:  # already capitalised: the usual case
        return name
    return CARD_NAMES[card_index(name)]


def _targets(card: Card, color: int, square: int) -> int:
    file, rank = square % 5, square // 5
    sign = 1 if color == WHITE else -1
    mask = 0
    for dx, dy in card.offsets:
        f, r = file + sign * dx, rank + sign * dy
        if 0 <= f < 5 and 0 <= r < 5:
            mask |= 1 << (r * 5 + f)
    return mask


TARGETS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_targets(card, color, sq) for sq in range(25)) for card in CARDS)
    for color in (WHITE, BLACK)
)
"""``TARGETS[color][card][square]``: bitmask of the squares a pawn of ``color`` on
``square`` can reach with ``card`` (board edges applied, own pawns not)."""
