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

BOTS = ("random", "rule", "search")


def make_bot(name: str, **options: object) -> Bot:
    """A bot by name: ``random``, ``rule`` or ``search`` (options go to its constructor)."""
    if name == "random":
        return RandomBot()
    if name == "rule":
        return RuleBot()
    if name == "search":
        return SearchBot(**options)  # type: ignore[arg-type]
    raise ValueError(f"unknown mariáš bot {name!r} (known: {', '.join(BOTS)})")


__all__ = ["BOTS", "Bot", "BotRng", "RandomBot", "RuleBot", "SearchBot", "make_bot"]
