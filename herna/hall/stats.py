"""Statistics of engine matches (``herna match``), as chess-engine testers compute them.

Games are played in *pairs*: the same deal or opening twice, with the two programs in swapped
seats. What luck the opening gives one side, the other side gets too, so the two games of a
pair are correlated and the pair, not the game, is the independent trial. Following fishtest
(the Stockfish testing framework, ``server/fishtest/stats/stat_util.py``) and Michel Van den
Bergh's note "A practical introduction to the GSPRT" (2016):

* A pair gives A 0, ½, 1, 1½ or 2 points: the five counts are the *pentanomial* ``[LL, LD,
  LW+DD, DW, WW]``. With ``x_i = i/4`` (the pair's points per game) and ``p_i`` the observed
  frequencies, the score per game is ``s = Σ p_i x_i`` and the variance of one pair's score
  per game is ``σ² = Σ p_i (x_i − s)²``.
* The 95 % interval of the score is ``s ± 1.96 σ / √N`` (N pairs). Elo-style estimate:
  ``elo(s) = −400 log10(1/s − 1)``, its interval the same function of the score's bounds
  (the "logistic Elo" fishtest prints).
* SPRT of H0: elo = elo0 against H1: elo = elo1 with the generalised SPRT and its normal
  approximation: with ``s0 = L(elo0)``, ``s1 = L(elo1)`` (``L(e) = 1/(1 + 10^(−e/400))``)
  ``LLR ≈ N (s1 − s0)(2s − s0 − s1) / (2σ²)``. Stop for H1 when ``LLR ≥ log((1−β)/α)``, for
  H0 when ``LLR ≤ log(β/(1−α))``; with α = β = 0.05 the bounds are ±2.944. Empty counts
  are replaced by 10⁻³ first, as fishtest does, so that a clean sweep (σ² = 0) gives a
  finite, large LLR instead of a division by zero.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

Z95 = 1.959963984540054
"""The 97.5 % quantile of the standard normal distribution (two-sided 95 % intervals)."""

REGULARIZE = 1e-3
"""What an empty pentanomial count is replaced by before the LLR (fishtest's epsilon)."""


def logistic(elo: float) -> float:
    """Expected score per game of a side ``elo`` points stronger."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_of(score: float) -> float:
    """The Elo difference of an expected score per game (±inf at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """(lower, upper) LLR bounds of Wald's SPRT."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


@dataclass(frozen=True)
class Estimate:
    """Score per game, Elo and their 95 % intervals from pair counts."""

    pairs: int
    score: float
    margin: float
    """Half the width of the score's 95 % interval (before clipping to [0, 1])."""
    score_low: float
    score_high: float
    elo: float
    elo_low: float
    elo_high: float

    @property
    def difference(self) -> float:
        """Points per game A scores more than B (``2s − 1``, between −1 and 1)."""
        return 2.0 * self.score - 1.0

    @property
    def difference_margin(self) -> float:
        """Half the width of the 95 % interval of :attr:`difference`."""
        return 2.0 * self.margin


def _moments(counts: Sequence[float]) -> tuple[float, float, float]:
    """(N, mean score per game, variance of a pair's score per game)."""
    n = float(sum(counts))
    if n <= 0:
        return 0.0, 0.5, 0.0
    xs = [i / 4.0 for i in range(len(counts))]
    mean = sum(c * x for c, x in zip(counts, xs, strict=True)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, xs, strict=True)) / n
    return n, mean, var


@dataclass
class Pentanomial:
    """Pair results from A's side: ``counts[i]`` pairs in which A scored ``i/2`` points."""

    counts: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])

    def add(self, points: float) -> None:
        """One pair in which A scored ``points`` (0, 0.5, 1, 1.5 or 2)."""
        index = round(points * 2)
        if not 0 <= index <= 4 or abs(index / 2 - points) > 1e-9:
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {points}")
        self.counts[index] += 1

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def estimate(self) -> Estimate:
        n, score, var = _moments(self.counts)
        margin = Z95 * math.sqrt(var / n) if n else 0.5
        low, high = max(score - margin, 0.0), min(score + margin, 1.0)
        return Estimate(int(n), score, margin, low, high, elo_of(score), elo_of(low), elo_of(high))

    def llr(self, elo0: float, elo1: float) -> float:
        """Log-likelihood ratio of H1 (elo1) against H0 (elo0), GSPRT normal approximation."""
        if self.pairs == 0:
            return 0.0
        n, score, var = _moments([max(float(c), REGULARIZE) for c in self.counts])
        s0, s1 = logistic(elo0), logistic(elo1)
        return n * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * var)


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean of ``values`` and half the width of its 95 % interval (normal approximation);
    used for money per duplicate deal, where the pair's total is the trial."""
    n = len(values)
    if n == 0:
        return 0.0, math.inf
    mean = sum(values) / n
    if n == 1:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)
