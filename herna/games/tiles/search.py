"""The tile games' search bot: the goal bot's one-turn look-ahead, then the opponents' replies
and its own next turn.

The goal bot (:class:`~herna.games.tiles.goal.GoalBot`) scores each action of its turn by where
it stands afterwards. What it cannot see is what happens next: an opponent's push that tears
its path apart, a Tsuro tile placed in front of it, a bank it can reach now but not after the
next move. The search bot keeps the goal bot's few best actions (``width``) and plays each on:
the rest of its own turn greedily, then every opponent's turn with a quick goal-seeking policy
(die rolls and tile draws sampled), then the best turn it can play from there (the goal bot's
look-ahead once more). Each candidate is played on ``samples`` times with different draws
and replies; its value is the mean, less a few points for each turn it will sit out (a web).
Sample ``k`` of every candidate uses the same random seed, so candidates are compared under
the same luck. A win at once is taken at once.

It sees only what its player sees: the state it searches is rebuilt from its view by
:meth:`TilesState.from_view` (other players' secret goals unknown, unseen tiles guessed, the
pile's order unknown), so two states that differ only in hidden parts give it the same
choice.

Its work is bounded by ``budget`` (positions looked at per decision) and, as a safety net,
by ``seconds`` of wall-clock time (``now`` is the clock; tests pass a fake).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.tiles.actions import TilesCodec
from herna.games.tiles.engine import TilesState
from herna.games.tiles.goal import WIN, GoalBot, deciding_seat
from herna.games.tiles.rules import Rules

log = logging.getLogger(__name__)

SKIP_COST = 4.0
"""What a turn sat out costs, in the goal bot's units (one step nearer the goal is 1)."""


