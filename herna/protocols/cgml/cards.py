"""CGML card codes (seed 001, chapter 5): a three-character code ``bvv`` of suit and rank.

Suits: ``R`` červené (hearts), ``B`` kule (bells), ``G`` zelené (leaves), ``A`` žaludy
(acorns), ``T`` taroky (tarot trumps), ``J`` žolíky (jokers). Ranks: ``00`` joker, ``01``-``22``
numbers, ``0J`` spodek, ``0Q`` filek/svršek, ``0K`` král, ``0A`` eso.

Every code CGML knows is accepted here, including ``T01``-``T22`` and ``J00``; whether a card
belongs to a particular game (mariáš uses 32 of them) is the rules engine's business.
Codes are emitted upper-case and accepted in any case.

>>> parse_card("g0j")
Card(suit='G', rank='0J')
>>> parse_card("T18").code
'T18'
>>> parse_card("R07").is_marias
True
>>> parse_card("X07")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
herna.protocols.cgml.cards.CardCodeError: unknown suit 'X' in card code 'X07'
"""

from __future__ import annotations

from dataclasses import dataclass

SUITS: tuple[str, ...] = ("R", "B", "G", "A", "T", "J")
"""Every suit letter of table 5-1."""

PLAIN_SUITS: tuple[str, ...] = ("R", "B", "G", "A")
"""The four suits of the German-suited pack (hearts, bells, leaves, acorns)."""

FACE_RANKS: tuple[str, ...] = ("0J", "0Q", "0K", "0A")
"""spodek, filek (svršek), král, eso."""

PLAIN_RANKS: tuple[str, ...] = tuple(f"{n:02d}" for n in range(1, 11)) + FACE_RANKS
"""Ranks a plain suit may carry: numbers 01-10 and the four face cards."""

TAROK_RANKS: tuple[str, ...] = tuple(f"{n:02d}" for n in range(1, 23))
"""Taroky are numbered 01-22."""

JOKER_RANKS: tuple[str, ...] = ("00",)

MARIAS_RANKS: tuple[str, ...] = ("07", "08", "09", "10", "0J", "0Q", "0K", "0A")
"""The eight ranks of the 32-card mariáš pack, low to high in the usual listing order."""


class CardCodeError(ValueError):
    """A string that is not a CGML card code."""


@dataclass(frozen=True, slots=True)
class Card:
    """One CGML card; ``suit`` is one of :data:`SUITS`, ``rank`` a two-character code."""

    suit: str
    rank: str

    def __post_init__(self) -> None:
        allowed = _RANKS_BY_SUIT.get(self.suit)
        if allowed is None:
            raise CardCodeError(
                f"unknown suit {self.suit!r} in card code {self.suit + self.rank!r}"
            )
        if self.rank not in allowed:
            raise CardCodeError(
                f"rank {self.rank!r} is not valid for suit {self.suit!r} "
                f"in card code {self.suit + self.rank!r}"
            )

    @property
    def code(self) -> str:
        return self.suit + self.rank

    @property
    def is_marias(self) -> bool:
        """Whether this card is one of the 32 cards of the mariáš pack."""
        return self.suit in PLAIN_SUITS and self.rank in MARIAS_RANKS

    def __str__(self) -> str:
        return self.code


_RANKS_BY_SUIT: dict[str, tuple[str, ...]] = {
    "R": PLAIN_RANKS,
    "B": PLAIN_RANKS,
    "G": PLAIN_RANKS,
    "A": PLAIN_RANKS,
    "T": TAROK_RANKS,
    "J": JOKER_RANKS,
}


def parse_card(text: str) -> Card:
    """The card of a code such as ``"A0A"``; surrounding blanks and case are ignored."""
    code = text.strip().upper()
    if len(code) != 3:
        raise CardCodeError(f"card code {text!r} must have three characters (suit and rank)")
    suit, rank = code[0], code[1:]
    if suit not in _RANKS_BY_SUIT:
        raise CardCodeError(f"unknown suit {suit!r} in card code {code!r}")
    return Card(suit, rank)


def all_cards() -> list[Card]:
    """Every valid CGML card code, in suit order of table 5-1."""
    return [Card(suit, rank) for suit in SUITS for rank in _RANKS_BY_SUIT[suit]]


def marias_pack() -> list[Card]:
    """The 32 cards of the mariáš pack."""
    return [Card(suit, rank) for suit in PLAIN_SUITS for rank in MARIAS_RANKS]


SUIT_NAMES: dict[str, str] = {
    "R": "hearts (červené)",
    "B": "bells (kule)",
    "G": "leaves (zelené)",
    "A": "acorns (žaludy)",
    "T": "tarot trumps (taroky)",
    "J": "jokers (žolíky)",
}
