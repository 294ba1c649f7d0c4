"""Small rules files and shortcuts for the tile-game tests."""

from __future__ import annotations

from typing import Any

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.tiles.actions import Action, Draw, Roll
from herna.games.tiles.engine import TilesState, new_game
from herna.games.tiles.rules import Rules, load_rules


def tile(*connections: str, at: tuple[int, int] | None = None, **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"connections": list(connections), **fields}
    if at is not None:
        out["location"] = list(at)
    return out


def player(x: int, y: int, side: str, index: int = 0, **fields: Any) -> dict[str, Any]:
    return {
        "starting_x": x,
        "starting_y": y,
        "starting_side": side,
        "starting_path_index": index,
        **fields,
    }


def rules_data(
    width: int,
    height: int,
    tiles: list[dict[str, Any]],
    players: list[dict[str, Any]],
    turn: tuple[str, ...] = ("move",),
    board: dict[str, Any] | None = None,
    **top: Any,
) -> dict[str, Any]:
    return {
        "turn_structure": list(turn),
        "board": {"width": width, "height": height, **(board or {})},
        "tiles": tiles,
        "players": players,
        **top,
    }


def make(data: dict[str, Any]) -> Rules:
    return load_rules(data, "test")


def corridor(length: int = 4, **top: Any) -> dict[str, Any]:
    """A row of straight L-R tiles; one player at the left end, heading in."""
    tiles = [tile("L0,R0", at=(x, 0)) for x in range(length)]
    return rules_data(length, 1, tiles, [player(0, 0, "L")], **top)


def race() -> dict[str, Any]:
    """A two-player race along two corridors (inline rules, not a shipped file): one tile a
    turn or stay; the player who moves first arrives first."""
    data = corridor(4)
    data["tiles"] += [{"connections": ["L0,R0"], "location": [x, 1]} for x in range(4)]
    data["board"] = {"width": 4, "height": 2}
    data["players"] = [
        player(0, 0, "L", goals=["reach 3 0"]),
        player(0, 1, "L", goals=["reach 3 1"]),
    ]
    data["max_move_distance"] = 1
    return data


def settle(
    state: TilesState, seed: int = 0, roll: int | None = None, draws: list[int] | None = None
) -> TilesState:
    """Resolve chance: fixed die ``roll`` / pile ``draws`` (kinds) when given, else seeded."""
    rng = SeededRng(seed)
    draws = list(draws or [])
    while state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        action: Action = rng.weighted(outcomes)
        if roll is not None and isinstance(outcomes[0][0], Roll):
            action = Roll(roll)
        elif draws and isinstance(outcomes[0][0], Draw):
            action = Draw(draws.pop(0))
        state = state.apply(action)
    return state


def start(data: dict[str, Any], seed: int = 0, **kw: Any) -> TilesState:
    max_rounds = kw.pop("max_rounds", 500)
    return settle(new_game(make(data), max_rounds), seed, **kw)


def step(state: TilesState, action: Action, seed: int = 0, **kw: Any) -> TilesState:
    return settle(state.apply(action), seed, **kw)


def where(state: TilesState, seat: int) -> tuple[int, int, str, str]:
    """(x, y, point name, heading) of a player."""
    view = state.view(None)["players"][seat]
    return view["x"], view["y"], f"{view['side']}{view['index']}", view["heading"]


def moves(state: TilesState) -> set[tuple[int, int, str]]:
    """Legal move destinations as (x, y, point name)."""
    from herna.games.tiles.actions import Move
    from herna.games.tiles.geometry import point_name

    n = state.rules.n
    return {
        (a.x, a.y, point_name(a.point, n)) for a in state.legal_actions() if isinstance(a, Move)
    }


def targets(
    data: dict[str, Any], seat: int = 0, roll: int | None = None
) -> set[tuple[int, int, str, str]]:
    """Where ``seat`` could end a move right now, as (x, y, point, heading), computed without
    playing (the engine applies moves with a single choice at once)."""
    from herna.games.tiles.geometry import point_name

    data = {**data, "turn_structure": ["push"]}
    state = start(data)
    state.roll = roll
    n = state.rules.n
    return {
        (m.x, m.y, point_name(m.point, n), t[2])
        for m, t in state._move_targets(state.players[seat]).items()
    }
