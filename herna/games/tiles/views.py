"""Views: what a seat sees of a state as JSON (:meth:`Views.view`, :meth:`Views.tile_view`),
and the way back, :func:`load_view`, which fills a fresh state from a view for bots that look
ahead (``TilesState.from_view``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from herna.core.game import Outcome, PlayerId
from herna.games.tiles.geometry import SIDES
from herna.games.tiles.pieces import Player, Tile
from herna.games.tiles.rules import Goal, Rules, parse_goal
from herna.games.tiles.state_base import StateBase


class Views(StateBase):
    """A state as a seat sees it (mix-in of :class:`~herna.games.tiles.engine.TilesState`)."""

    __slots__ = ()

    def tile_view(self, tid: int, hidden: bool = False) -> dict[str, Any]:
        """A tile as JSON; face-down tiles (and ``hidden``) show only their back."""
        tile = self.tiles[tid]
        if tile.face_down or hidden:
            return {"face_down": True}
        info = self.s.kinds[tile.kind]
        return {
            "id": tile.id,
            "kind": tile.kind,
            "rotation": tile.rotation,
            "connections": list(info.named[tile.rotation]),
            "items": dict(tile.items),
            "store": dict(tile.store),
            "effects": list(info.effect_texts),
            "movement_ending": info.movement_ending,
            "can_turn_around": info.can_turn_around,
        }

    def view(self, player: PlayerId | None) -> dict[str, Any]:
        rules = self.rules
        n, w = rules.n, rules.width
        if self._board_view is None:
            self._board_view = [
                [
                    self.tile_view(self.board[y * w + x]) if self.board[y * w + x] >= 0 else None
                    for x in range(w)
                ]
                for y in range(rules.height)
            ]
        # Each view has its own rows; the tiles in them are shared (views are read, not
        # changed; a reader that changes one copies it).
        board = [row[:] for row in self._board_view]
        players = []
        for seat, p in enumerate(self.players):
            spec = rules.players[seat]
            own = seat == player
            goals: list[dict[str, Any]] = []
            for i, goal in enumerate(p.goals):
                done = i < p.done
                if (p.hidden[i] and not own and not done) or goal.kind == "unknown":
                    goals.append({"goal": None, "hidden": True, "done": done})
                else:
                    goals.append({"goal": goal.text, "hidden": False, "done": done})
            entry: dict[str, Any] = {
                "seat": seat,
                "x": p.cell % w,
                "y": p.cell // w,
                "side": SIDES[p.point // n],
                "index": p.point % n,
                "heading": p.heading,
                "eliminated": p.eliminated,
                "skip": p.skip,
                "items": dict(p.items),
                "hand_count": len(p.hand),
                "goals": goals,
                "goals_done": p.done,
                "start": {
                    "x": spec.start[0],
                    "y": spec.start[1],
                    "side": SIDES[spec.start_point // n],
                    "index": spec.start_point % n,
                },
            }
            if own:
                entry["hand"] = [self.tile_view(t) for t in p.hand]
            players.append(entry)
        current = self.current_player()
        return {
            "game": "tiles",
            "rules": rules.name,
            "you": player,
            "width": w,
            "height": rules.height,
            "paths_on_tile_side": n,
            "turn_structure": list(rules.turn_structure),
            "movement_type": rules.movement_type,
            "unpushable_rows": sorted(rules.unpushable_rows),
            "unpushable_columns": sorted(rules.unpushable_columns),
            "board": board,
            "pile": {"count": self.pile_count(), "known": [self.tile_view(t) for t in self.pile]},
            "players": players,
            "phase": self.phase,
            "turn": {
                "number": self.turn,
                "player": self.turn_player,
                "step": self.step,
                "action": self.current_action(),
                "to_act": current if current >= 0 else None,
                "movers": list(self.movers) if self.movers is not None else None,
                "roll": self.roll,
                "progress": self.progress,
                "quiet_turns": self.quiet,
                "eliminated_now": list(self.eliminated_now),
            },
            "max_rounds": self.s.max_rounds,
            "outcome": self.result.to_json() if self.result else None,
        }


# -- bots: a state rebuilt from a player's view ----------------------------------------------
def load_view(state: StateBase, rules: Rules, view: Mapping[str, Any]) -> None:
    """Fill the fresh ``state`` with what ``view`` shows and guesses for what it hides (see
    ``TilesState.from_view``); the caller runs the state on to its next decision."""
    n, w = rules.n, rules.width
    blank = len(rules.tiles)
    base: list[Tile] = []
    for k, kind in enumerate(rules.tiles):
        for _ in range(kind.amount):
            base.append(Tile(len(base), k, 0, kind.face_down, kind.items))
    seen: dict[int, Tile] = {}

    def known(tv: Mapping[str, Any]) -> int | None:
        if tv.get("face_down"):
            return None
        tile = Tile(
            int(tv["id"]),
            int(tv["kind"]),
            int(tv["rotation"]),
            False,
            tuple((str(a), int(b)) for a, b in tv["items"].items()),
            tuple((str(a), int(b)) for a, b in tv["store"].items()),
        )
        seen[tile.id] = tile
        return tile.id

    board_ids: list[int | None] = []
    for row in view["board"]:
        for tv in row:
            board_ids.append(-1 if tv is None else known(tv))
    pile_known = [known(tv) for tv in view["pile"]["known"]]
    hands: list[list[int | None]] = []
    for pv in view["players"]:
        if "hand" in pv:
            hands.append([known(tv) for tv in pv["hand"]])
        else:
            hands.append([None] * int(pv["hand_count"]))
    unseen = [t for t in base if t.id not in seen]

    def guess() -> int:
        if unseen:
            return unseen.pop(0).id
        tile = Tile(len(base) + len(extra), blank)
        extra.append(tile)
        return tile.id

    extra: list[Tile] = []
    state.tiles = [seen.get(t.id, t) for t in base]
    state.board = []
    for tid in board_ids:
        state.board.append(guess() if tid is None else tid)  # None: face down, unseen
    face_down_ids = [state.board[i] for i, tid in enumerate(board_ids) if tid is None]
    hand_ids = [[h if h is not None else guess() for h in hand] for hand in hands]
    state.pile = [t for t in pile_known if t is not None]
    rest = int(view["pile"]["count"]) - len(state.pile)
    state.bag = sorted(guess() for _ in range(max(0, rest)))
    state.tiles.extend(extra)
    for tid in face_down_ids:
        state.tiles[tid] = replace(state.tiles[tid], face_down=True)
    for i, pv in enumerate(view["players"]):
        goals: list[Goal] = []
        hidden: list[bool] = []
        for gv in pv["goals"]:
            text = gv.get("goal")
            goals.append(_goal_from_text(text) if text else Goal("unknown"))
            hidden.append(bool(gv.get("hidden")))
        state.players.append(
            Player(
                cell=int(pv["y"]) * w + int(pv["x"]),
                point=SIDES.index(pv["side"]) * n + int(pv["index"]),
                heading="out" if pv["heading"] == "out" else "in",
                goals=tuple(goals),
                hidden=tuple(hidden),
                done=int(pv["goals_done"]),
                items=tuple((str(a), int(b)) for a, b in pv["items"].items()),
                hand=tuple(hand_ids[i]),
                skip=int(pv["skip"]),
                eliminated=bool(pv["eliminated"]),
            )
        )
    turn = view["turn"]
    state.phase = view["phase"]
    state.goal_cursor = (len(rules.players), 0, 0)
    state.hand_cursor = len(rules.players)
    state.turn_player = int(turn["player"])
    state.step = int(turn["step"])
    state.movers = tuple(turn["movers"]) if turn["movers"] is not None else None
    state.roll = turn["roll"]
    state.turn = int(turn["number"])
    state.quiet = int(turn["quiet_turns"])
    state.progress = bool(turn["progress"])
    state.eliminated_now = tuple(turn["eliminated_now"])
    if view.get("outcome"):
        o = view["outcome"]
        state.result = Outcome(tuple(o["returns"]), tuple(o["winners"]), o["reason"], o["details"])


def _goal_from_text(text: str) -> Goal:
    goal = parse_goal(text, allow_random=False)
    return goal if isinstance(goal, Goal) else Goal("unknown")