class SearchBot:
    """Look-ahead over its own turn, the opponents' replies and its next turn."""

    strategy = "search"

    def __init__(
        self,
        rules: Rules,
        seed: int = 0,
        *,
        width: int = 4,
        samples: int = 2,
        budget: int = 3000,
        next_budget: int = 200,
        seconds: float = 0.2,
        now: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.rules = rules
        self.codec = TilesCodec(rules.n)
        self.rng = SeededRng(seed)
        self.width = width
        self.samples = samples
        self.budget = budget
        """Most positions looked at per decision, over all candidates."""
        self.seconds = seconds
        """Wall-clock cap per decision: past it, the search begins no further step (the step
        under way is finished, so a decision may take a little longer)."""
        self.now = now
        self.next_budget = next_budget
        """Most positions for the look-ahead over its next turn (per sample)."""
        # The bot's own evaluation and greedy policy: the goal bot's, with the same seed, and
        # fewer positions for its ranking of the turn (the search's time goes further on).
        self.goal = GoalBot(rules, seed, budget=400)
        # The opponents' policy: the same scoring, fewer positions per decision.
        self.reply = GoalBot(rules, seed + 1, max_branch=40, budget=80)
        self._left = 0
        self._deadline = 0.0
        self.looked = 0
        """Positions looked at in the last decision (for tests and benchmarks)."""
        self._sampling = SeededRng(seed)
        """Chance draws and tie-breaks of the sample being played on."""

    def choose(
        self, view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]
    ) -> Mapping[str, Any]:
        seat = deciding_seat(view, actions)
        if seat is None:
            return actions[0]
        try:
            state = TilesState.from_view(self.rules, view, seat)
            self.looked = 0
            best = self._best(state, seat, actions)
            self.looked += self.budget - self._left
            return actions[best]
        except Exception:  # a bot must never take its seat down with it
            log.exception("search bot could not search; playing at random")
            return self.rng.choice(actions)

    # -- search ------------------------------------------------------------------------------
    def _best(self, state: TilesState, seat: int, actions: Sequence[Mapping[str, Any]]) -> int:
        self._deadline = self.now() + self.seconds
        self._left = self.budget
        goal = self.goal
        goal._left = goal.budget
        # The goal bot's scores rank the candidates (in a shuffled order: its own budget must
        # favour no action).
        order = self.rng.shuffled(range(len(actions)))
        first = [(goal._value_of(state, seat, self.codec.decode(actions[i])), i) for i in order]
        self.looked += goal.budget - goal._left
        first.sort(key=lambda vi: -vi[0])
        if first[0][0] >= WIN:  # a win of its own at once: nothing can beat it
            return first[0][1]
        candidates = [vi for vi in first[: self.width] if vi[0] > -WIN]
        if len(candidates) <= 1:
            return first[0][1]
        scored: list[tuple[float, float, int]] = []
        seeds = [self.rng.randint(0, 2**31) for _ in range(self.samples)]
        for value, i in candidates:
            if self._out_of_time():
                break
            after = state.apply(self.codec.decode(actions[i]))
            ahead = self._ahead(after, seat, seeds)
            scored.append((ahead, value, i))
        if len(scored) < len(candidates) and len(scored) < 2:
            return first[0][1]  # too little time to compare: the goal bot's choice
        best = max(scored)
        return best[2]

    def _out_of_time(self) -> bool:
        return self._left <= 0 or self.now() >= self._deadline

    def _ahead(self, state: TilesState, seat: int, seeds: Sequence[int]) -> float:
        """The mean, over sampled draws and replies, of the best value of its next turn.
        Sample ``k`` of every candidate draws from the same seed ``seeds[k]`` (the same die
        rolls and tiles where the candidates allow), so that candidates differ by what they
        do rather than by their luck."""
        total = 0.0
        for seed in seeds:
            self._sampling = SeededRng(seed)
            total += self._play_on(state, seat)
        return total / len(seeds)

    def _play_on(self, state: TilesState, seat: int) -> float:
        # The rest of its own turn, greedily (after a push comes the move).
        state = self._finish_turn(state, seat)
        # Turns it will sit out (a web) are turns the others play and it does not; its next
        # turn below comes later, so each is charged as a few steps further from its goal.
        penalty = SKIP_COST * state.players[seat].skip
        # The others' turns, until it is its own decision again.
        steps = 0
        while not state.is_terminal() and steps < 64:
            current = state.current_player()
            if current == seat or self._out_of_time():
                break
            state = self._step(state, current)
            steps += 1
        if state.is_terminal() or state.current_player() != seat:
            return self.goal.evaluate(state, seat) - penalty
        # Its next turn: the goal bot's one-turn look-ahead over every action.
        return self._greedy_value(state, seat) - penalty

    def _finish_turn(self, state: TilesState, seat: int) -> TilesState:
        turn = state.turn
        steps = 0
        while (
            not state.is_terminal()
            and state.turn == turn
            and state.current_player() in (seat, CHANCE)
            and steps < 16
        ):
            state = self._step(state, seat)
            steps += 1
        return state

    def _step(self, state: TilesState, seat: int) -> TilesState:
        """One action: a sampled chance event, or ``seat``'s choice by the quick policy."""
        self._left -= 1
        current = state.current_player()
        if current == CHANCE:
            return state.apply(self._sampling.weighted(state.chance_outcomes()))
        options = list(state.legal_actions())
        if len(options) == 1:
            return state.apply(options[0])
        bot = self.goal if current == seat else self.reply
        bot._left = bot.budget
        order = self._sampling.shuffled(options)
        scored = [(bot._value_of(state, current, a), k) for k, a in enumerate(order)]
        self._left -= bot.budget - bot._left
        best = max(v for v, _ in scored)
        return state.apply(order[next(k for v, k in scored if v >= best - 1e-9)])

    def _greedy_value(self, state: TilesState, seat: int) -> float:
        goal = self.goal
        goal._left = min(self.next_budget, max(self._left, 50))
        spent = goal._left
        options = list(state.legal_actions())
        if len(options) > goal.max_branch:
            options = self._sampling.sample(options, goal.max_branch)
        value = max(goal._value_of(state, seat, a) for a in options)
        self._left -= spent - goal._left
        return value
