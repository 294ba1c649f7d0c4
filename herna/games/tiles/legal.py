"""Legal player actions: the options of a ``push``, ``add`` or ``exchange`` step (a move's are
its ends, see :mod:`~herna.games.tiles.movement`), an action in its listed form
(:meth:`LegalActions.normalize`) and why one is illegal, in words.
"""

from __future__ import annotations

from dataclasses import replace

from herna.games.tiles.actions import Action, Add, Exchange, Move, PlayerAction, Push
from herna.games.tiles.geometry import point_name
from herna.games.tiles.movement import Movement


class LegalActions(Movement):
    """What a player may do now (mix-in of :class:`~herna.games.tiles.engine.TilesState`)."""

    __slots__ = ()

    def _needs_pile_top(self, name: str) -> bool:
        rules = self.rules
        return (
            (name == "push" and not rules.cycle_pushed_out_tiles)
            or (name == "add" and rules.adding_from == "pile")
            or (name == "exchange" and rules.exchange_with == "pile")
        )

    def _rotations(self, tid: int) -> tuple[int, ...]:
        if tid < 0:
            return (0,)
        return self.s.kinds[self.tiles[tid].kind].distinct

    def _new_tiles(self, from_hand: bool) -> list[int | None]:
        """Tiles the player can put down: None = the pile's top; else distinct hand tiles."""
        if not from_hand:
            return [None] if self.pile_count() else []
        seen = set()
        out: list[int | None] = []
        for tid in self.players[self.turn_player].hand:
            t = self.tiles[tid]
            key = (t.kind, t.items, t.store)
            if key not in seen:
                seen.add(key)
                out.append(tid)
        return out

    def _options(self, name: str) -> list[PlayerAction]:
        rules = self.rules
        w, h = rules.width, rules.height
        out: list[PlayerAction] = []
        if name == "push":
            if not rules.cycle_pushed_out_tiles and self.pile_count() == 0:
                return []
            lines: list[Push] = []
            for y in range(h):
                if y not in rules.unpushable_rows:
                    lines += [Push("left", y), Push("right", y)]
            for x in range(w):
                if x not in rules.unpushable_columns:
                    lines += [Push("up", x), Push("down", x)]
            for push in lines:
                incoming = (
                    self.board[self._line(push)[-1]]
                    if rules.cycle_pushed_out_tiles
                    else self.pile_top()
                )
                for r in self._rotations(-1 if incoming is None else incoming):
                    out.append(Push(push.direction, push.index, r))
            return out
        p = self.players[self.turn_player]
        if name == "add":
            from_hand = rules.adding_from == "hand"
            if rules.adding_mode == "connected":
                cells = sorted(self._forced(p, None, False)[2])
            else:
                cells = [c for c, tid in enumerate(self.board) if tid < 0]
            for tid in self._new_tiles(from_hand):
                real = self.pile_top() if tid is None else tid
                for cell in cells:
                    for r in self._rotations(-1 if real is None else real):
                        out.append(Add(cell % w, cell // w, r, tid))
            return out
        # exchange
        from_hand = rules.exchange_with == "hand"
        if rules.exchanging_mode == "connected":
            cells = sorted(
                c for c in self._forced(p, None, False)[1] | {p.cell} if self.board[c] >= 0
            )
        else:
            cells = [c for c, tid in enumerate(self.board) if tid >= 0]
        cells = [
            c
            for c in cells
            if (c % w, c // w) not in rules.not_exchangeable_tiles
            and (not rules.exchange_only_flipped or self.tiles[self.board[c]].face_down)
        ]
        for tid in self._new_tiles(from_hand):
            real = self.pile_top() if tid is None else tid
            for cell in cells:
                for r in self._rotations(-1 if real is None else real):
                    out.append(Exchange(cell % w, cell // w, r, tid))
        return out

    def normalize(self, action: PlayerAction) -> PlayerAction:
        """The same action in the form :meth:`legal_actions` lists it: rotations that lay a
        tile out identically map to the smallest one, identical hand tiles to the first."""
        if isinstance(action, Push):
            if self.rules.cycle_pushed_out_tiles:
                if (
                    not 0
                    <= action.index
                    < (self.rules.height if action.line == "row" else self.rules.width)
                ):
                    return action
                tid = self.board[self._line(action)[-1]]
            else:
                top = self.pile_top()
                tid = -1 if top is None else top
            rot = self.s.kinds[self.tiles[tid].kind].canon[action.rotation % 4] if tid >= 0 else 0
            return replace(action, rotation=rot)
        if isinstance(action, Add | Exchange):
            hand_tile: int | None = action.tile
            real: int | None = hand_tile
            if hand_tile is not None:
                hand = self.players[self.turn_player].hand
                if hand_tile in hand:
                    t = self.tiles[hand_tile]
                    key = (t.kind, t.items, t.store)
                    real = hand_tile = next(
                        h
                        for h in hand
                        if (self.tiles[h].kind, self.tiles[h].items, self.tiles[h].store) == key
                    )
            else:
                real = self.pile_top()
            if real is None or not 0 <= real < len(self.tiles):
                return action
            rot = self.s.kinds[self.tiles[real].kind].canon[action.rotation % 4]
            return replace(action, rotation=rot, tile=hand_tile)
        return action

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, in words."""
        name = self.current_action()
        want = {"move": Move, "moveAll": Move, "push": Push, "add": Add, "exchange": Exchange}
        if name is None:
            return "no player action is expected now"
        expected = want[name]
        if not isinstance(action, expected):
            return f"now is the {name!r} action: send a {expected.__name__.lower()} action"
        rules = self.rules
        if isinstance(action, Move):
            return (
                f"cannot end a move at ({action.x}, {action.y}) "
                f"{point_name(action.point, rules.n)}; see the legal moves"
            )
        if isinstance(action, Push):
            if action.line == "row" and action.index in rules.unpushable_rows:
                return f"row {action.index} cannot be pushed"
            if action.line == "column" and action.index in rules.unpushable_columns:
                return f"column {action.index} cannot be pushed"
            return f"cannot push {action.line} {action.index} {action.direction}"
        if isinstance(action, Add | Exchange):
            if (
                action.tile is not None
                and (rules.adding_from if isinstance(action, Add) else rules.exchange_with)
                == "hand"
                and action.tile not in self.players[self.turn_player].hand
            ):
                return f"tile {action.tile} is not in your hand"
            source = rules.adding_from if isinstance(action, Add) else rules.exchange_with
            if source == "hand" and action.tile is None:
                return "say which hand tile to use ('tile': ID)"
            if source == "pile" and action.tile is not None:
                return "the tile comes from the pile here: leave out 'tile'"
            verb = "add a tile at" if isinstance(action, Add) else "exchange the tile at"
            return f"cannot {verb} ({action.x}, {action.y})"
        return "not legal now"
