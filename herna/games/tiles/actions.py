"""Actions of the tile/path games and their JSON form (the same on the wire and in logs).

Player actions::

    {"type": "move", "x": 2, "y": 3, "side": "L", "index": 0}
    {"type": "push", "row": 3, "direction": "right", "rotation": 1}
    {"type": "push", "column": 1, "direction": "down", "rotation": 0}
    {"type": "add", "x": 4, "y": 1, "rotation": 2}             (+ "tile": ID from a hand)
    {"type": "exchange", "x": 4, "y": 1, "rotation": 0}        (+ "tile": ID from a hand)

``rotation`` is the number of 90-degree clockwise turns from the tile's written orientation.
Chance actions (drawn by the match, logged, never sent by players)::

    {"type": "fill", "kind": 17, "rotation": 3}   a tile of that kind fills the next empty cell
    {"type": "goal", "index": 4}                   random_goal_pool[4] becomes a player's goal
    {"type": "draw", "kind": 16}                   a tile of that kind is drawn from the pile
    {"type": "roll", "value": 5}                   the die shows 5

>>> codec = TilesCodec(1)
>>> codec.decode({"type": "push", "row": 3, "direction": "right", "rotation": 1})
Push(direction='right', index=3, rotation=1)
>>> codec.encode(Move(2, 3, 3))
{'type': 'move', 'x': 2, 'y': 3, 'side': 'L', 'index': 0}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from herna.games.tiles.geometry import SIDES, make_point

Direction = Literal["left", "right", "up", "down"]
DIRECTIONS: tuple[Direction, ...] = ("left", "right", "up", "down")


@dataclass(frozen=True, slots=True)
class Move:
    """Move to cell (x, y), ending at ``point`` (see :mod:`herna.games.tiles.geometry`)."""

    x: int
    y: int
    point: int


@dataclass(frozen=True, slots=True)
class Push:
    """Push row ``index`` left/right or column ``index`` up/down; the tile that comes in at the
    near end is turned ``rotation`` quarter turns."""

    direction: Direction
    index: int
    rotation: int = 0

    @property
    def line(self) -> Literal["row", "column"]:
        return "row" if self.direction in ("left", "right") else "column"


@dataclass(frozen=True, slots=True)
class Add:
    """Put a tile (the pile's top, or hand tile ``tile``) on the empty cell (x, y)."""

    x: int
    y: int
    rotation: int = 0
    tile: int | None = None


@dataclass(frozen=True, slots=True)
class Exchange:
    """Replace the tile at (x, y) with the pile's top or hand tile ``tile``."""

    x: int
    y: int
    rotation: int = 0
    tile: int | None = None


@dataclass(frozen=True, slots=True)
class Fill:
    """Chance: the next empty cell gets a tile of ``kind`` (``tiles[kind]``), turned."""

    kind: int
    rotation: int


@dataclass(frozen=True, slots=True)
class DrawGoal:
    """Chance: ``random_goal_pool[index]`` is drawn for the player being dealt goals."""

    index: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the pile's next tile turns out to be one of ``kind``."""

    kind: int


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the die shows ``value``."""

    value: int


PlayerAction = Move | Push | Add | Exchange
ChanceAction = Fill | DrawGoal | Draw | Roll
Action = PlayerAction | ChanceAction


def _int(data: dict[str, Any], key: str, low: int = 0, high: int = 10**6) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{key!r} must be an integer")
    if not low <= value <= high:
        raise ValueError(f"{key!r} must be in {low}..{high}")
    return value


def _opt_tile(data: dict[str, Any]) -> int | None:
    if data.get("tile") is None:
        return None
    return _int(data, "tile")


class TilesCodec:
    """Encodes actions to JSON-ready dicts and back (for the wire protocol and match logs).

    ``decode`` raises :class:`ValueError` with a readable message for malformed input.
    """

    def __init__(self, paths_on_tile_side: int) -> None:
        self.n = paths_on_tile_side

    def encode(self, action: Action) -> dict[str, Any]:
        n = self.n
        match action:
            case Move(x, y, point):
                return {
                    "type": "move",
                    "x": x,
                    "y": y,
                    "side": SIDES[point // n],
                    "index": point % n,
                }
            case Push(direction, index, rotation):
                return {
                    "type": "push",
                    action.line: index,
                    "direction": direction,
                    "rotation": rotation,
                }
            case Add(x, y, rotation, tile) | Exchange(x, y, rotation, tile):
                out: dict[str, Any] = {
                    "type": "add" if isinstance(action, Add) else "exchange",
                    "x": x,
                    "y": y,
                    "rotation": rotation,
                }
                if tile is not None:
                    out["tile"] = tile
                return out
            case Fill(kind, rotation):
                return {"type": "fill", "kind": kind, "rotation": rotation}
            case DrawGoal(index):
                return {"type": "goal", "index": index}
            case Draw(kind):
                return {"type": "draw", "kind": kind}
            case Roll(value):
                return {"type": "roll", "value": value}
        raise TypeError(f"not a tiles action: {action!r}")

    def decode(self, data: Any) -> Action:
        if not isinstance(data, dict):
            raise ValueError("an action must be a JSON object")
        kind = data.get("type")
        if kind == "move":
            side = data.get("side")
            if not isinstance(side, str) or side not in SIDES or len(side) != 1:
                raise ValueError("'side' must be one of U, R, D, L")
            index = _int(data, "index", 0, self.n - 1)
            return Move(_int(data, "x"), _int(data, "y"), make_point(side, index, self.n))
        if kind == "push":
            direction = data.get("direction")
            if direction not in DIRECTIONS:
                raise ValueError("'direction' must be left, right, up or down")
            key = "row" if direction in ("left", "right") else "column"
            if key not in data:
                raise ValueError(f"a push {direction} needs {key!r} (the {key} to push)")
            return Push(
                direction,
                _int(data, key),
                _int(data, "rotation", 0, 3) if "rotation" in data else 0,
            )
        if kind in ("add", "exchange"):
            rotation = _int(data, "rotation", 0, 3) if "rotation" in data else 0
            cls = Add if kind == "add" else Exchange
            return cls(_int(data, "x"), _int(data, "y"), rotation, _opt_tile(data))
        if kind == "fill":
            return Fill(_int(data, "kind"), _int(data, "rotation", 0, 3))
        if kind == "goal":
            return DrawGoal(_int(data, "index"))
        if kind == "draw":
            return Draw(_int(data, "kind"))
        if kind == "roll":
            return Roll(_int(data, "value"))
        raise ValueError("'type' must be move, push, add or exchange")

    def decode_player_action(self, data: Any) -> PlayerAction:
        """Like :meth:`decode` but only for what players may send."""
        action = self.decode(data)
        if isinstance(action, Move | Push | Add | Exchange):
            return action
        raise ValueError("'type' must be move, push, add or exchange")
