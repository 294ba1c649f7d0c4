"""push, add and exchange with every option; hands; face-down tiles; filling the board."""

from __future__ import annotations

from typing import Any

from herna.core.errors import IllegalAction
from herna.games.tiles.actions import Add, Exchange, Push
from tests.tiles.helpers import player, rules_data, start, step, tile, where


def grid(
    cycle: bool = True, extra: list[dict[str, Any]] | None = None, **top: Any
) -> dict[str, Any]:
    """3x3 board of U-D straights, each carrying an item named after its cell."""
    tiles = [tile("U0,D0", at=(x, y), items=[f"t{x}{y}"]) for y in range(3) for x in range(3)]
    return rules_data(
        3,
        3,
        tiles + (extra or []),
        [player(0, 1, "L"), player(2, 1, "U")],
        turn=("push",),
        cycle_pushed_out_tiles=cycle,
        board={"unpushable_rows": [0, 2], "unpushable_columns": [0, 1, 2]},
        **top,
    )


def placements(state: Any) -> list[Add | Exchange]:
    return [a for a in state.legal_actions() if isinstance(a, Add | Exchange)]


def row(state: Any, y: int) -> list[str]:
    out = []
    for cell in state.view(None)["board"][y]:
        out.append(
            next(iter(cell["items"]))
            if cell and cell.get("items")
            else ("-" if cell is None else "?")
        )
    return out


def test_push_offers_only_pushable_lines_in_both_directions() -> None:
    state = start(grid())
    pushes = {(a.direction, a.index) for a in state.legal_actions() if isinstance(a, Push)}
    assert pushes == {("left", 1), ("right", 1)}
    # A straight tile has two different orientations; both are offered.
    assert {a.rotation for a in state.legal_actions() if isinstance(a, Push)} == {0, 1}


def test_push_with_cycling_moves_the_line_and_the_players() -> None:
    state = start(grid(cycle=True))
    state = step(state, Push("right", 1, 1))
    assert row(state, 1) == ["t21", "t01", "t11"]
    assert state.view(None)["board"][1][0]["connections"] == ["R0,L0"]  # turned once
    assert where(state, 0) == (1, 1, "L0", "in")  # rode its tile
    assert where(state, 1) == (0, 1, "U0", "in")  # pushed out: back in at the near end
    assert state.pile_count() == 0


def test_push_without_cycling_takes_the_pile_top_and_piles_the_pushed_out_tile() -> None:
    state = start(grid(cycle=False, extra=[tile("L0,R0", items=["spare"])]))
    assert state.pile_top() is not None
    state = step(state, Push("left", 1))
    assert row(state, 1) == ["t11", "t21", "spare"]
    top = state.pile_top()
    assert top is not None and state.tile_view(top)["items"] == {"t01": 1}
    assert state.view(None)["pile"]["known"][0]["items"] == {"t01": 1}
    # Player 0 stood on the pushed-out tile: it goes onto the tile that came in.
    assert where(state, 0) == (2, 1, "L0", "in")


def test_no_push_without_a_pile_when_not_cycling() -> None:
    data = grid(cycle=False)
    data["turn_structure"] = ["push", "add"]
    data["tiles"].append(tile("L0,R0"))
    state = start(data)  # one pile tile: the first push uses it, the pushed-out one returns
    assert state.current_action() == "push"
    data["tiles"].pop()
    data["turn_structure"] = ["push", "move"]
    state = start(data)
    assert state.current_action() == "move"  # push skipped: nothing to push in


def test_rotations_that_look_the_same_are_one_action() -> None:
    state = start(grid())
    assert state.normalize(Push("right", 1, 3)) == Push("right", 1, 1)
    after = step(state, Push("right", 1, 2))
    assert after.view(None) == step(state, Push("right", 1, 0)).view(None)


def test_illegal_pushes_are_refused_with_reasons() -> None:
    state = start(grid())
    cases: list[tuple[Push | Add, str]] = [
        (Push("up", 1), "column 1 cannot be pushed"),
        (Push("left", 0), "row 0 cannot be pushed"),
        (Add(0, 0), "now is the 'push' action"),
    ]
    for action, text in cases:
        try:
            state.apply(action)
        except IllegalAction as exc:
            assert text in exc.reason
        else:
            raise AssertionError(f"{action} was accepted")


def board_2x1(**top: Any) -> dict[str, Any]:
    tiles = [tile("L0,R0", at=(0, 0)), tile("U0,D0", items=["a"]), tile("U0,R0", items=["b"])]
    return rules_data(
        3,
        1,
        tiles,
        [player(0, 0, "L")],
        turn=("add", "push"),
        board={"unpushable_rows": [0], "unpushable_columns": [1, 2]},
        **top,
    )


def test_add_from_the_pile_anywhere() -> None:
    state = start(board_2x1(), draws=[1])
    adds = {(a.x, a.y, a.rotation, a.tile) for a in placements(state)}
    assert adds == {(1, 0, 0, None), (1, 0, 1, None), (2, 0, 0, None), (2, 0, 1, None)}
    state = step(state, Add(2, 0, 1))
    assert state.view(None)["board"][0][2]["items"] == {"a": 1}
    assert state.pile_count() == 1


def test_add_connected_only_at_the_end_of_the_players_path() -> None:
    state = start(board_2x1(adding_mode="connected"), draws=[1])
    assert {(a.x, a.y) for a in placements(state)} == {(1, 0)}


