"""What happens when a player arrives, and how a game ends: items picked up, the tile's effects
(sent away, back to the start, missed turns, items stored or lost, elimination), goals met in
order, the end-of-game conditions, scores and the final :class:`~herna.core.game.Outcome`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from herna.core.game import Outcome
from herna.games.tiles.geometry import point_name
from herna.games.tiles.pieces import (
    Items,
    Player,
    items_add,
    items_count,
    items_merge,
    items_minus,
    items_total,
)
from herna.games.tiles.rules import Effect, Goal
from herna.games.tiles.state_base import StateBase


class EffectsAndGoals(StateBase):
    """Arrival, effects, goals and the end (mix-in of
    :class:`~herna.games.tiles.engine.TilesState`)."""

    __slots__ = ()

    # -- arriving on a tile ------------------------------------------------------------------
    def _arrive(self, seat: int) -> None:
        """End of a real movement: pick up items, then run the tile's effects in order."""
        rules = self.rules
        p = self.players[seat]
        tid = self.board[p.cell]
        if tid < 0 or self.tiles[tid].face_down:
            return
        tile = self.tiles[tid]
        if rules.max_player_items != 0 and tile.items:
            room = (
                rules.max_player_items - items_total(p.items)
                if rules.max_player_items > 0
                else 10**9
            )
            taken: Items = ()
            for name, count in tile.items:
                take = count if rules.items_picked_up < 0 else min(count, rules.items_picked_up)
                take = min(take, room)
                if take > 0:
                    taken = items_add(taken, name, take)
                    room -= take
            if taken:
                self.tiles[tid] = replace(tile, items=items_minus(tile.items, taken))
                p = replace(p, items=items_merge(p.items, taken))
                self.players[seat] = p
                self.found = (*self.found, *((seat, name) for name, _ in taken))
                self._note(seat, "picks up " + ", ".join(f"{c} {n}" for n, c in taken))
        for effect in self.s.kinds[tile.kind].effects:
            self._effect(seat, tid, effect)
            if self.players[seat].eliminated:
                break

    def _effect(self, seat: int, tid: int, effect: Effect) -> None:
        p = self.players[seat]
        w = self.rules.width
        if effect.kind == "move":
            self.players[seat] = replace(
                p, cell=effect.y * w + effect.x, point=effect.point, heading="in"
            )
            self._note(
                seat,
                f"is sent to ({effect.x}, {effect.y}) {point_name(effect.point, self.rules.n)}",
            )
        elif effect.kind == "return":
            spec = self.rules.players[seat]
            self.players[seat] = replace(
                p, cell=spec.start[1] * w + spec.start[0], point=spec.start_point, heading="in"
            )
            self._note(seat, "returns to the start")
        elif effect.kind == "skip":
            self.players[seat] = replace(p, skip=p.skip + effect.count)
            self._note(seat, f"will miss {effect.count} turn(s)")
        elif effect.kind == "collect":
            if p.items:
                tile = self.tiles[tid]
                self.tiles[tid] = replace(tile, store=items_merge(tile.store, p.items))
                self.players[seat] = replace(p, items=())
                self._note(seat, "stores " + ", ".join(f"{c} {n}" for n, c in p.items))
        elif effect.kind == "send":
            target = self.board[effect.y * w + effect.x]
            if p.items and target >= 0:
                tile = self.tiles[target]
                self.tiles[target] = replace(tile, items=items_merge(tile.items, p.items))
                self.players[seat] = replace(p, items=())
                self._note(seat, f"loses its items to ({effect.x}, {effect.y})")
        elif effect.kind == "eliminate":
            self._eliminate(seat)

    def _eliminate(self, seat: int) -> None:
        p = self.players[seat]
        tid = self.board[p.cell]
        if p.items and tid >= 0:
            tile = self.tiles[tid]
            self.tiles[tid] = replace(tile, items=items_merge(tile.items, p.items))
        self.bottom.extend(p.hand)
        self.players[seat] = replace(p, eliminated=True, items=(), hand=(), skip=0)
        self.eliminated_now = (*self.eliminated_now, seat)
        self._note(seat, "is eliminated")

    # -- goals and the end -------------------------------------------------------------------
    def _goal_met(self, seat: int, p: Player, goal: Goal) -> bool:
        w = self.rules.width
        if goal.kind == "reach":
            return p.cell == goal.y * w + goal.x
        if goal.kind == "collect":
            return items_count(p.items, goal.name) >= goal.count
        if goal.kind == "find":
            tid = self.board[p.cell]
            if any(f == (seat, goal.name) for f in self.found):
                return True  # it was on the tile when the player arrived and picked it up
            return (
                tid >= 0
                and not self.tiles[tid].face_down
                and items_count(self.tiles[tid].items, goal.name) > 0
            )
        return False

    def _check_goal(self, seat: int) -> None:
        p = self.players[seat]
        if p.eliminated or p.done >= len(p.goals) or self.result is not None:
            return
        goal = p.goals[p.done]
        if not self._goal_met(seat, p, goal):
            return
        p = replace(p, done=p.done + 1)
        self.players[seat] = p
        self._note(seat, f"completes goal '{goal.text}'")
        if p.done == len(p.goals):
            self._finish([seat], "completed every goal")

    def _free_count(self, name: str) -> int:
        total = sum(items_count(t.items, name) for t in self.tiles)
        return total + sum(items_count(p.items, name) for p in self.players)

    def _check_conditions(self) -> None:
        for name in self.rules.end_of_game_conditions:
            if self._free_count(name) == 0:
                self._score(f"no {name} left")
                return

    def _end_action(self) -> None:
        """Checks after a whole action (a moveAll counts as one)."""
        if self.result is None:
            alive = [i for i, p in enumerate(self.players) if not p.eliminated]
            if len(self.players) >= 2 and len(alive) == 1:
                self._finish(alive, "last player not eliminated")
            elif not alive:
                self._finish(
                    list(self.eliminated_now) if len(self.players) >= 2 else [],
                    "every player was eliminated",
                )
        if self.result is None:
            self._check_conditions()
        self.eliminated_now = ()

    def scores(self) -> list[int | None]:
        """End-of-game score of each player (None when eliminated)."""
        w = self.rules.width
        out: list[int | None] = []
        for seat, p in enumerate(self.players):
            if p.eliminated:
                out.append(None)
                continue
            total = 0
            for line in self.rules.players[seat].scoring:
                if line.cell is None:
                    total += items_count(p.items, line.name)
                else:
                    tid = self.board[line.cell[1] * w + line.cell[0]]
                    if tid >= 0:
                        total += items_count(self.tiles[tid].store, line.name)
            out.append(total)
        return out

    def _score(self, reason: str) -> None:
        alive = [i for i, p in enumerate(self.players) if not p.eliminated]
        if not any(spec.scoring for spec in self.rules.players):
            self._finish(alive, reason)
            return
        scores = self.scores()
        best = max((s for s in scores if s is not None), default=0)
        self._finish([i for i in alive if scores[i] == best], reason)

    def _finish(self, winners: Iterable[int], reason: str) -> None:
        won = tuple(sorted(set(winners)))
        share = 1.0 / len(won) if won else 0.0
        details: dict[str, Any] = {
            "goals_done": [p.done for p in self.players],
            "eliminated": [i for i, p in enumerate(self.players) if p.eliminated],
            "turns": self.turn,
        }
        if any(spec.scoring for spec in self.rules.players):
            details["scores"] = self.scores()
        self.result = Outcome(
            returns=tuple(share if i in won else 0.0 for i in range(len(self.players))),
            winners=won,
            reason=reason,
            details=details,
        )
        self.phase = "over"
        self._note(None, f"game over: {reason}")
