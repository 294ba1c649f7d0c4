"""Seeded randomness. Every chance event in Herna comes from a :class:`SeededRng`.

``SeededRng(seed)`` is a thin, explicit wrapper over :class:`random.Random` so that a match's
seed, stored with its record, reproduces every deal and die roll.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from functools import cache
from itertools import accumulate
from typing import TypeVar

T = TypeVar("T")


def new_seed() -> int:
    """A fresh 63-bit seed for a new match (stored in its record)."""
    return secrets.randbits(63)


class SeedSource:
    """Where a server draws each match's seed from.

    The seeds of finished matches are published (replays, the JSON API), so they must not
    predict the next ones: by default every seed comes straight from :mod:`secrets`. With a
    fixed ``seed`` (``--mia-seed`` and the like, for tests and reproducible runs) the
    sequence of seeds is derived from it instead, and the same run deals the same games.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random = None if seed is None else random.Random(seed)

    def next_seed(self) -> int:
        if self._random is None:
            return new_seed()
        return self._random.getrandbits(63)

    def next_rng(self) -> SeededRng:
        """A :class:`SeededRng` for one match, seeded by :meth:`next_seed`."""
        return SeededRng(self.next_seed())


@cache
def _uniform_weights(n: int) -> list[float]:
    """The cumulative weights ``random.choices`` makes of ``n`` weights of ``1.0 / n`` (read
    only: shared by every draw from ``n`` outcomes)."""
    p = 1.0 / n
    return list(accumulate([p] * n))


class SeededRng:
    """Deterministic RNG for chance events; same seed, same sequence of draws."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in ``[low, high]``."""
        return self._random.randint(low, high)

    def choice(self, items: Sequence[T]) -> T:
        return items[self._random.randrange(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self._random.shuffle(out)
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self._random.sample(list(items), k)

    def random(self) -> float:
        return self._random.random()

    def weighted(self, outcomes: Sequence[tuple[T, float]]) -> T:
        """Draw from ``(outcome, probability)`` pairs as given by ``chance_outcomes()``."""
        if len(outcomes) == 1:
            return outcomes[0][0]
        items = [o for o, _ in outcomes]
        weights = [p for _, p in outcomes]
        return self._random.choices(items, weights=weights, k=1)[0]

    def uniform(self, items: Sequence[T]) -> T:
        """The draw :meth:`weighted` makes from ``items`` each at probability
        ``1.0 / len(items)`` (what ``chance_outcomes()`` gives for equally likely outcomes),
        the same item from the same state: every new game's deal is drawn this way, without
        building the pairs and their weights each time."""
        if len(items) == 1:
            return items[0]
        return self._random.choices(items, cum_weights=_uniform_weights(len(items)), k=1)[0]

    def spawn(self) -> SeededRng:
        """A child RNG with a seed drawn from this one (e.g. one per round)."""
        return SeededRng(self._random.getrandbits(63))