def test_add_from_the_hand_and_refill_at_the_end_of_the_turn() -> None:
    data = board_2x1(adding_from="hand", max_hand_size=1)
    data["turn_structure"] = ["add"]
    data["tiles"].append(tile("U0,D0", items=["c"]))
    state = start(data, draws=[1, 2])
    hand = state.view(0)["players"][0]["hand"]
    assert [t["items"] for t in hand] == [{"a": 1}]
    assert state.view(None)["players"][0]["hand_count"] == 1
    assert "hand" not in state.view(None)["players"][0]  # spectators see counts only
    (tid,) = state.players[0].hand
    assert {a.tile for a in placements(state)} == {tid}
    state = step(state, Add(1, 0, 0, tid), draws=[2])
    assert [t["items"] for t in state.view(0)["players"][0]["hand"]] == [{"b": 1}]
    assert state.pile_count() == 1


def test_add_is_skipped_when_there_is_nothing_to_add() -> None:
    data = board_2x1()
    data["tiles"] = data["tiles"][:1]
    data["turn_structure"] = ["add", "move", "push"]
    state = start(data)
    # No tile to add: skipped; the move has one choice (stay): played; the push waits.
    assert state.current_action() == "push"
    assert state.happened == ((0, "stays"),)


def exchange_board(**top: Any) -> dict[str, Any]:
    tiles = [tile("L0,R0", at=(x, 0), items=[f"t{x}"]) for x in range(3)]
    tiles += [tile("U0,D0", items=["new"])]
    return rules_data(
        3,
        1,
        tiles,
        [player(0, 0, "L")],
        turn=("exchange", "push"),
        board={"unpushable_rows": [0], "unpushable_columns": [0, 1, 2]},
        **top,
    )


def test_exchange_with_the_pile_anywhere_except_protected_cells() -> None:
    data = exchange_board()
    data["board"]["not_exchangeable_tiles"] = ["1,0"]
    state = start(data, draws=[3])
    assert {a.x for a in placements(state)} == {0, 2}
    state = step(state, Exchange(2, 0, 1))
    assert state.view(None)["board"][0][2]["items"] == {"new": 1}
    assert state.view(None)["board"][0][2]["connections"] == ["R0,L0"]
    top = state.pile_top()
    assert top is not None and state.tile_view(top)["items"] == {"t2": 1}  # items travel


def test_exchange_connected_only_along_the_players_path() -> None:
    tiles = [
        tile("L0,R0", at=(0, 0)),
        tile("L0,R0", at=(1, 0)),
        tile("U0,D0", at=(2, 0)),
        tile("L0,R0"),
    ]
    data = rules_data(
        3,
        1,
        tiles,
        [player(0, 0, "L")],
        turn=("exchange", "push"),
        exchanging_mode="connected",
        board={"unpushable_rows": [0], "unpushable_columns": [0, 1, 2]},
    )
    state = start(data, draws=[3])
    assert {a.x for a in placements(state)} == {0, 1}  # (2,0) does not join the path


def test_exchange_only_flipped_tiles_and_face_down_tiles_act_blank() -> None:
    data = exchange_board(exchange_only_flipped=True)
    data["tiles"][1]["face_down"] = True
    data["turn_structure"] = ["exchange", "move"]
    state = start(data, draws=[3])
    assert state.view(None)["board"][0][1] == {"face_down": True}
    assert {a.x for a in placements(state)} == {1}
    # Face down, the middle tile has no paths: the player cannot get past it.
    probe = dict(data, turn_structure=["push"])
    probe["board"] = {"width": 3, "height": 1}
    from tests.tiles.helpers import targets

    assert {t[0] for t in targets(probe)} == {0}
    state = step(state, Exchange(1, 0, 1))
    assert state.view(None)["board"][0][1]["items"] == {"new": 1}
    assert {t[0] for t in [where(state, 0)]} == {0}


def test_exchange_with_the_hand() -> None:
    data = exchange_board(exchange_with="hand", max_hand_size=1)
    state = start(data)
    (tid,) = state.players[0].hand
    state = step(state, Exchange(1, 0, 0, tid))
    assert [t["items"] for t in state.view(0)["players"][0]["hand"]] == [{"t1": 1}]
    assert state.view(None)["board"][0][1]["items"] == {"new": 1}


def test_fill_unspecified_tiles() -> None:
    tiles = [tile("L0,R0", at=(0, 0)), tile("U0,D0", amount=5)]
    data = rules_data(2, 2, tiles, [player(0, 0, "L")], turn=("push",))
    state = start(data)
    assert sum(c is None for r in state.view(None)["board"] for c in r) == 3
    assert state.pile_count() == 5
    data["fill_unspecified_tiles"] = True
    state = start(data)
    assert all(c is not None for r in state.view(None)["board"] for c in r)
    assert state.pile_count() == 2
    rotations = set()
    for seed in range(12):
        view = start(data, seed=seed).view(None)
        rotations |= {c["rotation"] for r in view["board"] for c in r if c["kind"] == 1}
    assert rotations == {0, 1, 2, 3}  # filled tiles get a random rotation


def test_located_tiles_keep_their_orientation_and_face() -> None:
    data = exchange_board()
    data["tiles"][0]["face_down"] = True
    state = start(data)
    board = state.view(None)["board"][0]
    assert board[0] == {"face_down": True}
    assert board[1]["rotation"] == 0 and board[1]["connections"] == ["L0,R0"]
