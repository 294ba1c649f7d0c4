"""Applying a legal player action: a move (then the arrival on the tile), a push of a row or a
column, adding a tile, exchanging one; each ends with the checks after an action.
"""

from __future__ import annotations

from dataclasses import replace

from herna.games.tiles.actions import Add, Exchange, Move, PlayerAction, Push
from herna.games.tiles.effects import EffectsAndGoals
from herna.games.tiles.geometry import point_name


class Applying(EffectsAndGoals):
    """Carrying out player actions (mix-in of :class:`~herna.games.tiles.engine.TilesState`)."""

    __slots__ = ()

    def _apply_player(self, action: PlayerAction) -> None:
        if isinstance(action, Move):
            self._do_move(action)
            return
        seat = self.turn_player
        if isinstance(action, Push):
            self._do_push(action)
        elif isinstance(action, Add):
            self._do_add(action)
        else:
            self._do_exchange(action)
        self.progress = True
        self.step += 1
        self._check_goal(seat)
        self._end_action()

    def _do_move(self, move: Move) -> None:
        assert self.movers
        seat = self.movers[0]
        cell, point, heading = self._targets[move]
        p = self.players[seat]
        moved = (cell, point) != (p.cell, p.point)
        self.players[seat] = replace(p, cell=cell, point=point, heading=heading)
        if moved:
            self.progress = True
            self._note(seat, f"moves to {self._xy(cell)} {point_name(point, self.rules.n)}")
            self._arrive(seat)
        else:
            self._note(seat, "stays")
        self.movers = self.movers[1:]
        self.roll = None
        self._check_goal(seat)
        if self.result is None:
            self._check_conditions()

    def _do_push(self, push: Push) -> None:
        line = self._line(push)
        old = [self.board[c] for c in line]
        leaving = old[-1]
        if self.rules.cycle_pushed_out_tiles:
            incoming = leaving
        else:
            incoming = self._take_pile_top()
            if leaving >= 0:
                self.tiles[leaving] = replace(self.tiles[leaving], rotation=0, face_down=False)
                self.pile.insert(0, leaving)
        if incoming >= 0:
            self.tiles[incoming] = replace(
                self.tiles[incoming], rotation=push.rotation, face_down=False
            )
        for c, tid in zip(line, [incoming, *old[:-1]], strict=True):
            self.board[c] = tid
        where = {c: k for k, c in enumerate(line)}
        for seat, p in enumerate(self.players):
            k = where.get(p.cell)
            if k is not None and not p.eliminated:
                self.players[seat] = replace(p, cell=line[(k + 1) % len(line)])
        self._note(self.turn_player, f"pushes {push.line} {push.index} {push.direction}")

    def _take_pile_top(self) -> int:
        if self.pile:
            return self.pile.pop(0)
        assert not self.bag, "the pile's top must be turned up first"
        return self.bottom.pop(0)

    def _place(self, tid: int, cell: int, rotation: int) -> None:
        self.tiles[tid] = replace(self.tiles[tid], rotation=rotation, face_down=False)
        self.board[cell] = tid

    def _take_new_tile(self, from_hand: bool, tid: int | None) -> int:
        if not from_hand:
            return self._take_pile_top()
        assert tid is not None
        p = self.players[self.turn_player]
        hand = list(p.hand)
        hand.remove(tid)
        self.players[self.turn_player] = replace(p, hand=tuple(hand))
        return tid

    def _do_add(self, add: Add) -> None:
        tid = self._take_new_tile(self.rules.adding_from == "hand", add.tile)
        cell = add.y * self.rules.width + add.x
        self._place(tid, cell, add.rotation)
        self._note(self.turn_player, f"adds a tile at {self._xy(cell)}")

    def _do_exchange(self, ex: Exchange) -> None:
        cell = ex.y * self.rules.width + ex.x
        old = self.board[cell]
        to_hand = self.rules.exchange_with == "hand"
        tid = self._take_new_tile(to_hand, ex.tile)
        self._place(tid, cell, ex.rotation)
        self.tiles[old] = replace(self.tiles[old], rotation=0, face_down=False)
        if to_hand:
            p = self.players[self.turn_player]
            self.players[self.turn_player] = replace(p, hand=(*p.hand, old))
        else:
            self.pile.insert(0, old)
        self._note(self.turn_player, f"exchanges the tile at {self._xy(cell)}")
