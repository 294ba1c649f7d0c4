"""Movement: free, forced and dice, distances, movement_ending, only_forward_movement and
can_turn_around, moveAll."""

from __future__ import annotations

import pytest

from herna.core.game import CHANCE
from herna.games.tiles.actions import Move, Roll
from herna.games.tiles.geometry import parse_point
from tests.tiles.helpers import (
    corridor,
    moves,
    player,
    rules_data,
    start,
    step,
    targets,
    tile,
    where,
)


def test_free_movement_reaches_every_connected_tile_and_may_stay() -> None:
    state = start(corridor(4))
    assert moves(state) == {(0, 0, "L0"), (1, 0, "L0"), (2, 0, "L0"), (3, 0, "L0")}


def test_free_movement_min_and_max_distance() -> None:
    state = start(corridor(5, min_move_distance=1, max_move_distance=2))
    assert moves(state) == {(1, 0, "L0"), (2, 0, "L0")}
    state = start(corridor(5, max_move_distance=-3))  # negative = unlimited
    assert len(moves(state)) == 5


def test_free_movement_uses_the_shortest_route() -> None:
    # A 2x2 loop of corners: (1,1) is 2 steps either way; (0,0) is where we stand.
    tiles = [
        tile("R0,D0", at=(0, 0)),
        tile("D0,L0", at=(1, 0)),
        tile("U0,L0", at=(1, 1)),
        tile("U0,R0", at=(0, 1)),
    ]
    state = start(rules_data(2, 2, tiles, [player(0, 0, "R")], max_move_distance=1))
    assert moves(state) == {(0, 0, "R0"), (1, 0, "L0"), (0, 1, "U0")}
    state = start(rules_data(2, 2, tiles, [player(0, 0, "R")], min_move_distance=2))
    # (1,1) is entered by either neighbour at distance 2: both points are shortest routes.
    assert moves(state) == {(1, 1, "U0"), (1, 1, "L0")}


def test_movement_ending_tiles_stop_free_movement() -> None:
    data = corridor(4)
    data["tiles"][2]["movement_ending"] = True
    assert moves(start(data)) == {(0, 0, "L0"), (1, 0, "L0"), (2, 0, "L0")}


def test_free_move_ends_at_the_entry_point_heading_in() -> None:
    state = start(corridor(4))
    state = step(state, Move(2, 0, parse_point("L0", 1)))
    assert where(state, 0) == (2, 0, "L0", "in")


def test_forced_movement_follows_the_path_to_its_end() -> None:
    data = corridor(4, movement_type="forced", only_forward_movement=True)
    assert targets(data) == {(3, 0, "R0", "out")}
    data["turn_structure"] = ["move", "move", "push"]
    state = start(data)
    # Only one way to go: moved automatically; the second move has nowhere to go.
    assert where(state, 0) == (3, 0, "R0", "out")
    assert [text for _, text in state.happened] == ["moves to (3, 0) R0", "stays"]


def test_forced_movement_is_capped_by_max_move_distance() -> None:
    data = corridor(5, movement_type="forced", max_move_distance=2, only_forward_movement=True)
    assert targets(data) == {(2, 0, "R0", "out")}


def test_forced_movement_stops_on_a_movement_ending_tile() -> None:
    data = corridor(5, movement_type="forced", only_forward_movement=True)
    data["tiles"][2]["movement_ending"] = True
    assert targets(data) == {(2, 0, "L0", "in")}


def test_forced_movement_chooses_at_branches() -> None:
    # (1,0) is a T: left, up(blocked by the board edge? no: down) and right.
    tiles = [
        tile("L0,R0", at=(0, 0)),
        tile("L0,R0,D0", at=(1, 0)),
        tile("L0,R0", at=(2, 0)),
        tile("U0,D0", at=(1, 1)),
    ]
    state = start(
        rules_data(
            3, 2, tiles, [player(0, 0, "L")], movement_type="forced", only_forward_movement=True
        )
    )
    assert moves(state) == {(2, 0, "R0"), (1, 1, "D0")}


def test_forced_movement_stops_before_closing_a_loop() -> None:
    tiles = [
        tile("R0,D0", at=(0, 0)),
        tile("D0,L0", at=(1, 0)),
        tile("U0,L0", at=(1, 1)),
        tile("U0,R0", at=(0, 1)),
    ]
    data = rules_data(
        2, 2, tiles, [player(0, 0, "R")], movement_type="forced", only_forward_movement=True
    )
    # Round the loop back to the start point: it stops on entering the last tile.
    assert targets(data) == {(1, 0, "D0", "in")}


