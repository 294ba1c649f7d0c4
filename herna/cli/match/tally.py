"""What a match has counted so far, and the schedule that hands out game pairs to slots."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from herna.hall.stats import Pentanomial, mean_interval, sprt_bounds

SPRT_MIN_PAIRS = 10
"""The SPRT decides no earlier than this: its normal approximation needs some pairs (after a
single 2-0 pair the regularised LLR is already far beyond the bounds, even between equal bots,
which sweep a pair about one time in four)."""

FORFEIT_KINDS = ("crash", "stall", "time", "illegal")
"""How a bot can forfeit a game: its program exited (or dropped its connection), it sent
nothing for ``--stall`` seconds, it used up its ``--game-clock`` or it played an illegal move."""


@dataclass(frozen=True)
class GameResult:
    """One finished game, from the match's point of view."""

    winner: str | None
    """``A``, ``B`` or ``None`` for a draw."""
    forfeit: str | None = None
    """One of :data:`FORFEIT_KINDS` when the loser forfeited; ``None`` for a game played out."""
    money: float | None = None
    """A's winnings in money games (mariáš), else ``None``."""

    @property
    def points_a(self) -> float:
        return 0.5 if self.winner is None else (1.0 if self.winner == "A" else 0.0)


@dataclass
class Sprt:
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)


@dataclass
class Tally:
    planned_pairs: int
    sprt: Sprt | None = None
    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    forfeits: dict[str, Counter[str]] = field(
        default_factory=lambda: {"A": Counter(), "B": Counter()}
    )
    penta: Pentanomial = field(default_factory=Pentanomial)
    pair_money: list[float] = field(default_factory=list)
    verdict: str | None = None
    """``H1``/``H0`` once the SPRT has decided."""
    next_pair: int = 0

    def take_pair(self) -> int | None:
        """The index of the next pair to play, or ``None`` when the match is complete."""
        if self.verdict is not None or self.next_pair >= self.planned_pairs:
            return None
        index = self.next_pair
        self.next_pair += 1
        return index

    def add_game(self, result: GameResult) -> None:
        self.games += 1
        if result.winner is None:
            self.draws += 1
        else:
            self.wins[result.winner] += 1
        if result.forfeit is not None and result.winner is not None:
            loser = "B" if result.winner == "A" else "A"
            self.forfeits[loser][result.forfeit] += 1

    def add_pair(self, first: GameResult, second: GameResult) -> None:
        self.penta.add(first.points_a + second.points_a)
        if first.money is not None and second.money is not None:
            self.pair_money.append(first.money + second.money)
        if self.sprt is not None and self.verdict is None and self.penta.pairs >= SPRT_MIN_PAIRS:
            low, high = self.sprt.bounds
            llr = self.llr()
            if llr >= high:
                self.verdict = "H1"
            elif llr <= low:
                self.verdict = "H0"

    def llr(self) -> float:
        return 0.0 if self.sprt is None else self.penta.llr(self.sprt.elo0, self.sprt.elo1)

    @property
    def done(self) -> bool:
        return self.verdict is not None or self.penta.pairs >= self.planned_pairs

    # -- text ------------------------------------------------------------------------------
    def progress(self) -> str:
        est = self.penta.estimate()
        parts = [
            f"pairs {self.penta.pairs}/{self.planned_pairs}",
            f"games {self.games}",
            f"A {self.wins['A']}-{self.draws}-{self.wins['B']} B",
        ]
        if self.penta.pairs:
            parts.append(
                f"Elo {fmt_elo(est.elo)} [{fmt_elo(est.elo_low)}, {fmt_elo(est.elo_high)}]"
            )
        lost = self.forfeit_text()
        if lost:
            parts.append(f"forfeits {lost}")
        if self.sprt is not None:
            low, high = self.sprt.bounds
            parts.append(f"LLR {self.llr():+.2f} ({low:+.2f}, {high:+.2f})")
        return " · ".join(parts)

    def forfeit_text(self) -> str:
        out = []
        for label in ("A", "B"):
            kinds = self.forfeits[label]
            if sum(kinds.values()):
                out.append(label + " " + " ".join(f"{k} {kinds[k]}" for k in FORFEIT_KINDS))
        return "; ".join(out)

    def summary(self) -> dict[str, Any]:
        """Everything the final report shows, JSON-ready (``--json``)."""
        est = self.penta.estimate()
        out: dict[str, Any] = {
            "games": self.games,
            "pairs": self.penta.pairs,
            "wins_a": self.wins["A"],
            "draws": self.draws,
            "wins_b": self.wins["B"],
            "forfeits": {
                k: {kind: v[kind] for kind in FORFEIT_KINDS} for k, v in self.forfeits.items()
            },
            "pentanomial": list(self.penta.counts),
            "score": est.score,
            "score_interval": [est.score_low, est.score_high],
            "difference": est.difference,
            "difference_margin": est.difference_margin,
            "elo": _finite(est.elo),
            "elo_interval": [_finite(est.elo_low), _finite(est.elo_high)],
        }
        if self.pair_money:
            mean, margin = mean_interval(self.pair_money)
            out["money_per_pair"] = mean
            out["money_margin"] = _finite(margin)
        if self.sprt is not None:
            out["sprt"] = {
                "elo0": self.sprt.elo0,
                "elo1": self.sprt.elo1,
                "llr": self.llr(),
                "bounds": list(self.sprt.bounds),
                "verdict": self.verdict,
            }
        return out


def _finite(x: float) -> float | str:
    return x if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def fmt_elo(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"
