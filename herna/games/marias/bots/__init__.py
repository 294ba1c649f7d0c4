"""Bots for licitovaný mariáš. Every bot only ever sees a seat's view.

``choose(view, legal_actions, rng) -> action`` where ``view`` is ``state.view(seat)`` (the
JSON-ready information state), ``legal_actions`` is ``state.legal_actions()`` and ``rng`` any
``random.Random``-like object (``random()`` and ``randrange(n)``).
"""

from __future__ import annotations

import time

from herna.games.marias.bots.base import Bot, BotRng
from herna.games.marias.bots.random_bot import RandomBot
from herna.games.marias.bots.rule_bot import RuleBot
from herna.games.marias.bots.search_bot import SearchBot

BOTS = ("random", "heuristic", "sampling-search")
"""The strategies by the names that say what they are: ``random`` (any legal action),
``heuristic`` (hand-written rules of thumb for bidding and card play) and
``sampling-search`` (deals the unseen cards into sample worlds and searches each)."""

ALIASES = {"rule": "heuristic", "search": "sampling-search"}
"""Earlier names, still accepted on command lines and in config files."""

LEVEL_NAMES = ("easy", "medium", "hard", "strongest")
"""The house bots' levels for people, weakest first (the same names as Onitama's)."""

LEVELS: dict[str, tuple[str, dict[str, object]]] = {
    "easy": ("heuristic", {"careful": False}),
    "medium": ("heuristic", {}),
    "hard": (
        "sampling-search",
        {"iterations": 4, "bidding_factor": 1, "confidence": 0, "bid_tries": 0},
    ),
    "strongest": ("sampling-search", {}),
}
"""Each level as (strategy, constructor options): easy is the first rule bot (it rates sto by
every marriage and betl loosely), medium the careful rule bot, hard a quick search over few
worlds that takes the best mean as it comes (and, as measured, worlds that ignore the
auction), strongest the search with the defaults picked by
measurement (docs/games/marias.md gives each level's margin against the next and its think
times)."""
assert tuple(LEVELS) == LEVEL_NAMES

DEFAULT_LEVEL = "strongest"

_SAME_AS_LEVEL = {"heuristic": "medium", "sampling-search": "strongest"}


def level_of(name: str) -> str | None:
    """The level a strategy name or alias plays at (``heuristic`` and ``rule`` -> ``medium``,
    ``sampling-search`` and ``search`` -> ``strongest``, a level -> itself), else None."""
    name = canonical(name)
    return name if name in LEVELS else _SAME_AS_LEVEL.get(name)


STRATEGY_CHOICES = (*BOTS, *ALIASES, *LEVEL_NAMES)
"""Everything a ``--strategy`` option accepts: strategies, old aliases and levels."""


def canonical(name: str) -> str:
    """``rule`` -> ``heuristic``; a current name or a level is returned as it is."""
    return ALIASES.get(name, name)


SERVED_TIME_BUDGET = 0.4
"""Seconds (wall clock) a served search bot may think per decision: the worlds it samples
stop there, so no decision runs away on a loaded machine (one world more at most)."""


def make_bot(name: str, *, served: bool = False, **options: object) -> Bot:
    """A bot by strategy, old alias or level; options go to its constructor (over the
    level's). ``served`` (a bot playing people) caps a search bot's think time at
    :data:`SERVED_TIME_BUDGET`; benchmarks leave it off so their results do not depend on
    the machine's load."""
    name = canonical(name)
    if name in LEVELS:
        strategy, preset = LEVELS[name]
        return make_bot(strategy, served=served, **{**preset, **options})
    if served and name == "sampling-search" and "time_budget" not in options:
        options = {**options, "time_budget": SERVED_TIME_BUDGET, "clock": time.monotonic}
    if name == "random":
        return RandomBot()
    if name == "heuristic":
        return RuleBot(**options)  # type: ignore[arg-type]
    if name == "sampling-search":
        return SearchBot(**options)  # type: ignore[arg-type]
    raise ValueError(f"unknown mariáš bot {name!r} (known: {', '.join(BOTS)})")


__all__ = [
    "ALIASES",
    "BOTS",
    "DEFAULT_LEVEL",
    "LEVELS",
    "LEVEL_NAMES",
    "SERVED_TIME_BUDGET",
    "STRATEGY_CHOICES",
    "Bot",
    "BotRng",
    "RandomBot",
    "RuleBot",
    "SearchBot",
    "canonical",
    "level_of",
    "make_bot",
]
