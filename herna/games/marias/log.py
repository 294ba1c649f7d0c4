"""Compact game logs: the seed, the dealer, the rules' tariff and every action as text.

``play_log(log)`` rebuilds the exact state; ``deal_actions(rng)`` draws a shuffled deal as the
32 chance actions a :class:`~herna.hall.match.Match` would log.

>>> import random
>>> from herna.games.marias.state import new_game
>>> deal = deal_actions(random.Random(1))
>>> state = new_game(2)
>>> for a in deal:
...     state = state.apply(a)
>>> log = GameLog.from_state(state, seed=1)
>>> play_log(GameLog.from_json(log.to_json())).view(None) == state.view(None)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from herna.games.marias.actions import DEAL, Action, Deal, decode_action, encode_action
from herna.games.marias.cards import Card
from herna.games.marias.contracts import TARIFFS, Rules
from herna.games.marias.state import MariasState, new_game


class _Shuffler(Protocol):
    def shuffle(self, x: list[Any]) -> None: ...


def deal_actions(rng: _Shuffler) -> list[Deal]:
    """A uniformly shuffled deck as the 32 ``Deal`` actions of one deal."""
    deck = list(range(32))
    rng.shuffle(deck)
    return [DEAL[c] for c in deck]


def _tariff_name(rules: Rules) -> str:
    for name, tariff in TARIFFS.items():
        if tariff == rules.tariff:
            return name
    return "custom"


@dataclass
class GameLog:
    """Everything needed to replay one deal exactly."""

    seed: int | None
    dealer: int
    actions: list[str] = field(default_factory=list)
    tariff: str = "csm"
    max_flek: int = 16

    @classmethod
    def from_state(cls, state: MariasState, seed: int | None = None) -> GameLog:
        return cls(
            seed=seed,
            dealer=state.dealer,
            actions=[encode_action(a) for _, a in state.history()],
            tariff=_tariff_name(state.rules),
            max_flek=state.rules.max_flek,
        )

    def rules(self) -> Rules:
        if self.tariff not in TARIFFS:
            raise ValueError(f"unknown tariff {self.tariff!r} (known: {', '.join(TARIFFS)})")
        return Rules(tariff=TARIFFS[self.tariff], max_flek=self.max_flek)

    def decoded(self) -> list[Action]:
        return [decode_action(a) for a in self.actions]

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "dealer": self.dealer,
            "tariff": self.tariff,
            "max_flek": self.max_flek,
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameLog:
        return cls(
            seed=data.get("seed"),
            dealer=int(data["dealer"]),
            actions=[str(a) for a in data["actions"]],
            tariff=str(data.get("tariff", "csm")),
            max_flek=int(data.get("max_flek", 16)),
        )


def play_log(log: GameLog, upto: int | None = None) -> MariasState:
    """The state after the log's actions (the first ``upto`` of them if given)."""
    return play_actions(new_game(log.dealer, log.rules()), log.decoded()[:upto])


def play_actions(state: MariasState, actions: Sequence[Action]) -> MariasState:
    for a in actions:
        state = state.apply(a)
    return state


def deal_for(dealer: int, hands: Sequence[Sequence[Card]], talon: Sequence[Card]) -> list[Deal]:
    """The 32 ``Deal`` actions that give seat ``i`` the ten cards ``hands[i]`` and put
    ``talon`` aside (the CGML order: 5 each from the forhont, talon, 5 each)."""
    if sorted([*hands[0], *hands[1], *hands[2], *talon]) != list(range(32)):
        raise ValueError("hands and talon must hold every card exactly once (10, 10, 10, 2)")
    if any(len(h) != 10 for h in hands) or len(talon) != 2:
        raise ValueError("each hand holds 10 cards and the talon 2")
    f, m, z = (dealer + 1) % 3, (dealer + 2) % 3, dealer
    hf, hm, hz = list(hands[f]), list(hands[m]), list(hands[z])
    order = hf[:5] + hm[:5] + hz[:5] + list(talon) + hf[5:] + hm[5:] + hz[5:]
    return [DEAL[c] for c in order]
