"""Reference Mia bots: pure decision logic over what a player may know.

A bot sees a :class:`TurnView` (the order of play, its own name and the announcements so far)
and, after rolling, its own dice. It never sees anyone else's dice. ``round_over`` lets a bot
learn from what was revealed (the probability bot tracks who bluffs).

Strategies: ``random`` (plays legal-looking moves at random), ``honest`` (never bluffs: it
announces exactly what it rolled) and ``probability`` (weighs the dice distribution and the
announcement history to decide between SEE and ROLL, and bluffs as low as it can).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from herna.games.mia.dice import ALL_DICE, MIA, Dice, probability_higher

Decision = Literal["ROLL", "SEE"]


@dataclass(frozen=True)
class TurnView:
    me: str
    players: tuple[str, ...]
    announcements: tuple[tuple[str, Dice], ...]

    @property
    def last(self) -> tuple[str, Dice] | None:
        return self.announcements[-1] if self.announcements else None

    @property
    def before_last(self) -> Dice | None:
        return self.announcements[-2][1] if len(self.announcements) > 1 else None


@dataclass(frozen=True)
class RoundSummary:
    players: tuple[str, ...]
    announcements: tuple[tuple[str, Dice], ...]
    revealed: Dice | None
    """The dice shown by ACTUAL DICE, if someone saw."""
    losers: tuple[str, ...]
    reason: str


class MiaBot(Protocol):
    strategy: str

    def decide(self, view: TurnView) -> Decision: ...

    def announce(self, view: TurnView, rolled: Dice) -> Dice: ...

    def round_over(self, summary: RoundSummary) -> None: ...


def higher_than(dice: Dice | None) -> list[Dice]:
    return [d for d in ALL_DICE if dice is None or d > dice]


class RandomBot:
    strategy = "random"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def decide(self, view: TurnView) -> Decision:
        if view.last is None:
            return "ROLL"
        return "SEE" if self.rng.random() < 0.3 else "ROLL"

    def announce(self, view: TurnView, rolled: Dice) -> Dice:
        last = view.last[1] if view.last else None
        options = higher_than(last)
        if last is None or rolled > last:
            return (
                rolled
                if self.rng.random() < 0.5
                else self.rng.choice(higher_than(rolled) or [rolled])
            )
        return self.rng.choice(options) if options else rolled

    def round_over(self, summary: RoundSummary) -> None:
        pass


class HonestBot:
    """Never bluffs: announces exactly what it rolled, even when that loses."""

    strategy = "honest"

    def decide(self, view: TurnView) -> Decision:
        if view.last is None:
            return "ROLL"
        return "SEE" if probability_higher(view.last[1]) < 0.5 else "ROLL"

    def announce(self, view: TurnView, rolled: Dice) -> Dice:
        return rolled

    def round_over(self, summary: RoundSummary) -> None:
        pass


@dataclass
class _Record:
    seen: int = 0
    caught: int = 0

    def bluff_rate(self) -> float:
        # Beta(2, 2) prior: an unknown player is taken to bluff half the time when seen.
        return (self.caught + 2) / (self.seen + 4)


BLUFF_SPREAD = 3
"""A bluffer is assumed to pick one of the next few throws above the one to beat."""


@dataclass
class ProbabilityBot:
    """Decides with the dice distribution and what it learned of each player.

    On its turn it compares the chance to lose by seeing (the previous announcement was
    true) with the chance to lose by rolling (it cannot beat the announcement and its bluff
    is seen through). The chance that an announcement is a bluff is a Bayes estimate: a
    truthful announcer threw exactly that; a bluffer could not beat the announcement before
    and picked one of the next few throws; each player's observed bluff rate scales it.
    """

    strategy = "probability"
    caught_rate: float = 0.6
    """How often a bluff of ours is assumed to be seen through."""
    records: dict[str, _Record] = field(default_factory=dict)

    def bluff_probability(self, announcer: str, announced: Dice, to_beat: Dice | None) -> float:
        if announced.is_mia:
            return 0.0  # revealed at once; never on the table to be seen
        p_truth = float(announced.probability)
        options = higher_than(to_beat)[:BLUFF_SPREAD]
        p_had_to_bluff = 1.0 - probability_higher(to_beat)
        p_bluff = p_had_to_bluff / len(options) if announced in options else 0.0
        rate = self.records.get(announcer, _Record()).bluff_rate()
        p_bluff *= rate / 0.5
        total = p_truth + p_bluff
        return p_bluff / total if total > 0 else 0.0

    def lose_if_rolling(self, announced: Dice) -> float:
        beat = probability_higher(announced)
        mia = float(MIA.probability)
        bluff_target = higher_than(announced)
        if bluff_target and bluff_target[0].is_mia:
            # Only Mia beats this: any other throw loses for sure (a false Mia is revealed).
            return 1.0 - mia
        return (1.0 - beat) * self.caught_rate + beat * 0.2

    def decide(self, view: TurnView) -> Decision:
        if view.last is None:
            return "ROLL"
        announcer, announced = view.last
        p_bluff = self.bluff_probability(announcer, announced, view.before_last)
        return "SEE" if (1.0 - p_bluff) < self.lose_if_rolling(announced) else "ROLL"

    def announce(self, view: TurnView, rolled: Dice) -> Dice:
        last = view.last[1] if view.last else None
        if last is None or rolled > last:
            return rolled
        options = higher_than(last)
        # Bluff as low as possible; claiming Mia falsely always loses, so then tell the truth.
        if not options or options[0].is_mia:
            return rolled
        return options[0]

    def round_over(self, summary: RoundSummary) -> None:
        if summary.revealed is None or len(summary.announcements) == 0:
            return
        announcer, announced = summary.announcements[-1]
        record = self.records.setdefault(announcer, _Record())
        record.seen += 1
        if announced > summary.revealed:
            record.caught += 1


STRATEGIES = ("random", "honest", "probability")
LEVELS = {"easy": "random", "medium": "honest", "hard": "probability"}
"""The house bots' levels a person chooses from, and the strategy each plays."""


def make_bot(strategy: str, rng: random.Random | None = None) -> MiaBot:
    if strategy == "random":
        return RandomBot(rng)
    if strategy == "honest":
        return HonestBot()
    if strategy == "probability":
        return ProbabilityBot()
    raise ValueError(f"unknown Mia strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")


def announcements_of(pairs: Sequence[tuple[str, str]]) -> tuple[tuple[str, Dice], ...]:
    return tuple((n, Dice.parse(d)) for n, d in pairs)
