"""Mia dice: the 21 distinct throws of two dice and their order.

A throw is written higher die first (``"3,1"``) and read in either order. From lowest to
highest: 3,1 3,2 4,1 … 6,5 (ordinary throws, as a two-digit number), then the doubles 1,1 …
6,6, then Mia (2,1), the highest.

>>> Dice.parse("1,3")
Dice(high=3, low=1)
>>> str(Dice.parse("1,2")), Dice.parse("1,2").is_mia
('2,1', True)
>>> Dice.parse("6,6") > Dice.parse("6,5") and Dice.parse("2,1") > Dice.parse("6,6")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import total_ordering


class InvalidDice(ValueError):
    """Text that is not two dice ``a,b`` with faces 1-6."""


def _rank(high: int, low: int) -> int:
    if (high, low) == (2, 1):
        return 300
    if high == low:
        return 200 + high
    return high * 10 + low


@total_ordering
@dataclass(frozen=True, slots=True)
class Dice:
    high: int
    low: int

    def __post_init__(self) -> None:
        if not (1 <= self.low <= self.high <= 6):
            raise InvalidDice(f"not a throw of two dice: {self.high},{self.low}")

    @classmethod
    def of(cls, a: int, b: int) -> Dice:
        """The throw of two dice in any order."""
        return cls(max(a, b), min(a, b))

    @classmethod
    def parse(cls, text: str) -> Dice:
        """``"3,1"`` or ``"1,3"``; raises :class:`InvalidDice` for anything else."""
        parts = text.split(",")
        if len(parts) != 2 or not all(len(p) == 1 and p in "123456" for p in parts):
            raise InvalidDice(f"not a throw of two dice: {text!r}")
        return cls.of(int(parts[0]), int(parts[1]))

    @property
    def rank(self) -> int:
        return _RANKS[(self.high, self.low)]

    @property
    def is_mia(self) -> bool:
        return self.high == 2 and self.low == 1

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    @property
    def probability(self) -> Fraction:
        """Chance of throwing this: 1/36 for doubles, 2/36 otherwise."""
        return Fraction(1 if self.is_double else 2, 36)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Dice):
            return NotImplemented
        return self.rank < other.rank

    def __str__(self) -> str:
        return f"{self.high},{self.low}"


_RANKS = {(h, lo): _rank(h, lo) for h in range(1, 7) for lo in range(1, h + 1)}

ALL_DICE: tuple[Dice, ...] = tuple(sorted(Dice(h, lo) for (h, lo) in _RANKS))
"""The 21 throws, lowest (3,1) first, Mia last."""

MIA = Dice(2, 1)


def probability_higher(than: Dice | None) -> float:
    """Chance that a fresh throw beats ``than`` (1.0 when there is nothing to beat)."""
    if than is None:
        return 1.0
    return float(sum((d.probability for d in ALL_DICE if d > than), Fraction(0)))
