"""The tile games' goal bot (``goal``, and level ``easy`` with a short look and some noise).

It rebuilds a state from its view (:meth:`TilesState.from_view`), tries every action of its
turn (a push or an add and then the best move after it, averaging over die rolls) and scores
the result: goals done, distance to the current goal's target (breadth-first search over
connected tiles), items and score for collecting games, staying in the game, and opponents
eliminated. Its scores are also the search bot's (:mod:`.search`) evaluation and policy.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.tiles.actions import Move, TilesCodec
from herna.games.tiles.engine import TilesState, items_count
from herna.games.tiles.rules import Rules

log = logging.getLogger(__name__)

WIN = 1e6


def deciding_seat(view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]) -> int | None:
    """The seat whose view this is, when it has a choice to make (``None``: play
    ``actions[0]``, the only one, or the view is not a player's)."""
    seat = view.get("you")
    return seat if isinstance(seat, int) and len(actions) > 1 else None


class GoalBot:
    """Greedy goal-seeker with a one-turn look-ahead."""

    strategy = "goal"

    def __init__(
        self, rules: Rules, seed: int = 0, max_branch: int = 120, budget: int = 600
    ) -> None:
        self.rules = rules
        self.codec = TilesCodec(rules.n)
        self.rng = SeededRng(seed)
        self.max_branch = max_branch
        self.budget = budget
        """Most positions looked at per decision (bounds a bot's time on big turns)."""
        self._left = budget
        self._cache_key: tuple[int, frozenset[int]] | None = None
        self._cache_state: TilesState | None = None
        self._cache: dict[int, int] = {}

    def choose(
        self, view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]
    ) -> Mapping[str, Any]:
        seat = deciding_seat(view, actions)
        if seat is None:
            return actions[0]
        try:
            state = TilesState.from_view(self.rules, view, seat)
            self._left = self.budget
            order = self.rng.shuffled(range(len(actions)))  # the budget favours no action
            scored = [
                (self._value_of(state, seat, self.codec.decode(actions[i])), i) for i in order
            ]
        except Exception:  # a bot must never take its seat down with it
            log.exception("goal bot could not evaluate; playing at random")
            return self.rng.choice(actions)
        best = max(v for v, _ in scored)
        return actions[self.rng.choice([i for v, i in scored if v >= best - 1e-9])]

    # -- search ------------------------------------------------------------------------------
    def _apply(self, state: TilesState, action: Any) -> TilesState:
        self._left -= 1
        return state.apply(action)

    def _value_of(self, state: TilesState, seat: int, action: Any) -> float:
        try:
            after = self._apply(state, action)
        except Exception:
            return -WIN * 2
        return self._after(after, seat, 2)

    def _after(self, state: TilesState, seat: int, depth: int) -> float:
        if state.is_terminal() or depth == 0 or self._left <= 0:
            return self.evaluate(state, seat)
        current = state.current_player()
        if current == CHANCE:
            outcomes = state.chance_outcomes()
            if len(outcomes) > 8:
                return self.evaluate(state, seat)
            return sum(p * self._after(self._apply(state, a), seat, depth) for a, p in outcomes)
        if current != seat:
            return self.evaluate(state, seat)
        options = list(state.legal_actions())
        if len(options) > self.max_branch:
            options = self.rng.sample(options, self.max_branch)
        if options and all(isinstance(o, Move) for o in options):
            return max(self._move_value(state, seat, o) for o in options if isinstance(o, Move))
        return max(
            (self._after(self._apply(state, o), seat, depth - 1) for o in options),
            default=self.evaluate(state, seat),
        )

    def _move_value(self, state: TilesState, seat: int, move: Move) -> float:
        """Value of ending a move at ``move``; cheap unless the tile does something."""
        cell = move.y * self.rules.width + move.x
        tid = state.board[cell]
        if tid >= 0 and not state.tiles[tid].face_down:
            tile = state.tiles[tid]
            busy = bool(
                (tile.items and self.rules.max_player_items != 0)
                or state.s.kinds[tile.kind].effects
            )
        else:
            busy = False
        if busy and self._left > 0:
            return self.evaluate(self._apply(state, move), seat)
        return self.evaluate(state, seat, at_cell=cell)

    # -- evaluation --------------------------------------------------------------------------
    def evaluate(self, state: TilesState, seat: int, at_cell: int | None = None) -> float:
        rules = self.rules
        if state.result is not None:
            if state.result.winners == (seat,):
                return WIN
            if seat in state.result.winners:
                # A shared win or a draw: worth its share, and less than a win of one's own,
                # but more than any position (so a bot ends a game it can only tie).
                return WIN * state.result.returns[seat] / 2
            scores = state.result.details.get("scores")
            if scores and scores[seat] is not None:
                # Lost on points: a good sport, the bot still counts its points rather than
                # hold on to the last item for ever to keep the game from ending.
                return 200.0 * float(scores[seat]) - 100.0
            return -WIN
        p = state.players[seat]
        if p.eliminated:
            return -WIN
        cell = p.cell if at_cell is None else at_cell
        value = 1000.0 * p.done
        value += 60.0 * sum(1 for i, q in enumerate(state.players) if i != seat and q.eliminated)
        if p.done < len(p.goals):
            goal = p.goals[p.done]
            if goal.kind == "collect":
                value += 100.0 * min(items_count(p.items, goal.name), goal.count)
            value -= self._distance(state, cell, self._goal_targets(state, seat))
        elif rules.players[seat].scoring:
            scores = state.scores()
            value += 200.0 * (scores[seat] or 0)
            names = {line.name for line in rules.players[seat].scoring}
            held = sum(items_count(p.items, name) for name in names)
            value += 40.0 * held
            full = (
                rules.max_player_items > 0 and sum(c for _, c in p.items) >= rules.max_player_items
            )
            w = rules.width
            banks = {
                line.cell[1] * w + line.cell[0]
                for line in rules.players[seat].scoring
                if line.cell is not None
            }
            loose = {
                c
                for c, tid in enumerate(state.board)
                if tid >= 0
                and not state.tiles[tid].face_down
                and any(items_count(state.tiles[tid].items, n) for n in names)
            }
            targets = banks if (full or (held and not loose)) else loose
            if targets:
                value -= 3.0 * self._distance(state, cell, targets)
        return value

    def _goal_targets(self, state: TilesState, seat: int) -> set[int]:
        p = state.players[seat]
        goal = p.goals[p.done]
        w = self.rules.width
        if goal.kind == "reach":
            return {goal.y * w + goal.x}
        if goal.kind in ("find", "collect"):
            return {
                c
                for c, tid in enumerate(state.board)
                if tid >= 0
                and not state.tiles[tid].face_down
                and items_count(state.tiles[tid].items, goal.name) > 0
            }
        return set()

    def _distance(self, state: TilesState, start: int, targets: set[int]) -> float:
        """Steps from ``start`` to the nearest target over connected tiles; a far-away guess
        (a penalty plus the Manhattan distance) when no connection exists yet."""
        if not targets or start in targets:
            return 0.0
        key = (id(state), frozenset(targets))
        if self._cache_key != key:
            self._cache_key = key
            self._cache_state = state  # keeps id(state) unique while cached
            self._cache = self._distances_from(state, targets)
        d = self._cache.get(start)
        if d is not None:
            return float(d)
        w = self.rules.width
        sx, sy = start % w, start // w
        return 20.0 + 2.0 * min(abs(t % w - sx) + abs(t // w - sy) for t in targets)

    @staticmethod
    def _distances_from(state: TilesState, targets: set[int]) -> dict[int, int]:
        """Breadth-first search from every target at once (paths join both ways)."""
        geo = state.s.geo
        dist = dict.fromkeys(targets, 0)
        queue = deque(targets)
        while queue:
            cell = queue.popleft()
            d = dist[cell]
            for q in state._all_path_points(cell):
                nb, q2 = geo.across[cell][q]
                if nb < 0 or nb in dist or state._path_at(nb, q2) is None:
                    continue
                dist[nb] = d + 1
                queue.append(nb)
        return dist


class NoisyGoalBot:
    """The goal bot with a short look (``budget`` positions), and one action in
    ``1 / noise`` at random: a sensible but beatable opponent (level ``easy``)."""

    strategy = "easy"

    def __init__(self, rules: Rules, seed: int = 0, noise: float = 0.25, budget: int = 150):
        self.goal = GoalBot(rules, seed, budget=budget)
        self.rng = SeededRng(seed + 1)
        self.noise = noise

    def choose(
        self, view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]
    ) -> Mapping[str, Any]:
        if self.rng.random() < self.noise:
            return self.rng.choice(actions)
        return self.goal.choose(view, actions)
