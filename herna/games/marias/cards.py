"""Cards of licitovaný mariáš and their CGML codes (seed 001, chapter 5).

A card is a plain ``int`` 0..31: ``suit * 8 + rank``. Suits are ``R`` (hearts, červené) = 0,
``B`` (bells, kule) = 1, ``G`` (leaves, zelené) = 2, ``A`` (acorns, žaludy) = 3. Ranks in their
natural order are ``07 08 09 10 0J 0Q 0K 0A`` = 0..7. A set of cards is an ``int`` bitmask
(bit ``card`` set), so each suit is one byte of the mask.

>>> format_card(parse_card("A0A")), parse_card("R07"), format_card(13)
('A0A', 0, 'B0Q')
>>> format_cards(cards_of(mask_of([parse_card("G10"), parse_card("R0K")])))
'R0K G10'
>>> parse_card("T18")
Traceback (most recent call last):
...
herna.games.marias.cards.CardError: T18 is a CGML tarot card, not a mariáš card
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from herna.games.marias.names import card_name, rank_name

Card = int
"""A mariáš card, 0..31 (``suit * 8 + rank``)."""

Suit = int
"""0 = R (hearts), 1 = B (bells), 2 = G (leaves), 3 = A (acorns)."""

R, B, G, A = 0, 1, 2, 3
SUITS: tuple[Suit, ...] = (R, B, G, A)
SUIT_CODES = "RBGA"
SUIT_NAMES = ("hearts", "bells", "leaves", "acorns")
"""English names (German-suited deck); CGML uses the letters in :data:`SUIT_CODES`."""
SUIT_NAMES_CS = ("červené", "kule", "zelené", "žaludy")

RANK_CODES = ("07", "08", "09", "10", "0J", "0Q", "0K", "0A")
RANK_CS = {rank: rank_name(rank) for rank in RANK_CODES}
"""Every rank by its Czech name: sedma, osma, devítka, desítka, spodek, svršek, král, eso."""


def card_words(code: str) -> str:
    """A card as a person reads it: ``A0A`` -> ``žaludové eso``; ``R07`` -> ``červená sedma``
    (the suit agrees with the rank: :func:`herna.games.marias.names.card_name`)."""
    return card_name(code)


RANK_NAMES = ("seven", "eight", "nine", "ten", "unter", "ober", "king", "ace")
SEVEN, EIGHT, NINE, TEN, UNTER, OBER, KING, ACE = range(8)

ALL_CARDS: tuple[Card, ...] = tuple(range(32))
FULL_DECK_MASK = (1 << 32) - 1

SUIT_MASK: tuple[int, ...] = tuple(0xFF << (8 * s) for s in SUITS)
"""Mask of the eight cards of each suit."""

POINTS: tuple[int, ...] = tuple(10 if c & 7 in (TEN, ACE) else 0 for c in ALL_CARDS)
"""Card points: aces and tens 10, everything else 0."""
TENS_ACES_MASK = sum(1 << c for c in ALL_CARDS if POINTS[c])
SEVENS_MASK = sum(1 << (s * 8 + SEVEN) for s in SUITS)

# Rank orders, low -> high. Trump games: 7 8 9 J Q K 10 A; betl and durch: 7 8 9 10 J Q K A.
TRUMP_ORDER: tuple[int, ...] = (0, 1, 2, 6, 3, 4, 5, 7)
"""Strength (0..7) of each natural rank in trump games (hra, sedma, sto, dvě sedmy)."""
BETL_ORDER: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7)
"""Strength (0..7) of each natural rank in betl and durch (the ten sits below the unter)."""

# ABOVE[order][card]: mask of the same-suit cards that beat ``card`` (0 = trump order, 1 = betl).
ABOVE: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(
        sum(1 << (c & ~7 | r) for r in range(8) if TRUMP_ORDER[r] > TRUMP_ORDER[c & 7])
        for c in ALL_CARDS
    ),
    tuple(sum(1 << (c & ~7 | r) for r in range(8) if r > c & 7) for c in ALL_CARDS),
)

BIT: tuple[int, ...] = tuple(1 << c for c in ALL_CARDS)

# BYTE_CARDS[suit][byte] lists the cards of one suit present in an 8-bit slice of a mask.
BYTE_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(s * 8 + r for r in range(8) if b >> r & 1) for b in range(256)) for s in SUITS
)


class CardError(ValueError):
    """A string that is not the CGML code of a mariáš card (see the message for why)."""


_CODE = re.compile(r"^([RBGATJ])([0-9][0-9JQKA])$", re.IGNORECASE)
_NON_MARIAS = re.compile(r"^(T(0[1-9]|1[0-9]|2[0-2])|J00)$")


def parse_card(code: str) -> Card:
    """The card with CGML code ``code`` (suit letter in any case). Raises :class:`CardError`.

    The CGML tarot cards ``T01``–``T22`` and the joker ``J00`` are valid CGML codes but not
    mariáš cards: they raise with a message saying so.
    """
    text = code.strip().upper()
    if _NON_MARIAS.match(text):
        kind = "joker" if text == "J00" else "tarot card"
        raise CardError(f"{text} is a CGML {kind}, not a mariáš card")
    m = _CODE.match(text)
    if m is None or m.group(1) not in SUIT_CODES or m.group(2) not in RANK_CODES:
        raise CardError(f"{code!r} is not a card code (expected e.g. R07, B10, G0J, A0A)")
    return SUIT_CODES.index(m.group(1)) * 8 + RANK_CODES.index(m.group(2))


def is_cgml_card_code(code: str) -> bool:
    """True for every code CGML defines (mariáš cards, T01–T22 and J00)."""
    text = code.strip().upper()
    if _NON_MARIAS.match(text):
        return True
    try:
        parse_card(text)
    except CardError:
        return False
    return True


def format_card(card: Card) -> str:
    """The CGML code of ``card`` (``R07`` … ``A0A``)."""
    return CARD_CODES[card]


CARD_CODES: tuple[str, ...] = tuple(SUIT_CODES[c >> 3] + RANK_CODES[c & 7] for c in ALL_CARDS)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from a space/comma separated string or an iterable of codes."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in items]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(CARD_CODES[c] for c in cards)


def suit_of(card: Card) -> Suit:
    return card >> 3


def rank_of(card: Card) -> int:
    return card & 7


def card_of(suit: Suit, rank: int) -> Card:
    return suit * 8 + rank


def parse_suit(code: str) -> Suit:
    """``R``/``B``/``G``/``A`` (any case) to a suit. Raises :class:`CardError`."""
    text = code.strip().upper()
    if len(text) != 1 or text not in SUIT_CODES:
        raise CardError(f"{code!r} is not a mariáš suit (R, B, G or A)")
    return SUIT_CODES.index(text)


def format_suit(suit: Suit) -> str:
    return SUIT_CODES[suit]


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask in ascending order (by suit R B G A, then natural rank)."""
    return [
        *BYTE_CARDS[0][mask & 255],
        *BYTE_CARDS[1][mask >> 8 & 255],
        *BYTE_CARDS[2][mask >> 16 & 255],
        *BYTE_CARDS[3][mask >> 24 & 255],
    ]


def mask_codes(mask: int) -> list[str]:
    """CGML codes of the cards in ``mask``, sorted."""
    return [CARD_CODES[c] for c in cards_of(mask)]


def card_points(mask: int) -> int:
    """Card points (aces and tens) in ``mask``."""
    return 10 * (mask & TENS_ACES_MASK).bit_count()
