"""``herna rules check`` on hand-made broken rules files: every problem in one run, each at the
entry of the file it is about, schema and cross-field problems together."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from herna.cli import main
from herna.games.tiles.rules import check_rules, check_rules_text
from tests.tiles.helpers import corridor, tile


def problems(data: dict[str, Any]) -> set[tuple[str, str, str]]:
    """(severity, path, message) of every problem."""
    return {(p.severity, p.path, p.message) for p in check_rules(data).problems}


def paths(data: dict[str, Any], severity: str = "error") -> list[str]:
    return [p.path for p in check_rules(data).problems if p.severity == severity]


def check_json(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> list[Any]:
    """``herna rules check --json`` on a file holding ``text``: its problems (exit 1)."""
    path = tmp_path / "broken.json"
    path.write_text(text, encoding="utf-8")
    assert main(["rules", "check", "--json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["file"] == str(path) and report["valid"] is False
    out: list[Any] = report["problems"]
    return out


def test_a_random_goal_error_points_at_its_own_goal_after_malformed_ones() -> None:
    data = corridor(4, random_goal_pool=["reach 1 0"])
    data["players"][0]["goals"] = ["bogus", 5, "random 2"]
    assert paths(data) == ["players[0].goals[0]", "players[0].goals[1]", "players[0].goals[2]"]
    assert any(
        path == "players[0].goals[2]" and message.startswith("2 random goals are asked for")
        for _, path, message in problems(data)
    )


def test_warnings_point_at_their_own_entry_after_malformed_ones() -> None:
    data = corridor(
        4,
        random_goal_pool=["bogus", "find gem"],
        end_of_game_conditions=["no", "no gem"],
        max_player_items=-1,
    )
    data["players"][0]["goals"] = [7, "find ruby"]
    data["players"][0]["end_of_game_scoring"] = ["points", "items gem"]
    warned = paths(data, "warning")
    for path in (
        "random_goal_pool[1]",
        "end_of_game_conditions[1]",
        "players[0].goals[1]",
        "players[0].end_of_game_scoring[1]",
    ):
        assert path in warned, (path, warned)
    for path in (
        "random_goal_pool[0]",
        "end_of_game_conditions[0]",
        "players[0].goals[0]",
        "players[0].end_of_game_scoring[0]",
    ):
        assert path in paths(data) and path not in warned


def test_min_above_max_or_below_a_negative_max_is_refused() -> None:
    for movement, low, high, path in [
        ("free", 3, 2, "min_move_distance"),
        ("forced", 3, 2, "min_move_distance"),
        ("dice", 3, 2, "min_move_distance"),
        ("free", 2, -1, "max_move_distance"),
        ("forced", 1, -5, "max_move_distance"),
        ("dice", 1, -1, "max_move_distance"),
    ]:
        data = corridor(4, movement_type=movement, min_move_distance=low, max_move_distance=high)
        report = check_rules(data)
        assert report.rules is None, (movement, low, high)
        assert [p.path for p in report.errors] == [path], (movement, low, high)
    # 0 or a negative maximum is "no limit" (the seed's rule): with no minimum it loads.
    data = corridor(4, max_move_distance=-1)
    report = check_rules(data)
    assert report.rules is not None and report.rules.max_steps is None
    assert "max_move_distance" in [p.path for p in report.warnings]


def test_schema_problems_do_not_hide_cross_field_problems() -> None:
    data = corridor(4, turn_structure=["move", "jump"])
    data["board"]["height"] = "1"  # schema: a string; the width is still known
    data["tiles"][1]["location"] = [9, 0]  # cross-field: off the board
    data["tiles"][2]["location"] = [7, -1]  # schema for the row, cross-field for the column
    data["tiles"][3]["effects"] = ["move 9 0 U 5"]  # bad index and a target off the board
    assert problems(data) >= {
        (
            "error",
            "turn_structure[1]",
            'expected one of move, moveAll, push, add, exchange; got "jump"',
        ),
        (
            "error",
            "board.height",
            "expected an integer (the number of rows, an integer >= 1), got a string",
        ),
        ("error", "tiles[1].location", "column 9 is off the board (columns are 0..3)"),
        ("error", "tiles[2].location[1]", "expected an integer >= 0; got -1"),
        ("error", "tiles[2].location", "column 7 is off the board (columns are 0..3)"),
        (
            "error",
            "tiles[3].effects[0]",
            "path index 5 is out of range: with paths_on_tile_side = 1 indices are 0..0",
        ),
        ("error", "tiles[3].effects[0]", "target column 9 is off the board (columns are 0..3)"),
    }


def test_a_bad_field_gives_one_message_not_a_wrong_one_elsewhere() -> None:
    # A hand size that is not a number: the schema says so; 'hand' is not blamed for it.
    data = corridor(4, adding_from="hand", max_hand_size="3", turn_structure=["move", "add"])
    assert paths(data) == ["max_hand_size"]
    # A pool that is not a list: its size is unknown, so 'random 1' is not blamed either.
    data = corridor(4, random_goal_pool="reach 1 0")
    data["players"][0]["goals"] = ["random 1"]
    assert paths(data) == ["random_goal_pool"]
    # An unreadable paths_on_tile_side: the points are not all declared out of range.
    data = corridor(4)
    data["board"]["paths_on_tile_side"] = "2"
    data["tiles"][0]["connections"] = ["L1,R1"]
    assert paths(data) == ["board.paths_on_tile_side"]
    data["board"]["paths_on_tile_side"] = 9
    assert paths(data) == ["board.paths_on_tile_side"]


def test_one_run_of_herna_rules_check_reports_everything_at_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = corridor(4, random_goal_pool=["reach 1 0"], min_move_distance=3, max_move_distance=2)
    data["board"]["height"] = 0
    data["tiles"].append(tile("L0,R0", at=(4, 0), colour="red"))
    data["players"][0]["goals"] = ["reach 9", "random 2"]
    text = json.dumps(data, indent=1)
    # The same key twice: noted, and the rest of the file is still checked (the last wins).
    text = text.replace('"min_move_distance": 3', '"min_move_distance": 1, "min_move_distance": 3')
    found = {(p["severity"], p["path"]) for p in check_json(tmp_path, capsys, text)}
    assert found >= {
        ("error", "(file)"),  # min_move_distance twice
        ("error", "board.height"),  # schema
        ("error", "tiles[4].colour"),  # schema: unknown field
        ("error", "tiles[4].location"),  # cross-field: column 4 is off the board
        ("error", "players[0].goals[0]"),  # schema: not a goal
        ("error", "players[0].goals[1]"),  # cross-field: 2 random goals, pool of 1
        ("error", "min_move_distance"),  # cross-field: 3 > 2
    }, found
    assert check_rules_text(text).rules is None
