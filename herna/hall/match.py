"""One authority per match (after boardgame.io's master): it checks who may act, asks the
rules engine whether the action is legal, applies it, resolves chance from the match's seeded
RNG, keeps the replayable log, publishes spectator events and finally yields a record.

Servers own a :class:`Match` per table and translate wire messages into :meth:`Match.act`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from herna.core.errors import IllegalAction
from herna.core.game import CHANCE, GameState, PlayerId
from herna.core.rng import SeededRng
from herna.hall.events import EventBus
from herna.hall.records import MatchRecord, PlayerResult, utcnow

A = TypeVar("A")


class ActionCodec(Protocol[A]):
    """Turns a game's actions into JSON-ready values for logs and back for replays."""

    def encode(self, action: A) -> Any: ...

    def decode(self, data: Any) -> A: ...


@dataclass
class Seat:
    name: str
    kind: str = "unknown"  # "bot", "human", "house-bot"


@dataclass
class Match(Generic[A]):
    """The authority of one game at one table."""

    game: str
    table_id: str
    state: GameState[A]
    seats: list[Seat]
    seed: int
    codec: ActionCodec[A]
    bus: EventBus | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    log: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    started_at: Any = field(default_factory=utcnow)
    on_action: Callable[[PlayerId, A], None] | None = None

    def __post_init__(self) -> None:
        self.rng = SeededRng(self.seed)
        self.resolve_chance()

    # -- acting -----------------------------------------------------------------------------
    def act(self, seat: PlayerId, action: A) -> Sequence[tuple[PlayerId, A]]:
        """Apply ``action`` for ``seat`` and any chance steps that follow.

        Returns every (player, action) applied, the seat's own first. Raises
        :class:`IllegalAction` (and changes nothing) when it is not ``seat``'s turn or the
        rules forbid the action.
        """
        state = self.state
        if state.current_player() != seat:  # TERMINAL and CHANCE are never a seat
            if state.is_terminal():
                raise IllegalAction("the game is over", "GAME_OVER")
            raise IllegalAction("it is not your turn", "NOT_YOUR_TURN")
        self.state = state = state.apply(action)
        applied: list[tuple[PlayerId, A]] = [(seat, action)]
        self._logged(seat, action)
        if state.current_player() == CHANCE:
            applied.extend(self.resolve_chance())
        return applied

    def resolve_chance(self) -> list[tuple[PlayerId, A]]:
        """Draw and apply chance actions until a player (or the end) is to move."""
        applied: list[tuple[PlayerId, A]] = []
        state = self.state
        while not state.is_terminal() and state.current_player() == CHANCE:
            # An engine whose chance outcomes are equally likely may list just them
            # (``uniform_chance``, see :mod:`herna.core.game`): the same draw from the seed,
            # without the pairs of outcome and weight (Onitama deals every game this way).
            uniform = getattr(state, "uniform_chance", None)
            outcomes = uniform() if uniform is not None else None
            if outcomes is not None:
                action = self.rng.uniform(outcomes)
            else:
                action = self.rng.weighted(state.chance_outcomes())
            self.state = state = state.apply(action)
            applied.append((CHANCE, action))
            self._logged(CHANCE, action)
        return applied

    def note(self, kind: str, **data: Any) -> None:
        """Log a server event that is not a game action (timeout, disconnect, chat)."""
        self.log.append((kind, data))

    def _logged(self, seat: PlayerId, action: A) -> None:
        self.log.append(("action", {"player": seat, "action": self.codec.encode(action)}))
        if self.on_action is not None:
            self.on_action(seat, action)

    # -- finishing --------------------------------------------------------------------------
    def record(self, status: str = "finished", extra: dict[str, Any] | None = None) -> MatchRecord:
        """The record of this match; scores are the engine's returns when it is terminal."""
        outcome = self.state.outcome() if self.state.is_terminal() else None
        returns = outcome.returns if outcome else tuple(0.0 for _ in self.seats)
        winners = set(outcome.winners) if outcome else set()
        result: dict[str, Any] = outcome.to_json() if outcome else {"reason": status}
        if extra:
            result.update(extra)
        return MatchRecord(
            game=self.game,
            table_id=self.table_id,
            players=[
                PlayerResult(i, s.name, float(returns[i]), i in winners, s.kind)
                for i, s in enumerate(self.seats)
            ],
            result=result,
            events=list(self.log),
            seed=self.seed,
            status=status,
            started_at=self.started_at,
            finished_at=utcnow(),
            meta=dict(self.meta),
            rated=status == "finished",
        )


def replay(
    initial: GameState[A], log: Sequence[tuple[str, dict[str, Any]]], codec: ActionCodec[A]
) -> list[GameState[A]]:
    """Every state of a recorded game, from ``initial`` through each logged action."""
    states = [initial]
    state = initial
    for kind, data in log:
        if kind != "action":
            continue
        state = state.apply(codec.decode(data["action"]))
        states.append(state)
    return states
