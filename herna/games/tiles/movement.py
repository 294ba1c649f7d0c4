"""Movement: where a player can end a move, for each ``movement_type`` (``free``: any reachable
end within the step limits; ``dice``: routes of exactly the rolled length; otherwise the
forced path), by following the paths tile to tile over the neighbour table.
"""

from __future__ import annotations

from collections import deque

from herna.games.tiles.actions import Move
from herna.games.tiles.pieces import Heading, Player, Target
from herna.games.tiles.state_base import StateBase

DICE_ROUTE_BUDGET = 200_000
"""Most route steps explored for one die roll (keeps huge dice on open boards bounded)."""


class Movement(StateBase):
    """The ends of a player's move (mix-in of :class:`~herna.games.tiles.engine.TilesState`)."""

    __slots__ = ()

    def _turnable(self, p: Player) -> bool:
        if not self.rules.only_forward_movement:
            return True
        kind = self._kind_at(p.cell)
        return bool(kind and kind.can_turn_around)

    def _start_exits(self, p: Player) -> tuple[list[int], bool]:
        """(points by which the player can leave along its current tile, whether it may cross
        its own point directly)."""
        turnable = self._turnable(p)
        path = self._path_at(p.cell, p.point)
        if path is not None:
            along = [q for q in path if q != p.point]
        else:
            along = self._all_path_points(p.cell)  # off every path: any path of the tile
        if p.heading == "in":
            return along, turnable
        return (along if turnable else []), True

    def _move_targets(self, p: Player) -> dict[Move, Target]:
        kind = self.rules.movement_type
        if kind == "free":
            ends = self._free(p)
        elif kind == "dice":
            ends = self._dice(p, self.roll or 0)
        else:
            ends = self._forced(p, self.rules.max_steps, True)[0]
        w = self.rules.width
        out: dict[Move, Target] = {}
        for (cell, point), heading in ends.items():
            out.setdefault(Move(cell % w, cell // w, point), (cell, point, heading))
        return out

    def _free(self, p: Player) -> dict[tuple[int, int], Heading]:
        rules = self.rules
        low, high = rules.min_move_distance, rules.max_steps
        forward_only = rules.only_forward_movement
        across_ = self.s.geo.across
        along, cross = self._start_exits(p)
        leave = set(along)
        if cross:
            leave.add(p.point)
        tile_dist = {p.cell: 0}
        entries: dict[tuple[int, int], int] = {}
        seen: set[tuple[int, int, int]] = set()
        queue: deque[tuple[int, int, int, int]] = deque()

        def reach(q_cell: int, q: int, d: int) -> None:
            nb, q2 = across_[q_cell][q]
            if nb < 0:
                return
            path = self._path_at(nb, q2)
            if path is None:
                return
            best = tile_dist.setdefault(nb, d)
            if best == d:
                entries.setdefault((nb, q2), d)
            key = (nb, min(path), q2 if forward_only else -1)
            if key not in seen:
                seen.add(key)
                queue.append((nb, q2, d, 0))

        if high is None or high >= 1:
            for q in sorted(leave):
                reach(p.cell, q, 1)
        while queue:
            cell, entry, d, _ = queue.popleft()
            kind = self._kind_at(cell)
            if kind is None or kind.movement_ending or (high is not None and d >= high):
                continue
            path = self._path_at(cell, entry)
            assert path is not None
            for q in path:
                if q != entry:
                    reach(cell, q, d + 1)
        out: dict[tuple[int, int], Heading] = {}
        if low <= 0:
            out[(p.cell, p.point)] = p.heading
        for (cell, entry), d in entries.items():
            if d >= low and (high is None or d <= high):
                out[(cell, entry)] = "in"
        return out

    def _dice(self, p: Player, roll: int) -> dict[tuple[int, int], Heading]:
        stay: dict[tuple[int, int], Heading] = {(p.cell, p.point): p.heading}
        if roll <= 0:
            return stay
        across_ = self.s.geo.across
        along, cross = self._start_exits(p)
        leave = set(along)
        if cross:
            leave.add(p.point)
        found: dict[tuple[int, int], Heading] = {}
        budget = [DICE_ROUTE_BUDGET]

        def go(cell: int, entry: int, depth: int, visited: frozenset[int]) -> None:
            budget[0] -= 1
            if budget[0] < 0:
                return
            kind = self._kind_at(cell)
            if depth == roll or (kind is not None and kind.movement_ending):
                found[(cell, entry)] = "in"
                return
            path = self._path_at(cell, entry)
            assert path is not None
            for q in path:
                if q == entry:
                    continue
                nb, q2 = across_[cell][q]
                if nb >= 0 and nb not in visited and self._path_at(nb, q2) is not None:
                    go(nb, q2, depth + 1, visited | {nb})

        start = frozenset({p.cell})
        for q in sorted(leave):
            nb, q2 = across_[p.cell][q]
            if nb >= 0 and nb != p.cell and self._path_at(nb, q2) is not None:
                go(nb, q2, 1, start | {nb})
        return found or stay

    def _forced(
        self,
        p: Player,
        limit: int | None,
        stop_on_ending: bool,
    ) -> tuple[dict[tuple[int, int], Heading], set[int], set[int]]:
        """Follow the player's path: (ends -> heading, cells passed, empty cells at the ends).

        With ``limit``/``stop_on_ending`` off this is "the path the player is on" used by
        ``connected`` adding and exchanging.
        """
        geo = self.s.geo
        ends: dict[tuple[int, int], Heading] = {}
        passed: set[int] = set()
        empty: set[int] = set()
        start = (p.cell, p.point)

        def stop(cell: int, point: int, heading: Heading) -> None:
            if (cell, point) == start:
                heading = p.heading
            ends.setdefault((cell, point), heading)

        # (cell, point about to be crossed, steps so far, physical points passed)
        stack: list[tuple[int, int, int, set[tuple[int, int]]]] = []
        along, cross = self._start_exits(p)
        home = {geo.phys(p.cell, p.point)}
        if self._kind_at(p.cell) is not None:
            passed.add(p.cell)
        if p.heading == "in":
            if self.board[p.cell] < 0:
                empty.add(p.cell)
            if not along:
                stop(p.cell, p.point, p.heading)
            for e in along:
                if geo.phys(p.cell, e) in home:
                    continue
                stack.append((p.cell, e, 0, home | {geo.phys(p.cell, e)}))
            if cross:
                stack.append((p.cell, p.point, 0, set(home)))
        else:
            stack.append((p.cell, p.point, 0, set(home)))
            for e in along:
                stack.append((p.cell, e, 0, home | {geo.phys(p.cell, e)}))
        while stack:
            cell, q, steps, visited = stack.pop()
            while True:
                nb, q2 = geo.across[cell][q]
                if nb < 0:
                    stop(cell, q, "out")
                    break
                if self.board[nb] < 0:
                    empty.add(nb)
                    stop(cell, q, "out")
                    break
                path = self._path_at(nb, q2)
                if path is None or (limit is not None and steps >= limit):
                    stop(cell, q, "out")
                    break
                steps += 1
                passed.add(nb)
                kind = self._kind_at(nb)
                if stop_on_ending and kind is not None and kind.movement_ending:
                    stop(nb, q2, "in")
                    break
                exits = [e for e in path if e != q2]
                fresh = [e for e in exits if geo.phys(nb, e) not in visited]
                if not exits or len(fresh) < len(exits):
                    stop(nb, q2, "in")  # a dead end, or the path closes on itself
                if not fresh:
                    break
                for e in fresh[1:]:
                    stack.append((nb, e, steps, visited | {geo.phys(nb, e)}))
                visited.add(geo.phys(nb, fresh[0]))
                cell, q = nb, fresh[0]
        if not ends:
            ends[start] = p.heading
        return ends, passed, empty
