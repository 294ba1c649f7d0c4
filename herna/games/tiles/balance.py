"""A balance report for a tile-game designer: self-play of a rules file by house bots of one
level, and what a designer wants to know from it — does a seat win more than its share, how
long are games, how many end by the rules, how often is each goal reached.

Pure and deterministic: :func:`play_game` plays one game from a seed (game ``i`` of a report
uses seed ``seed + i``, so a report does not depend on how many processes played it), and
:func:`summarize` turns the games into a :class:`BalanceReport`. Running games in worker
processes is the caller's business (``herna.servers.tiles.balance``).

What is measured follows Ludii's game metrics (Browne et al., "Ludii game metrics"), named in
plain words for a designer, each with Ludii's name beside it:

* first seat's win rate — AdvantageP1;
* balance, 1 − (highest seat's win rate − lowest seat's) — Balance;
* games that ended by the rules (not at Herna's round limit) — Completion;
* games with no single winner (a shared win, a tie, or a stall) — Drawishness;
* mean length in turns — Duration;
* games with a single winner — Decisiveness.

A seat's win rate counts the games it won alone. Shared wins (ties on points, "no progress
for a full round", which the rules end with every player still in as winners) are counted
apart: they are no seat's advantage, and a binomial interval needs whole games. The *fair
share* a seat is compared with is therefore the mean win rate over the seats (the outright
wins divided among them), which is 1 / seats when every game has a single winner.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.tiles.actions import TilesCodec
from herna.games.tiles.bots import make_bot
from herna.games.tiles.engine import DEFAULT_MAX_ROUNDS, new_game
from herna.games.tiles.narrate import goal_words
from herna.games.tiles.rules import Rules, load_rules, rules_key

Ending = Literal["winner", "shared", "stalled", "limit"]
"""How a game ended: one winner by the rules; by the rules with several winners or none (a tie
on points, every player eliminated at once); a full round (five with dice) without progress;
Herna's round limit."""

ENDING_WORDS: dict[str, str] = {
    "winner": "one winner",
    "shared": "a shared win or no winner",
    "stalled": "stalled (no progress for a full round)",
    "limit": "stopped at the round limit",
}

Z95 = 1.959963984540054
"""The standard normal quantile of 0.975: a two-sided 95 % interval."""


# -- intervals -------------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for ``k`` successes in ``n`` trials (95 % by default). Unlike
    the normal approximation it stays inside [0, 1] and is not empty at 0 or n.

    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # At k = 0 or n one bound is exactly 0 or 1 in exact arithmetic; rounding would leave it
    # a hair inside, and a seat that won every game would look "below" a fair share of 100 %.
    low = 0.0 if k == 0 else min(p, centre - half)
    high = 1.0 if k == n else max(p, centre + half)
    return (max(0.0, low), min(1.0, high))


def _binom_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p), summed in logs (exact enough for n up to 10^5)."""
    if p <= 0:
        return 1.0
    if p >= 1:
        return 1.0 if k >= n else 0.0
    lp, lq = math.log(p), math.log1p(-p)
    lg = math.lgamma(n + 1)
    total = 0.0
    for i in range(k + 1):
        total += math.exp(lg - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq)
    return min(1.0, total)


def _solve(f: Any, lo: float, hi: float) -> float:
    """The root of a decreasing ``f`` on [lo, hi] by bisection (60 halvings: below 1e-15)."""
    for _ in range(60):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def clopper_pearson(k: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """The exact (Clopper–Pearson) interval for ``k`` successes in ``n`` trials: every p the
    observed count would not reject at level ``alpha`` (two-sided). Wider than Wilson's; it
    never covers less than 95 %, which matters for a handful of games.

    >>> [round(x, 4) for x in clopper_pearson(0, 10)]
    [0.0, 0.3085]
    """
    if n <= 0:
        return (0.0, 1.0)
    lower = 0.0 if k == 0 else _solve(lambda p: alpha / 2 - (1 - _binom_cdf(k - 1, n, p)), 0, 1)
    upper = 1.0 if k == n else _solve(lambda p: _binom_cdf(k, n, p) - alpha / 2, 0, 1)
    return (lower, upper)


INTERVALS = {"wilson": wilson, "exact": clopper_pearson}
"""The interval a report uses: Wilson's (the default) or the exact Clopper–Pearson one."""


# -- one game --------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSummary:
    """What a report keeps of one game."""

    winners: tuple[int, ...]
    ending: Ending
    reason: str
    turns: int
    goals: tuple[tuple[int, str, bool], ...] = ()
    """Each goal a seat had in this game (drawn ones as drawn): ``(seat, goal, reached)``."""