def test_without_only_forward_a_forced_mover_may_pick_either_end() -> None:
    data = corridor(5, movement_type="forced")
    data["players"][0] = player(2, 0, "L")
    assert moves(start(data)) == {(4, 0, "R0"), (0, 0, "L0")}
    data["only_forward_movement"] = True
    assert targets(data) == {(4, 0, "R0", "out")}


def test_only_forward_forbids_going_back_unless_the_tile_allows_turning() -> None:
    data = corridor(5, only_forward_movement=True)
    data["players"][0] = player(2, 0, "L")
    assert {m[0] for m in moves(start(data))} == {2, 3, 4}
    data["tiles"][2]["can_turn_around"] = True
    assert {m[0] for m in moves(start(data))} == {0, 1, 2, 3, 4}


def _dice(length: int = 6, **top: object) -> dict[str, object]:
    return corridor(
        length,
        movement_type="dice",
        min_move_distance=1,
        max_move_distance=4,
        turn_structure=["move", "move"],
        **top,
    )


def test_dice_roll_is_a_chance_event_over_min_to_max() -> None:
    from herna.games.tiles.engine import new_game
    from tests.tiles.helpers import make

    state = new_game(make(_dice()))
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [Roll(1), Roll(2), Roll(3), Roll(4)]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


def test_dice_moves_exactly_the_roll() -> None:
    assert targets(_dice(), roll=3) == {(3, 0, "L0", "in")}
    data = _dice()
    data["turn_structure"] = ["move", "push"]
    state = start(data, roll=3)
    assert where(state, 0) == (3, 0, "L0", "in")  # the only route: moved automatically
    assert state.happened[:2] == ((0, "rolls 3"), (0, "moves to (3, 0) L0"))


def test_dice_without_an_exact_route_stays() -> None:
    assert targets(_dice(3), roll=4) == {(0, 0, "L0", "in")}  # no route of four steps


def test_dice_stops_early_on_a_movement_ending_tile() -> None:
    data = _dice(6)
    data["tiles"][2]["movement_ending"] = True  # type: ignore[index]
    assert targets(data, roll=4) == {(2, 0, "L0", "in")}


def test_dice_routes_never_enter_a_cell_twice() -> None:
    # 2x2 loop: a roll of 4 would need to come back to the start cell.
    tiles = [
        tile("R0,D0", at=(0, 0)),
        tile("D0,L0", at=(1, 0)),
        tile("U0,L0", at=(1, 1)),
        tile("U0,R0", at=(0, 1)),
    ]
    data = rules_data(
        2,
        2,
        tiles,
        [player(0, 0, "R")],
        movement_type="dice",
        min_move_distance=3,
        max_move_distance=4,
    )
    assert targets(data, roll=3) == {(1, 0, "D0", "in"), (0, 1, "R0", "in")}
    assert targets(data, roll=4) == {(0, 0, "R0", "in")}


def test_move_all_moves_everyone_current_player_first() -> None:
    tiles = [tile("L0,R0", at=(x, y)) for x in range(3) for y in range(2)]
    data = rules_data(
        3,
        2,
        tiles,
        [player(0, 0, "L"), player(0, 1, "L")],
        turn=("moveAll",),
        movement_type="forced",
        only_forward_movement=True,
    )
    data["turn_structure"] = ["moveAll", "push"]
    state = start(data)
    assert [where(state, s) for s in (0, 1)] == [(2, 0, "R0", "out"), (2, 1, "R0", "out")]
    movers = [seat for seat, text in state.happened if text.startswith("moves")]
    assert movers == [0, 1]


def test_move_all_asks_each_player_in_turn() -> None:
    data = rules_data(
        3,
        2,
        [tile("L0,R0", at=(x, y)) for x in range(3) for y in range(2)],
        [player(0, 0, "L"), player(0, 1, "L")],
        turn=("moveAll",),
    )
    state = start(data)
    assert state.current_player() == 0 and state.current_action() == "moveAll"
    state = step(state, Move(1, 0, parse_point("L0", 1)))
    assert state.current_player() == 1 and state.current_action() == "moveAll"
    state = step(state, Move(2, 1, parse_point("L0", 1)))
    assert state.current_player() == 1  # player 1's own turn now
    assert state.view(None)["turn"]["player"] == 1


def test_a_player_off_every_path_may_leave_along_any_path() -> None:
    # The player stands at U0 of a L-R straight (as after a push): it may use the tile.
    data = corridor(3)
    data["players"][0] = player(0, 0, "U")
    assert moves(start(data)) == {(0, 0, "U0"), (1, 0, "L0"), (2, 0, "L0")}
