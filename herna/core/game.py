"""The game vocabulary shared by all rules engines (after OpenSpiel and python-chess).

A game state is an immutable-by-convention value. ``apply`` returns the *next* state and never
mutates the receiver (engines may share structure internally). Chance events (deals, dice,
card draws) are ordinary actions taken by the :data:`CHANCE` player: the match draws them from
its seeded RNG, applies them like any other action and records them, so ``seed + action log``
replays a game exactly.

An engine whose chance outcomes are always equally likely may also offer
``uniform_chance()``: the outcomes alone, in ``chance_outcomes()``'s order, each of which has
probability ``1.0 / len(outcomes)`` there (``None`` where that does not hold). A match then
draws with :meth:`~herna.core.rng.SeededRng.uniform`, the same outcome from the same seed.

Engines may add a richer API. Mariáš adds OpenSpiel's in-place one (``apply_action``,
``clone``, ``returns``), its fast path for servers, bots and search; it is not part of this
protocol because the other engines' states are immutable values and gain nothing from it.

>>> from herna.core.game import CHANCE, TERMINAL
>>> CHANCE, TERMINAL
(-1, -2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

PlayerId = int
"""Seat index 0..n-1, or :data:`CHANCE` / :data:`TERMINAL`."""

CHANCE: PlayerId = -1
"""``current_player()`` of a state where nature moves next (deal, dice roll)."""

TERMINAL: PlayerId = -2
"""``current_player()`` of a finished game."""

ActionT = TypeVar("ActionT")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``returns`` has one number per seat (points, money, +1/-1 ...); ``winners`` lists seats;
    ``reason`` says why in words a person can read ("MIA", "master captured", "timeout").
    """

    returns: tuple[float, ...]
    winners: tuple[PlayerId, ...] = ()
    reason: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "returns": list(self.returns),
            "winners": list(self.winners),
            "reason": self.reason,
            "details": dict(self.details),
        }


@runtime_checkable
class GameState(Protocol[ActionT]):
    """What every rules engine's state offers. Engines add their own richer API on top."""

    @property
    def num_players(self) -> int: ...

    def current_player(self) -> PlayerId:
        """Seat to act, or CHANCE, or TERMINAL."""
        ...

    def legal_actions(self) -> Sequence[ActionT]:
        """Actions the current player may take (for CHANCE: every possible outcome)."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[ActionT, float]]:
        """At a CHANCE node: each outcome with its probability. Empty otherwise."""
        ...

    def apply(self, action: ActionT) -> GameState[ActionT]:
        """The state after ``action``; raises :class:`~herna.core.errors.IllegalAction`."""
        ...

    def is_terminal(self) -> bool: ...

    def outcome(self) -> Outcome | None:
        """The result once terminal, else None."""
        ...

    def view(self, player: PlayerId | None) -> Mapping[str, Any]:
        """JSON-ready information state of ``player``; ``None`` is a spectator's view."""
        ...