def ending_of(reason: str, winners: Sequence[int]) -> Ending:
    """The kind of ending from the engine's reason (engine.py ``_stalled`` words it)."""
    if reason.startswith("round limit"):
        return "limit"
    if reason.startswith("no progress"):
        return "stalled"
    return "winner" if len(winners) == 1 else "shared"


def play_game(
    rules: Rules, level: str, seed: int, max_rounds: int = DEFAULT_MAX_ROUNDS
) -> GameSummary:
    """One game of ``rules`` between house bots of ``level`` at every seat; ``seed`` draws the
    chance events and seeds the bots, so the same seed plays the same game (the search bots'
    time cap aside: on a busy machine they may look less far)."""
    n = len(rules.players)
    codec = TilesCodec(rules.n)
    chance = SeededRng(seed)
    bots = [make_bot(level, rules, seed * 31 + i) for i in range(n)]
    state = new_game(rules, max_rounds)
    while not state.is_terminal():
        current = state.current_player()
        if current == CHANCE:
            state = state.apply(chance.weighted(state.chance_outcomes()))
            continue
        actions = [codec.encode(a) for a in state.legal_actions()]
        picked = bots[current].choose(state.view(current), actions)
        state = state.apply(codec.decode(dict(picked)))
    outcome = state.outcome()
    assert outcome is not None
    goals = tuple(
        (seat, goal.text, k < p.done)
        for seat, p in enumerate(state.players)
        for k, goal in enumerate(p.goals)
    )
    return GameSummary(
        winners=tuple(outcome.winners),
        ending=ending_of(outcome.reason, outcome.winners),
        reason=outcome.reason,
        turns=int(outcome.details.get("turns", state.turn)),
        goals=goals,
    )


def play_games(
    rules: Rules, level: str, seeds: Iterable[int], max_rounds: int = DEFAULT_MAX_ROUNDS
) -> list[GameSummary]:
    return [play_game(rules, level, seed, max_rounds) for seed in seeds]


_loaded: dict[str, Rules] = {}
"""Rules already checked in this process, by :func:`rules_key` (a worker gets the same file
with every batch of a report; checking a big one again each time would cost seconds)."""


def play_batch(
    data: Any, level: str, seeds: Sequence[int], max_rounds: int = DEFAULT_MAX_ROUNDS
) -> list[GameSummary]:
    """:func:`play_games` of a rules object as parsed from JSON (what a worker process is
    sent); raises :class:`~herna.games.tiles.rules.RulesError` for rules that do not check."""
    key = rules_key(data)
    rules = _loaded.get(key)
    if rules is None:
        _loaded.clear()
        rules = _loaded[key] = load_rules(data, "balance")
    return play_games(rules, level, seeds, max_rounds)


# -- the report ------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatResult:
    seat: int
    wins: int
    """Games this seat won alone."""
    shared: int
    """Games whose win it shared."""
    rate: float
    low: float
    high: float
    unfair: str = ""
    """Empty, or ``more``/``less``: the interval lies wholly above/below the fair share."""


@dataclass(frozen=True)
class GoalResult:
    goal: str
    """As the rules write it (``reach 3 3``)."""
    words: str
    had: int
    """Times a seat had this goal (games × seats that had it)."""
    reached: int


@dataclass(frozen=True)
class Measure:
    """A headline figure with its plain name and Ludii's."""

    name: str
    ludii: str
    value: float
    text: str


@dataclass(frozen=True)
class BalanceReport:
    rules: str
    level: str
    games: int
    seats: tuple[SeatResult, ...]
    fair: float
    interval: str
    endings: dict[str, int]
    reasons: dict[str, int]
    lengths: tuple[int, ...]
    """Turns of every game, shortest first."""
    histogram: tuple[tuple[int, int, int], ...]
    """``(from, to, games)``: games of ``from`` to ``to`` turns (both included)."""
    goals: tuple[GoalResult, ...]
    measures: tuple[Measure, ...]
    warnings: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "level": self.level,
            "games": self.games,
            "interval": self.interval,
            "fair_share": self.fair,
            "seats": [s.__dict__ for s in self.seats],
            "endings": [
                {"ending": k, "words": ENDING_WORDS[k], "games": v} for k, v in self.endings.items()
            ],
            "reasons": [{"reason": r, "games": g} for r, g in self.reasons.items()],
            "length": {
                "min": self.lengths[0] if self.lengths else 0,
                "median": median(self.lengths),
                "mean": mean(self.lengths),
                "max": self.lengths[-1] if self.lengths else 0,
                "histogram": [{"from": a, "to": b, "games": g} for a, b, g in self.histogram],
            },
            "goals": [g.__dict__ for g in self.goals],
            "measures": [m.__dict__ for m in self.measures],
            "warnings": list(self.warnings),
        }


