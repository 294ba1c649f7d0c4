"""The rules.json loader and validator: defaults, aliases, every cross-field check, and no
traceback for any input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herna.games.tiles.geometry import parse_point
from herna.games.tiles.rules import (
    Goal,
    RandomGoals,
    RulesError,
    check_rules,
    check_rules_file,
    check_rules_text,
    load_rules,
    load_rules_file,
    shipped_rules,
)
from tests.tiles.helpers import corridor, player, rules_data, tile


def errors(data: Any) -> dict[str, str]:
    return {p.path: p.message for p in check_rules(data).errors}


def warnings(data: Any) -> dict[str, str]:
    return {p.path: p.message for p in check_rules(data).warnings}


@pytest.mark.parametrize("name", ["labyrinth", "tsuro", "dungeon", "gold_rush"])
def test_shipped_rules_are_valid_without_warnings(name: str) -> None:
    report = check_rules_file(shipped_rules()[name])
    assert report.ok, report.problems
    assert report.problems == ()


def test_defaults_of_the_seed() -> None:
    rules = load_rules(corridor())
    assert rules.movement_type == "free"
    assert (rules.min_move_distance, rules.max_move_distance, rules.max_steps) == (0, 0, None)
    assert rules.only_forward_movement is False
    assert rules.cycle_pushed_out_tiles is True
    assert (rules.adding_from, rules.adding_mode) == ("pile", "anywhere")
    assert (rules.exchange_with, rules.exchanging_mode) == ("pile", "anywhere")
    assert rules.exchange_only_flipped is False
    assert (rules.max_hand_size, rules.max_player_items, rules.items_picked_up) == (0, 0, -1)
    assert rules.random_goal_pool == () and rules.end_of_game_conditions == ()
    assert rules.fill_unspecified_tiles is False
    assert rules.paths_on_tile_side == 1
    assert rules.unpushable_rows == frozenset() and rules.not_exchangeable_tiles == frozenset()
    kind = rules.tiles[0]
    assert (kind.face_down, kind.movement_ending, kind.can_turn_around, kind.amount) == (
        False,
        False,
        False,
        1,
    )
    assert kind.items == () and kind.effects == ()
    assert rules.players[0].goals == () and rules.players[0].scoring == ()


def test_fields_are_parsed() -> None:
    data = rules_data(
        3,
        3,
        [
            tile(
                "L1,U0,D1",
                "U1,D0",
                at=(1, 1),
                items=["coin 3", "diamond"],
                effects=["move 0 0 D 1", "skip 2", "send 2 2", "collect", "return", "eliminate"],
                face_down=True,
                movement_ending=True,
                can_turn_around=True,
            ),
            tile("U0,D0", amount=4),
        ],
        [
            player(
                0,
                0,
                "D",
                1,
                goals=["reach 2 2", "random 1", "collect 2 coin", "find diamond"],
                end_of_game_scoring=["items coin", "items coin 1 1"],
            )
        ],
        board={
            "paths_on_tile_side": 2,
            "unpushable_rows": [0],
            "unpushable_columns": [2],
            "not_exchangeable_tiles": ["0,0", "2,1"],
        },
        random_goal_pool=["find coin", "reach 1 1"],
        end_of_game_conditions=["no coin"],
        max_player_items=5,
    )
    rules = load_rules(data)
    kind = rules.tiles[0]
    assert kind.paths == (
        (parse_point("L1", 2), parse_point("U0", 2), parse_point("D1", 2)),
        (parse_point("U1", 2), parse_point("D0", 2)),
    )
    assert kind.items == (("coin", 3), ("diamond", 1))
    assert [e.kind for e in kind.effects] == [
        "move",
        "skip",
        "send",
        "collect",
        "return",
        "eliminate",
    ]
    assert kind.effects[0].point == parse_point("D1", 2) and kind.effects[1].count == 2
    assert rules.tiles[1].amount == 4 and rules.tile_count == 5
    spec = rules.players[0]
    assert spec.start_point == parse_point("D1", 2)
    assert spec.goals == (
        Goal("reach", 2, 2),
        RandomGoals(1),
        Goal("collect", count=2, name="coin"),
        Goal("find", name="diamond"),
    )
    assert [(s.name, s.cell) for s in spec.scoring] == [("coin", None), ("coin", (1, 1))]
    assert rules.not_exchangeable_tiles == {(0, 0), (2, 1)}
    assert rules.end_of_game_conditions == ("coin",)


@pytest.mark.parametrize(
    ("alias", "canonical", "value"),
    [
        ("random_goal_pools", "random_goal_pool", ["reach 1 0"]),
        ("fill_unspecified_files", "fill_unspecified_tiles", True),
        ("end_of_game conditions", "end_of_game_conditions", []),
    ],
)
def test_the_seeds_misspellings_are_accepted_with_a_warning(
    alias: str, canonical: str, value: Any
) -> None:
    data = corridor(**{alias: value})
    report = check_rules(data)
    assert report.ok
    path = alias if " " not in alias else f'["{alias}"]'
    assert canonical in warnings(data)[path]
    both = corridor(**{alias: value, canonical: value})
    assert any("both" in m for m in errors(both).values())


def test_aliases_mean_the_same_as_the_canonical_names() -> None:
    a = load_rules(corridor(fill_unspecified_files=True, random_goal_pools=["reach 1 0"]))
    b = load_rules(corridor(fill_unspecified_tiles=True, random_goal_pool=["reach 1 0"]))
    assert a.fill_unspecified_tiles and b.fill_unspecified_tiles
    assert a.random_goal_pool == b.random_goal_pool


def test_every_problem_is_reported_at_once_with_its_path() -> None:
    data = {
        "turn_structure": ["move", "jump"],
        "movement_type": "dice",
        "board": {
            "width": 3,
            "height": 2,
            "paths_on_tile_side": 2,
            "unpushable_rows": [5],
            "not_exchangeable_tiles": ["0, 0", "9,0"],
        },
        "random_goal_pool": ["find gold", "random 2"],
        "tiles": [
            {
                "connections": ["U10,D0", "L1,U0,U0"],
                "location": [1, 1],
                "amount": 2,
                "effects": ["move 0 0 D 3", "teleport", "send 5 0"],
                "items": ["coin 0"],
            },
            {"location": [1, 1]},
            {"connectons": []},
            {"location": [7, 0]},
        ],
        "players": [
            {
                "starting_x": 3,
                "starting_y": 0,
                "starting_side": "X",
                "starting_path_index": 2,
                "goals": ["random 3", "collect 0 gold", "reach 1"],
            },
            {},
        ],
        "adding_from": "hand",
    }
    found = errors(data)
    expected = {
        "turn_structure[1]": "expected one of move, moveAll",
        "max_move_distance": "dice",
        "board.unpushable_rows[0]": "row 5 is off the board",
        "board.not_exchangeable_tiles[0]": "'column,row' without spaces",
        "board.not_exchangeable_tiles[1]": "column 9 is off the board",
        "random_goal_pool[1]": "only allowed in players[].goals",
        "tiles[0].connections[0]": "U10: index 10 is out of range",
        "tiles[0].connections[1]": "point U0 is used twice",
        "tiles[0].amount": "a tile with a location must have amount 1",
        "tiles[0].effects[0]": "path index 3 is out of range",
        "tiles[0].effects[1]": "expected an effect",
        "tiles[0].effects[2]": "column 5 is off the board",
        "tiles[0].items[0]": "expected an item",
        "tiles[1].location": "already holds tiles[0]",
        "tiles[2].connectons": "did you mean 'connections'",
        "tiles[3].location": "column 7 is off the board",
        "players[0].starting_x": "column 3 is off the board",
        "players[0].starting_side": "expected one of U, D, L, R",
        "players[0].starting_path_index": "index 2 is out of range",
        "players[0].goals[0]": "random goals are asked for up to here but random_goal_pool holds 1",
        "players[0].goals[1]": "'collect N NAME' takes a count >= 1",
        "players[0].goals[2]": "'reach X Y' takes a column and a row",
        "players[1].starting_x": "required field is missing",
        "players[1].starting_side": "required field is missing",
        "adding_from": "needs max_hand_size > 0",
    }
    for path, text in expected.items():
        assert path in found, (path, found)
        assert text in found[path], (path, found[path])


@pytest.mark.parametrize(
    ("change", "path", "text"),
    [
        (
            {"movement_type": "dice", "max_move_distance": 3, "min_move_distance": 4},
            "min_move_distance",
            "lowest face",
        ),
        ({"min_move_distance": -1}, "min_move_distance", ">= 0"),
        (
            {"max_move_distance": 2, "min_move_distance": 3},
            "min_move_distance",
            "would ever be legal",
        ),
        ({"exchange_with": "hand", "max_hand_size": 0}, "exchange_with", "max_hand_size > 0"),
        ({"turn_structure": []}, "turn_structure", "non-empty list"),
        ({"turn_structure": ["moveall"]}, "turn_structure[0]", "did you mean 'moveAll'"),
        ({"board": {"width": 0, "height": 1}}, "board.width", ">= 1"),
        ({"board": {"width": 500, "height": 1}}, "board.width", "Herna's limit"),
        (
            {"board": {"width": 4, "height": 1, "paths_on_tile_side": 0}},
            "board.paths_on_tile_side",
            ">= 1",
        ),
        ({"tiles": []}, "tiles", "non-empty list"),
        ({"items_picked_up": 1.5}, "items_picked_up", "expected an integer"),
        ({"only_forward_movement": "yes"}, "only_forward_movement", "true or false"),
        ({"end_of_game_conditions": ["none coin"]}, "end_of_game_conditions[0]", "'no NAME'"),
    ],
)
def test_single_problems(change: dict[str, Any], path: str, text: str) -> None:
    data = corridor()
    data.update(change)
    found = errors(data)
    assert path in found, found
    assert text in found[path]


def test_location_must_be_a_pair_and_scoring_in_range() -> None:
    data = corridor()
    data["tiles"].append(tile("U0,D0", location=[1]))
    data["players"][0]["end_of_game_scoring"] = ["items coin 9 9", "points coin"]
    found = errors(data)
    assert "[column, row]" in found["tiles[4].location"]
    assert "off the board" in found["players[0].end_of_game_scoring[0]"]
    assert "items NAME" in found["players[0].end_of_game_scoring[1]"]


def test_warnings_do_not_reject_the_file() -> None:
    data = corridor(random_goal_pool=["find unicorn"], end_of_game_conditions=["no gold"])
    data["players"][0]["goals"] = ["collect 2 gold"]
    data["players"][0]["end_of_game_scoring"] = ["items gold"]
    report = check_rules(data)
    assert report.ok
    texts = " | ".join(str(p) for p in report.warnings)
    assert "'unicorn': no tile carries" in texts
    assert "max_player_items is 0" in texts
    assert report.rules is not None and len(report.rules.warnings) == len(report.warnings)


def test_a_player_who_can_never_win_is_warned_about() -> None:
    assert "can never win" in warnings(corridor())["players[0]"]


def test_bad_json_and_duplicate_keys() -> None:
    assert "line 1 column" in check_rules_text("{").errors[0].message
    assert "appears twice" in check_rules_text('{"board": {}, "board": {}}').errors[0].message
    assert "expected an object" in check_rules_text("[1, 2]").errors[0].message


def test_unreadable_file_is_a_problem_not_an_exception(tmp_path: Path) -> None:
    report = check_rules_file(tmp_path / "missing.json")
    assert not report.ok and "cannot read" in report.errors[0].message
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    assert "UTF-8" in check_rules_file(tmp_path / "bin.json").errors[0].message


def test_load_rules_raises_rules_error_with_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"turn_structure": [], "board": {}, "tiles": [], "players": []}))
    with pytest.raises(RulesError) as info:
        load_rules_file(path)
    assert len([p for p in info.value.problems if p.severity == "error"]) >= 5


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 70)
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "move",
            "U0,D0",
            "reach 0 0",
            "random 2",
            "no coin",
            "0,0",
            "L1",
            "items coin 0 0",
            "move 0 0 D 1",
            "coin 2",
            "dice",
            "hand",
        ]
    ),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "turn_structure",
                    "board",
                    "tiles",
                    "players",
                    "width",
                    "height",
                    "connections",
                    "location",
                    "starting_x",
                    "starting_y",
                    "starting_side",
                    "starting_path_index",
                    "goals",
                    "items",
                    "effects",
                    "amount",
                    "movement_type",
                    "max_move_distance",
                    "paths_on_tile_side",
                    "random_goal_pool",
                    "adding_from",
                    "max_hand_size",
                    "x",
                ]
            ),
            children,
            max_size=6,
        )
    ),
    max_leaves=30,
)


@settings(deadline=None, max_examples=150)
@given(json_values)
def test_no_input_makes_the_checker_raise(value: Any) -> None:
    report = check_rules(value)
    assert report.ok == (report.rules is not None)
    for problem in report.problems:
        assert problem.path and problem.message


@settings(deadline=None, max_examples=60)
@given(st.data())
def test_mutated_examples_never_raise(data: st.DataObject) -> None:
    base = json.loads(
        shipped_rules()[data.draw(st.sampled_from(sorted(shipped_rules())))].read_text()
    )
    for _ in range(data.draw(st.integers(1, 4))):
        section = data.draw(st.sampled_from(["tiles", "players", None]))
        target: Any = base
        if section and isinstance(base.get(section), list) and base[section]:
            target = base[section][data.draw(st.integers(0, len(base[section]) - 1))]
        if not isinstance(target, dict) or not target:
            continue
        key = data.draw(st.sampled_from(sorted(target)))
        target[key] = data.draw(json_values)
    report = check_rules(base)
    assert report.ok or report.errors


def test_doctests_of_the_tile_modules() -> None:
    import doctest
    import importlib

    for name in ("geometry", "rules", "rules_model", "rules_checks", "actions", "engine"):
        module = importlib.import_module(f"herna.games.tiles.{name}")
        assert doctest.testmod(module).failed == 0, name
    module = importlib.import_module("herna.protocols.tiles")
    assert doctest.testmod(module).failed == 0
