"""Bots for licitovaný mariáš. Every bot only ever sees a seat's view.

``choose(view, legal_actions, rng) -> action`` where ``view`` is ``state.view(seat)`` (the
JSON-ready information state), ``legal_actions`` is ``state.legal_actions()`` and ``rng`` any
``random.Random``-like object (``random()`` and ``randrange(n)``).
"""

from __future__ import annotations

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

STRATEGY_CHOICES = (*BOTS, *ALIASES)
"""Everything a ``--strategy`` option accepts."""


def canonical(name: str) -> str:
    """``rule`` -> ``heuristic``; a current name is returned as it is."""
    return ALIASES.get(name, name)


def make_bot(name: str, **options: object) -> Bot:
    """A bot by name (or old alias); options go to its constructor."""
    name = canonical(name)
    if name == "random":
        return RandomBot()
    if name == "heuristic":
        return RuleBot()
    if name == "sampling-search":
        return SearchBot(**options)  # type: ignore[arg-type]
    raise ValueError(f"unknown mariáš bot {name!r} (known: {', '.join(BOTS)})")


__all__ = [
    "ALIASES",
    "BOTS",
    "STRATEGY_CHOICES",
    "Bot",
    "BotRng",
    "RandomBot",
    "RuleBot",
    "SearchBot",
    "canonical",
    "make_bot",
]