def mean(values: Sequence[int]) -> float:
    return sum(values) / len(values) if values else 0.0


def median(values: Sequence[int]) -> float:
    """The median of sorted ``values``."""
    if not values:
        return 0.0
    m = len(values) // 2
    return float(values[m]) if len(values) % 2 else (values[m - 1] + values[m]) / 2


def histogram(lengths: Sequence[int], bins: int = 12) -> tuple[tuple[int, int, int], ...]:
    """Sorted ``lengths`` in at most ``bins`` bins of one whole width (``from``, ``to``,
    count); every length falls in exactly one bin."""
    if not lengths:
        return ()
    lo, hi = lengths[0], lengths[-1]
    width = max(1, math.ceil((hi - lo + 1) / bins))
    counts = Counter((x - lo) // width for x in lengths)
    top = (hi - lo) // width
    return tuple(
        (lo + b * width, lo + b * width + width - 1, counts.get(b, 0)) for b in range(top + 1)
    )


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def summarize(
    games: Sequence[GameSummary],
    players: int,
    rules_name: str = "",
    level: str = "",
    interval: str = "wilson",
) -> BalanceReport:
    """The report over ``games`` of a ``players``-seat rules file."""
    n = len(games)
    bounds = INTERVALS[interval]
    wins = Counter(g.winners[0] for g in games if g.ending == "winner")
    shared = Counter(s for g in games if g.ending != "winner" for s in g.winners)
    decided_wins = sum(wins.values())
    fair = decided_wins / (n * players) if n and players else 0.0
    seats = []
    warnings = []
    for seat in range(players):
        k = wins.get(seat, 0)
        low, high = bounds(k, n)
        unfair = "more" if n and low > fair else "less" if n and high < fair else ""
        seats.append(
            SeatResult(seat, k, shared.get(seat, 0), k / n if n else 0.0, low, high, unfair)
        )
        if unfair:
            warnings.append(
                f"Seat {seat + 1} wins {_pct(k / n)} of the games (95 % interval "
                f"{_pct(low)} to {_pct(high)}), {unfair} than a fair share of {_pct(fair)}."
            )
    endings = {e: sum(1 for g in games if g.ending == e) for e in ENDING_WORDS}
    reasons = dict(Counter(g.reason for g in games).most_common())
    lengths = tuple(sorted(g.turns for g in games))
    had: Counter[str] = Counter()
    reached: Counter[str] = Counter()
    for g in games:
        for _, goal, done in g.goals:
            had[goal] += 1
            reached[goal] += done
    goals = tuple(GoalResult(goal, goal_words(goal), had[goal], reached[goal]) for goal in had)
    rates = [s.rate for s in seats] or [0.0]
    single = endings["winner"] / n if n else 0.0
    by_rules = 1 - endings["limit"] / n if n else 0.0
    no_single = (n - endings["winner"] - endings["limit"]) / n if n else 0.0
    spread = max(rates) - min(rates)
    measures = (
        Measure(
            "First seat's win rate",
            "AdvantageP1",
            seats[0].rate if seats else 0.0,
            f"{_pct(seats[0].rate if seats else 0.0)} (a fair share is {_pct(fair)})",
        ),
        Measure(
            "Balance between seats",
            "Balance",
            1 - spread,
            f"{_pct(1 - spread)} (100 % when every seat wins as often)",
        ),
        Measure(
            "Games that ended by the rules",
            "Completion",
            by_rules,
            f"{_pct(by_rules)} (the others stopped at the round limit)",
        ),
        Measure(
            "Games with no single winner",
            "Drawishness",
            no_single,
            f"{_pct(no_single)} (shared wins, ties and stalls)",
        ),
        Measure("Average length", "Duration", mean(lengths), f"{mean(lengths):.1f} turns"),
        Measure("Games with a single winner", "Decisiveness", single, _pct(single)),
    )
    if n and endings["limit"]:
        warnings.append(
            f"{endings['limit']} of {n} games stopped at the round limit: the rules may let a "
            "game go on for ever."
        )
    return BalanceReport(
        rules=rules_name,
        level=level,
        games=n,
        seats=tuple(seats),
        fair=fair,
        interval=interval,
        endings=endings,
        reasons=reasons,
        lengths=lengths,
        histogram=histogram(lengths),
        goals=goals,
        measures=measures,
        warnings=tuple(warnings),
    )
