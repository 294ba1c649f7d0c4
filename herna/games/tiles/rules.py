"""``rules.json`` for the tile/path games (seed 004): loader and validator.

:func:`check_rules` checks a parsed JSON value against the shipped JSON Schema
(``rules.schema.json``, for the shape) and then runs Herna's cross-field checks (coordinates on
the board, point indices below ``paths_on_tile_side``, one tile per cell, enough random goals,
dice faces ...). Every problem is reported at once with its JSON path and what was expected;
nothing a file contains can raise anything but :class:`RulesError` from :func:`load_rules`.

>>> report = check_rules({"turn_structure": ["move"], "board": {"width": 2, "height": 1},
...                       "tiles": [{"connections": ["L0,R0"], "location": [5, 0]}],
...                       "players": [{"starting_x": 0, "starting_y": 0,
...                                    "starting_side": "L", "starting_path_index": 0}]})
>>> [str(p) for p in report.errors]
['error: tiles[0].location: column 5 is off the board (columns are 0..1)']
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped]

from herna.core.errors import HernaError
from herna.games.tiles.geometry import SIDES, Cell, make_point, parse_point, point_name

# -- limits (Herna's own, so that a file cannot make the engine run out of memory) -----------
MAX_BOARD_SIDE = 64
"""Largest ``board.width`` / ``board.height``."""
MAX_PATHS_ON_SIDE = 8
"""Largest ``board.paths_on_tile_side``."""
MAX_TILES = 5000
"""Most tiles in one game (the sum of every ``amount``)."""
MAX_PLAYERS = 16
"""Most entries in ``players``."""
MAX_FILE_BYTES = 4 * 1024 * 1024
"""Largest rules file :func:`check_rules_file` reads."""

ACTIONS = ("move", "moveAll", "push", "add", "exchange")
RULES_DIR = Path(__file__).with_name("rules")
SCHEMA_PATH = Path(__file__).with_name("rules.schema.json")

ALIASES: dict[str, str] = {
    "random_goal_pools": "random_goal_pool",
    "fill_unspecified_files": "fill_unspecified_tiles",
    "end_of_game conditions": "end_of_game_conditions",
}
"""The seed's other spellings (accepted with a warning) -> canonical field name."""

_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
_NUM = r"(?:0|[1-9][0-9]*)"
_POS = r"[1-9][0-9]*"
NAME_RE = re.compile(rf"^{_NAME}$")


# -- problems ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Problem:
    """One thing wrong (``error``) or suspicious (``warning``) in a rules file."""

    path: str
    """JSON path, e.g. ``tiles[3].connections[1]``; ``(file)`` for the file as a whole."""
    message: str
    severity: Literal["error", "warning"] = "error"

    def __str__(self) -> str:
        return f"{self.severity}: {self.path}: {self.message}"

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "message": self.message, "severity": self.severity}


class RulesError(HernaError):
    """A rules file with errors; ``problems`` lists all of them (and the warnings)."""

    def __init__(self, problems: Sequence[Problem], name: str = "") -> None:
        self.problems = tuple(problems)
        self.name = name
        errors = [p for p in self.problems if p.severity == "error"]
        head = f"rules {name!r}" if name else "rules"
        super().__init__(f"{head}: {len(errors)} error(s): " + "; ".join(map(str, errors[:3])))


def format_path(parts: Sequence[str | int]) -> str:
    """``["tiles", 3, "connections", 1]`` -> ``tiles[3].connections[1]``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part):
            out += f".{part}" if out else part
        else:
            out += f"[{json.dumps(part)}]"
    return out or "(file)"


# -- the parsed rules -------------------------------------------------------------------------
@dataclass(frozen=True)
class Goal:
    """``reach X Y``, ``collect N NAME`` or ``find NAME`` (``unknown``: a goal hidden from a
    player's view, used by bots that rebuild a state from what they see)."""

    kind: Literal["reach", "collect", "find", "unknown"]
    x: int = 0
    y: int = 0
    count: int = 0
    name: str = ""

    @property
    def text(self) -> str:
        if self.kind == "reach":
            return f"reach {self.x} {self.y}"
        if self.kind == "collect":
            return f"collect {self.count} {self.name}"
        if self.kind == "find":
            return f"find {self.name}"
        return "?"


@dataclass(frozen=True)
class RandomGoals:
    """``random N`` in a player's goals: N goals drawn from ``random_goal_pool`` at setup."""

    count: int

    @property
    def text(self) -> str:
        return f"random {self.count}"


@dataclass(frozen=True)
class Effect:
    """A tile effect: ``move X Y S I``, ``eliminate``, ``collect``, ``send X Y``, ``return``,
    ``skip N``. ``point`` is the point number of ``S I`` (see :mod:`geometry`)."""

    kind: Literal["move", "eliminate", "collect", "send", "return", "skip"]
    x: int = 0
    y: int = 0
    point: int = 0
    count: int = 0
    text: str = ""


@dataclass(frozen=True)
class Scoring:
    """``items NAME`` (items the player holds) or ``items NAME X Y`` (the store at X Y)."""

    name: str
    cell: Cell | None = None


@dataclass(frozen=True)
class TileKind:
    """One entry of ``tiles``: ``amount`` identical tiles."""

    index: int
    paths: tuple[tuple[int, ...], ...]
    connections: tuple[str, ...] = ()
    location: Cell | None = None
    face_down: bool = False
    movement_ending: bool = False
    can_turn_around: bool = False
    items: tuple[tuple[str, int], ...] = ()
    effects: tuple[Effect, ...] = ()
    amount: int = 1


@dataclass(frozen=True)
class PlayerSpec:
    start: Cell
    start_point: int
    goals: tuple[Goal | RandomGoals, ...] = ()
    scoring: tuple[Scoring, ...] = ()


@dataclass(frozen=True)
class Rules:
    """A checked rules file with every default filled in."""

    turn_structure: tuple[str, ...]
    width: int
    height: int
    tiles: tuple[TileKind, ...]
    players: tuple[PlayerSpec, ...]
    movement_type: Literal["free", "forced", "dice"] = "free"
    min_move_distance: int = 0
    max_move_distance: int = 0
    only_forward_movement: bool = False
    cycle_pushed_out_tiles: bool = True
    adding_from: Literal["pile", "hand"] = "pile"
    adding_mode: Literal["anywhere", "connected"] = "anywhere"
    exchange_with: Literal["pile", "hand"] = "pile"
    exchanging_mode: Literal["anywhere", "connected"] = "anywhere"
    exchange_only_flipped: bool = False
    max_hand_size: int = 0
    max_player_items: int = 0
    items_picked_up: int = -1
    random_goal_pool: tuple[Goal, ...] = ()
    end_of_game_conditions: tuple[str, ...] = ()
    fill_unspecified_tiles: bool = False
    unpushable_columns: frozenset[int] = frozenset()
    unpushable_rows: frozenset[int] = frozenset()
    not_exchangeable_tiles: frozenset[Cell] = frozenset()
    paths_on_tile_side: int = 1
    name: str = ""
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The JSON object the rules were read from (stored with every game record)."""
    warnings: tuple[Problem, ...] = field(default=(), compare=False, repr=False)

    @property
    def n(self) -> int:
        return self.paths_on_tile_side

    @property
    def hand_size(self) -> int:
        """``max_hand_size`` with "no hand" as 0."""
        return max(0, self.max_hand_size)

    @property
    def max_steps(self) -> int | None:
        """``max_move_distance`` with "unlimited" as None."""
        return self.max_move_distance if self.max_move_distance > 0 else None

    @property
    def tile_count(self) -> int:
        return sum(t.amount for t in self.tiles)

    def item_names(self) -> set[str]:
        return {name for t in self.tiles for name, _ in t.items}


@dataclass(frozen=True)
class RulesReport:
    """The result of checking a rules file: the rules (when there are no errors) and every
    problem found."""

    rules: Rules | None
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def ok(self) -> bool:
        return self.rules is not None


# -- string mini-languages --------------------------------------------------------------------
# Each parser returns the value or a message that says what was expected.
_GOAL_HELP = "expected a goal: 'reach X Y', 'collect N NAME' or 'find NAME'"
_EFFECT_HELP = (
    "expected an effect: 'move X Y SIDE INDEX', 'eliminate', 'collect', 'send X Y', "
    "'return' or 'skip N'"
)


def parse_goal(text: str, allow_random: bool) -> Goal | RandomGoals | str:
    """A goal string -> :class:`Goal` / :class:`RandomGoals`, or a message saying what is wrong.

    >>> parse_goal("reach 0 6", False)
    Goal(kind='reach', x=0, y=6, count=0, name='')
    >>> parse_goal("random 2", False)
    "'random N' is only allowed in players[].goals, not in the pool"
    """
    if m := re.fullmatch(rf"reach ({_NUM}) ({_NUM})", text):
        return Goal("reach", x=int(m[1]), y=int(m[2]))
    if m := re.fullmatch(rf"collect ({_POS}) ({_NAME})", text):
        return Goal("collect", count=int(m[1]), name=m[2])
    if m := re.fullmatch(rf"find ({_NAME})", text):
        return Goal("find", name=m[1])
    if m := re.fullmatch(rf"random ({_POS})", text):
        if not allow_random:
            return "'random N' is only allowed in players[].goals, not in the pool"
        return RandomGoals(int(m[1]))
    word = text.split(" ", 1)[0]
    hints = {
        "reach": "'reach X Y' takes a column and a row, e.g. 'reach 0 0'",
        "collect": "'collect N NAME' takes a count >= 1 and an item name, e.g. 'collect 5 coin'",
        "find": "'find NAME' takes one item name, e.g. 'find crown'",
        "random": "'random N' takes a count >= 1, e.g. 'random 6'",
    }
    if word in hints:
        return f"{hints[word]}; got {text!r}"
    extra = " or 'random N'" if allow_random else ""
    return f"{_GOAL_HELP}{extra}; got {text!r}"


def parse_effect(text: str, n: int) -> Effect | str:
    """An effect string -> :class:`Effect`, or a message saying what is wrong.

    >>> parse_effect("move 0 0 D 1", 2).point
    5
    """
    if m := re.fullmatch(rf"move ({_NUM}) ({_NUM}) ([UDLR]) ({_NUM})", text):
        index = int(m[4])
        if index >= n:
            return (
                f"path index {index} is out of range: with paths_on_tile_side = {n} "
                f"indices are 0..{n - 1}"
            )
        return Effect("move", x=int(m[1]), y=int(m[2]), point=make_point(m[3], index, n), text=text)
    if text in ("eliminate", "collect", "return"):
        return Effect(text, text=text)  # type: ignore[arg-type]
    if m := re.fullmatch(rf"send ({_NUM}) ({_NUM})", text):
        return Effect("send", x=int(m[1]), y=int(m[2]), text=text)
    if m := re.fullmatch(rf"skip ({_POS})", text):
        return Effect("skip", count=int(m[1]), text=text)
    word = text.split(" ", 1)[0]
    hints = {
        "move": "'move X Y SIDE INDEX' sends the player to a cell and path point, e.g. "
        "'move 0 0 D 1'",
        "send": "'send X Y' takes a column and a row, e.g. 'send 3 3'",
        "skip": "'skip N' takes a count >= 1, e.g. 'skip 2'",
    }
    if word in hints:
        return f"{hints[word]}; got {text!r}"
    return f"{_EFFECT_HELP}; got {text!r}"


def parse_item(text: str) -> tuple[str, int] | str:
    """``"coin 3"`` -> ``("coin", 3)``; ``"diamond"`` -> ``("diamond", 1)``."""
    if m := re.fullmatch(rf"({_NAME})(?: ({_POS}))?", text):
        return m[1], int(m[2]) if m[2] else 1
    return f"expected an item: 'NAME' or 'NAME COUNT' (COUNT >= 1), e.g. 'coin 3'; got {text!r}"


def parse_condition(text: str) -> str:
    """``"no coin"`` -> ``"coin"``; raises ValueError with a message otherwise."""
    if m := re.fullmatch(rf"no ({_NAME})", text):
        return m[1]
    raise ValueError(f"expected an end condition 'no NAME', e.g. 'no coin'; got {text!r}")


def parse_scoring(text: str) -> Scoring | str:
    if m := re.fullmatch(rf"items ({_NAME})(?: ({_NUM}) ({_NUM}))?", text):
        return Scoring(m[1], (int(m[2]), int(m[3])) if m[2] is not None else None)
    return (
        "expected 'items NAME' (items the player holds) or 'items NAME X Y' (the store of the "
        f"collect tile at X Y); got {text!r}"
    )


def parse_connection(text: str, n: int) -> tuple[int, ...] | str:
    """``"L1,U0,D1"`` -> point numbers, or a message (bad syntax, index out of range)."""
    parts = text.split(",")
    points = []
    for part in parts:
        if not re.fullmatch(rf"[UDLR]{_NUM}", part):
            return (
                "expected path points joined by commas, each a side letter U/R/D/L and an "
                f"index, e.g. 'L1,U0,D1'; got {text!r}"
            )
        index = int(part[1:])
        if index >= n:
            hint = " (the seed's example 'U10' means U1)" if part == "U10" else ""
            return (
                f"point {part}: index {index} is out of range, with paths_on_tile_side = {n} "
                f"indices are 0..{n - 1}{hint}"
            )
        points.append(parse_point(part, n))
    return tuple(points)


# -- schema -----------------------------------------------------------------------------------
@cache
def schema() -> dict[str, Any]:
    """The JSON Schema the rules files follow (``herna/games/tiles/rules.schema.json``)."""
    data: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return data


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(schema())


_TYPE_WORDS = {
    "integer": "an integer",
    "boolean": "true or false",
    "array": "a list",
    "object": "an object",
    "string": "a string",
}

_EXPECT: dict[str, str] = {
    "turn_structure": "a non-empty list of actions (move, moveAll, push, add, exchange)",
    "board": "the board object {width, height, ...}",
    "tiles": "a non-empty list of tile objects",
    "players": "a non-empty list of player objects",
    "width": "the number of columns, an integer >= 1",
    "height": "the number of rows, an integer >= 1",
    "starting_x": "the start column, an integer >= 0",
    "starting_y": "the start row, an integer >= 0",
    "starting_side": "one of U, R, D, L",
    "starting_path_index": "the start point's index on that side, an integer >= 0",
    "location": "[column, row]",
}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _schema_problems(data: Any, n: int) -> Iterator[Problem]:
    """Schema errors turned into readable problems (alias conflicts are reported elsewhere)."""
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    for error in errors:
        yield from _explain(error, n)


def _explain(error: ValidationError, n: int) -> Iterator[Problem]:
    parts = list(error.absolute_path)
    path = format_path(parts)
    kind = error.validator
    value = error.instance
    last = parts[-1] if parts else ""
    parent = parts[-2] if len(parts) >= 2 else ""
    if kind == "not":
        return  # both spellings of an aliased field: reported by the cross-field checks
    if kind == "required":
        assert isinstance(error.validator_value, list)
        for name in error.validator_value:
            if isinstance(value, dict) and name not in value:
                expect = _EXPECT.get(name, "")
                yield Problem(
                    format_path([*parts, name]),
                    "required field is missing" + (f": {expect}" if expect else ""),
                )
        return
    if kind == "additionalProperties":
        assert isinstance(error.schema, dict)
        known = sorted(error.schema.get("properties", {}))
        for key in value if isinstance(value, dict) else []:
            if key in known:
                continue
            near = difflib.get_close_matches(key, known, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else f"; known fields: {', '.join(known)}"
            yield Problem(format_path([*parts, key]), f"unknown field {key!r}{hint}")
        return
    if kind == "type":
        want = error.validator_value
        words = [
            _TYPE_WORDS.get(str(w), str(w)) for w in (want if isinstance(want, list) else [want])
        ]
        expect = _EXPECT.get(str(last), "")
        yield Problem(
            path,
            f"expected {' or '.join(words)}"
            + (f" ({expect})" if expect else "")
            + f", got {_json_type(value)}",
        )
        return
    if kind == "enum":
        assert isinstance(error.validator_value, list)
        options = ", ".join(str(v) for v in error.validator_value)
        hint = ""
        if isinstance(value, str):
            near = difflib.get_close_matches(value, [str(v) for v in error.validator_value], n=1)
            if near:
                hint = f" (did you mean {near[0]!r}?)"
        yield Problem(path, f"expected one of {options}; got {_short(value)}{hint}")
        return
    if kind == "minimum":
        expect = _EXPECT.get(str(last), f"an integer >= {error.validator_value}")
        yield Problem(path, f"expected {expect}; got {_short(value)}")
        return
    if kind in ("minItems", "maxItems"):
        if last == "location" or parent == "location":
            yield Problem(path, f"expected [column, row] (two integers); got {_short(value)}")
        else:
            expect = _EXPECT.get(str(last), f"at least {error.validator_value} entries")
            yield Problem(path, f"expected {expect}; got an empty list")
        return
    if kind == "uniqueItems":
        yield Problem(path, f"entries must not repeat; got {_short(value)}")
        return
    if kind == "const" and last == "amount":
        yield Problem(
            path,
            "a tile with a location must have amount 1 (one cell holds one "
            f"tile); got {_short(value)}",
        )
        return
    if kind == "pattern":
        yield Problem(path, _pattern_message(parts, value, n))
        return
    yield Problem(path, error.message)


def _pattern_message(parts: list[str | int], value: Any, n: int) -> str:
    field_name = next((p for p in reversed(parts) if isinstance(p, str)), "")
    text = str(value)
    if field_name in ("random_goal_pool", "random_goal_pools", "goals"):
        result = parse_goal(text, allow_random=field_name == "goals")
        return result if isinstance(result, str) else _GOAL_HELP
    if field_name == "effects":
        effect = parse_effect(text, max(n, 1))
        return effect if isinstance(effect, str) else _EFFECT_HELP
    if field_name == "items":
        item = parse_item(text)
        return item if isinstance(item, str) else "expected 'NAME' or 'NAME COUNT'"
    if field_name == "connections":
        conn = parse_connection(text, 10**6)
        return conn if isinstance(conn, str) else "expected points like 'L1,U0,D1'"
    if field_name in ("end_of_game_conditions", "end_of_game conditions"):
        return f"expected an end condition 'no NAME', e.g. 'no coin'; got {text!r}"
    if field_name == "end_of_game_scoring":
        scoring = parse_scoring(text)
        return scoring if isinstance(scoring, str) else "expected 'items NAME [X Y]'"
    if field_name == "not_exchangeable_tiles":
        return f"expected a cell written as 'column,row' without spaces, e.g. '0,0'; got {text!r}"
    return f"unexpected value {_short(value)}"


# -- cross-field checks -----------------------------------------------------------------------
def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    """Reads a JSON value that may be anything and collects problems.

    Types and syntax were already reported by the schema; here a wrongly typed value is
    simply skipped (its default is used) so that one mistake gives one message.
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.problems: list[Problem] = []
        self.width = 0
        self.height = 0
        self.n = 1

    def error(self, parts: Sequence[str | int], message: str) -> None:
        self.problems.append(Problem(format_path(parts), message))

    def warn(self, parts: Sequence[str | int], message: str) -> None:
        self.problems.append(Problem(format_path(parts), message, "warning"))

    # typed getters: return the default when missing or of the wrong type
    @staticmethod
    def get_int(obj: Mapping[str, Any], key: str, default: int) -> int:
        value = obj.get(key, default)
        return value if _is_int(value) else default

    @staticmethod
    def get_bool(obj: Mapping[str, Any], key: str, default: bool) -> bool:
        value = obj.get(key, default)
        return value if isinstance(value, bool) else default

    @staticmethod
    def get_str(obj: Mapping[str, Any], key: str, default: str, allowed: Sequence[str]) -> str:
        value = obj.get(key, default)
        return value if isinstance(value, str) and value in allowed else default

    @staticmethod
    def get_list(obj: Mapping[str, Any], key: str) -> list[Any]:
        value = obj.get(key, [])
        return value if isinstance(value, list) else []

    def aliased(self, canonical: str) -> tuple[str, Any]:
        """The key actually used for an aliased field and its value."""
        alias = next(a for a, c in ALIASES.items() if c == canonical)
        if canonical in self.data and alias in self.data:
            self.error(
                [alias],
                f"both {canonical!r} and its deprecated spelling {alias!r} are "
                "given; keep only " + repr(canonical),
            )
            return canonical, self.data[canonical]
        if alias in self.data:
            self.warn([alias], f"deprecated spelling of {canonical!r} (accepted; please rename)")
            return alias, self.data[alias]
        return canonical, self.data.get(canonical)

    def cell(self, parts: Sequence[str | int], x: int, y: int, what: str = "") -> bool:
        ok = True
        label = f"{what} " if what else ""
        if self.width and not 0 <= x < self.width:
            self.error(
                parts, f"{label}column {x} is off the board (columns are 0..{self.width - 1})"
            )
            ok = False
        if self.height and not 0 <= y < self.height:
            self.error(parts, f"{label}row {y} is off the board (rows are 0..{self.height - 1})")
            ok = False
        return ok

    # -- the file ---------------------------------------------------------------------------
    def run(self, name: str) -> Rules | None:
        data = self.data
        board = data.get("board") if isinstance(data.get("board"), dict) else {}
        assert isinstance(board, dict)
        self.width = self.get_int(board, "width", 0)
        self.height = self.get_int(board, "height", 0)
        self.n = max(1, self.get_int(board, "paths_on_tile_side", 1))
        for key, limit in (("width", MAX_BOARD_SIDE), ("height", MAX_BOARD_SIDE)):
            if self.get_int(board, key, 0) > limit:
                self.error(["board", key], f"at most {limit} (Herna's limit); got {board[key]}")
                self.width = self.height = 0
        if self.n > MAX_PATHS_ON_SIDE:
            self.error(
                ["board", "paths_on_tile_side"],
                f"at most {MAX_PATHS_ON_SIDE} (Herna's limit); got {self.n}",
            )
            self.n = 1
        if self.width < 1 or self.height < 1:
            self.width = self.height = 0  # unknown: skip coordinate checks

        turn = tuple(a for a in self.get_list(data, "turn_structure") if a in ACTIONS)
        movement = self.get_str(data, "movement_type", "free", ("free", "forced", "dice"))
        min_move = self.get_int(data, "min_move_distance", 0)
        max_move = self.get_int(data, "max_move_distance", 0)
        if movement == "dice":
            if max_move < 1:
                self.error(
                    ["max_move_distance"],
                    "movement_type 'dice' needs "
                    "max_move_distance >= 1 (the die's highest face); got "
                    f"{max_move}" + (" (the default)" if "max_move_distance" not in data else ""),
                )
            elif min_move > max_move:
                self.error(
                    ["min_move_distance"],
                    f"the die's lowest face ({min_move}) is above "
                    f"its highest face max_move_distance ({max_move})",
                )
        elif movement == "free" and max_move > 0 and min_move > max_move:
            self.error(
                ["min_move_distance"],
                f"min_move_distance {min_move} is above "
                f"max_move_distance {max_move}: no move would ever be legal",
            )
        elif movement == "forced" and min_move > 0:
            self.warn(
                ["min_move_distance"],
                "ignored with movement_type 'forced' (a forced "
                "move always follows its path to the end)",
            )

        hand = self.get_int(data, "max_hand_size", 0)
        adding_from = self.get_str(data, "adding_from", "pile", ("pile", "hand"))
        exchange_with = self.get_str(data, "exchange_with", "pile", ("pile", "hand"))
        for key, value in (("adding_from", adding_from), ("exchange_with", exchange_with)):
            if value == "hand" and hand <= 0:
                self.error(
                    [key],
                    "'hand' needs max_hand_size > 0 (players have no hand); "
                    f"max_hand_size is {hand}",
                )

        unpush_cols = self._lines(board, "unpushable_columns", self.width, "column")
        unpush_rows = self._lines(board, "unpushable_rows", self.height, "row")
        not_exchangeable = self._not_exchangeable(board)

        pool_key, pool_value = self.aliased("random_goal_pool")
        pool = self._goals([pool_key], pool_value if isinstance(pool_value, list) else [], False)
        cond_key, cond_value = self.aliased("end_of_game_conditions")
        conditions = []
        for text in cond_value if isinstance(cond_value, list) else []:
            if isinstance(text, str) and re.fullmatch(rf"no {_NAME}", text):
                conditions.append(parse_condition(text))  # bad syntax: reported by the schema
        _, fill_value = self.aliased("fill_unspecified_tiles")
        fill = fill_value if isinstance(fill_value, bool) else False

        tiles = self._tiles()
        players = self._players(len(pool))
        self._warnings(turn, tiles, players, pool, conditions, cond_key, board, hand)

        if any(p.severity == "error" for p in self.problems):
            return None
        return Rules(
            turn_structure=turn,
            width=self.width,
            height=self.height,
            tiles=tuple(t for t in tiles if t is not None),
            players=tuple(p for p in players if p is not None),
            movement_type=movement,  # type: ignore[arg-type]
            min_move_distance=min_move,
            max_move_distance=max_move,
            only_forward_movement=self.get_bool(data, "only_forward_movement", False),
            cycle_pushed_out_tiles=self.get_bool(data, "cycle_pushed_out_tiles", True),
            adding_from=adding_from,  # type: ignore[arg-type]
            adding_mode=self.get_str(
                data,
                "adding_mode",
                "anywhere",  # type: ignore[arg-type]
                ("anywhere", "connected"),
            ),
            exchange_with=exchange_with,  # type: ignore[arg-type]
            exchanging_mode=self.get_str(
                data,
                "exchanging_mode",  # type: ignore[arg-type]
                "anywhere",
                ("anywhere", "connected"),
            ),
            exchange_only_flipped=self.get_bool(data, "exchange_only_flipped", False),
            max_hand_size=hand,
            max_player_items=self.get_int(data, "max_player_items", 0),
            items_picked_up=self.get_int(data, "items_picked_up", -1),
            random_goal_pool=tuple(g for g in pool if isinstance(g, Goal)),
            end_of_game_conditions=tuple(conditions),
            fill_unspecified_tiles=fill,
            unpushable_columns=frozenset(unpush_cols),
            unpushable_rows=frozenset(unpush_rows),
            not_exchangeable_tiles=frozenset(not_exchangeable),
            paths_on_tile_side=self.n,
            name=name,
            data=data,
            warnings=tuple(self.problems),
        )

    def _lines(self, board: Mapping[str, Any], key: str, size: int, what: str) -> list[int]:
        out = []
        for i, value in enumerate(self.get_list(board, key)):
            if not _is_int(value) or value < 0:
                continue
            if size and value >= size:
                self.error(
                    ["board", key, i],
                    f"{what} {value} is off the board ({what}s are 0..{size - 1})",
                )
            out.append(value)
        return out

    def _not_exchangeable(self, board: Mapping[str, Any]) -> list[Cell]:
        out = []
        for i, text in enumerate(self.get_list(board, "not_exchangeable_tiles")):
            if isinstance(text, str) and (m := re.fullmatch(rf"({_NUM}),({_NUM})", text)):
                x, y = int(m[1]), int(m[2])
                if self.cell(["board", "not_exchangeable_tiles", i], x, y):
                    out.append((x, y))
        return out

    def _goals(
        self, parts: list[str | int], values: list[Any], allow_random: bool
    ) -> list[Goal | RandomGoals]:
        out: list[Goal | RandomGoals] = []
        for j, text in enumerate(values):
            if not isinstance(text, str):
                continue
            goal = parse_goal(text, allow_random)
            if isinstance(goal, str):
                continue  # the schema reported the syntax
            if isinstance(goal, Goal) and goal.kind == "reach":
                self.cell([*parts, j], goal.x, goal.y, "goal")
            out.append(goal)
        return out

    def _tiles(self) -> list[TileKind | None]:
        out: list[TileKind | None] = []
        placed: dict[Cell, int] = {}
        total = 0
        for i, tile in enumerate(self.get_list(self.data, "tiles")):
            if not isinstance(tile, dict):
                out.append(None)
                continue
            at: list[str | int] = ["tiles", i]
            paths = []
            conn_strings = []
            seen: dict[int, int] = {}
            for j, text in enumerate(self.get_list(tile, "connections")):
                if not isinstance(text, str):
                    continue
                points = parse_connection(text, self.n)
                if isinstance(points, str):
                    if re.fullmatch(rf"[UDLR]{_NUM}(,[UDLR]{_NUM})*", text):
                        self.error([*at, "connections", j], points)  # index out of range
                    continue
                for p in points:
                    if p in seen:
                        where = (
                            "earlier in this path" if seen[p] == j else f"in connections[{seen[p]}]"
                        )
                        self.error(
                            [*at, "connections", j],
                            f"point {point_name(p, self.n)} is used twice ({where}); a "
                            "point belongs to one path of a tile",
                        )
                    seen[p] = j
                paths.append(points)
                conn_strings.append(text)
            location: Cell | None = None
            loc = tile.get("location")
            if isinstance(loc, list) and len(loc) == 2 and all(_is_int(v) and v >= 0 for v in loc):
                x, y = loc
                if self.cell([*at, "location"], x, y):
                    location = (x, y)
                    if location in placed:
                        self.error(
                            [*at, "location"],
                            f"cell ({x}, {y}) already holds "
                            f"tiles[{placed[location]}]; one cell holds one tile",
                        )
                    else:
                        placed[location] = i
            amount = self.get_int(tile, "amount", 1)
            amount = max(amount, 1)
            total += amount
            items: dict[str, int] = {}
            for j, text in enumerate(self.get_list(tile, "items")):
                if isinstance(text, str) and not isinstance(item := parse_item(text), str):
                    if item[0] in items:
                        self.warn(
                            [*at, "items", j],
                            f"item {item[0]!r} is listed twice on this tile; the counts are added",
                        )
                    items[item[0]] = items.get(item[0], 0) + item[1]
            effects = []
            for j, text in enumerate(self.get_list(tile, "effects")):
                if not isinstance(text, str):
                    continue
                effect = parse_effect(text, self.n)
                if isinstance(effect, str):
                    if text.startswith("move ") and "out of range" in effect:
                        self.error([*at, "effects", j], effect)
                    continue
                if effect.kind in ("move", "send"):
                    self.cell([*at, "effects", j], effect.x, effect.y, "target")
                effects.append(effect)
            out.append(
                TileKind(
                    index=i,
                    paths=tuple(paths),
                    connections=tuple(conn_strings),
                    location=location,
                    face_down=self.get_bool(tile, "face_down", False),
                    movement_ending=self.get_bool(tile, "movement_ending", False),
                    can_turn_around=self.get_bool(tile, "can_turn_around", False),
                    items=tuple(items.items()),
                    effects=tuple(effects),
                    amount=amount,
                )
            )
        if total > MAX_TILES:
            self.error(["tiles"], f"{total} tiles in all; Herna's limit is {MAX_TILES}")
        return out

    def _players(self, pool_size: int) -> list[PlayerSpec | None]:
        out: list[PlayerSpec | None] = []
        players = self.get_list(self.data, "players")
        if len(players) > MAX_PLAYERS:
            self.error(["players"], f"{len(players)} players; Herna's limit is {MAX_PLAYERS}")
        drawn = 0
        for i, player in enumerate(players):
            if not isinstance(player, dict):
                out.append(None)
                continue
            at: list[str | int] = ["players", i]
            x = self.get_int(player, "starting_x", -1)
            y = self.get_int(player, "starting_y", -1)
            side = player.get("starting_side")
            index = self.get_int(player, "starting_path_index", -1)
            ok = x >= 0 and y >= 0 and isinstance(side, str) and side in tuple(SIDES) and index >= 0
            if x >= 0 and self.width and x >= self.width:
                self.error(
                    [*at, "starting_x"],
                    f"column {x} is off the board (columns are 0..{self.width - 1})",
                )
                ok = False
            if y >= 0 and self.height and y >= self.height:
                self.error(
                    [*at, "starting_y"], f"row {y} is off the board (rows are 0..{self.height - 1})"
                )
                ok = False
            if index >= self.n:
                self.error(
                    [*at, "starting_path_index"],
                    f"index {index} is out of range: with "
                    f"paths_on_tile_side = {self.n} indices are 0..{self.n - 1}",
                )
                ok = False
            goals_raw = self.get_list(player, "goals")
            goals = self._goals([*at, "goals"], goals_raw, True)
            for j, goal in enumerate(goals):
                if isinstance(goal, RandomGoals):
                    drawn += goal.count
                    if drawn > pool_size:
                        self.error(
                            [*at, "goals", j],
                            f"{drawn} random goals are asked for up to "
                            f"here but random_goal_pool holds {pool_size} (goals are "
                            "drawn without replacement)",
                        )
            scoring = []
            for j, text in enumerate(self.get_list(player, "end_of_game_scoring")):
                if isinstance(text, str) and not isinstance(sc := parse_scoring(text), str):
                    if sc.cell is not None:
                        self.cell([*at, "end_of_game_scoring", j], *sc.cell)
                    scoring.append(sc)
            if not ok:
                out.append(None)
                continue
            assert isinstance(side, str)
            out.append(
                PlayerSpec(
                    start=(x, y),
                    start_point=make_point(side, index, self.n),
                    goals=tuple(goals),
                    scoring=tuple(scoring),
                )
            )
        return out

    def _warnings(
        self,
        turn: tuple[str, ...],
        tiles: list[TileKind | None],
        players: list[PlayerSpec | None],
        pool: list[Goal | RandomGoals],
        conditions: list[str],
        cond_key: str,
        board: Mapping[str, Any],
        hand: int,
    ) -> None:
        kinds = [t for t in tiles if t is not None]
        carried = {name for t in kinds for name, _ in t.items}
        max_items = self.get_int(self.data, "max_player_items", 0)

        def check_name(parts: list[str | int], name: str, what: str) -> None:
            if name not in carried:
                self.warn(parts, f"{what} {name!r}: no tile carries an item of that name")

        for j, goal in enumerate(pool):
            if isinstance(goal, Goal) and goal.kind in ("find", "collect"):
                key = (
                    "random_goal_pools" if "random_goal_pools" in self.data else "random_goal_pool"
                )
                check_name([key, j], goal.name, "item")
        for i, p in enumerate(players):
            if p is None:
                continue
            for j, goal in enumerate(p.goals):
                if isinstance(goal, Goal) and goal.kind in ("find", "collect"):
                    check_name(["players", i, "goals", j], goal.name, "item")
                if isinstance(goal, Goal) and goal.kind == "collect" and max_items == 0:
                    self.warn(
                        ["players", i, "goals", j],
                        "a 'collect' goal can never be met: "
                        "max_player_items is 0, so players never take items",
                    )
            for j, sc in enumerate(p.scoring):
                check_name(["players", i, "end_of_game_scoring", j], sc.name, "item")
                if sc.cell is None and max_items == 0:
                    self.warn(
                        ["players", i, "end_of_game_scoring", j],
                        "players never hold items (max_player_items is 0), so this always scores 0",
                    )
            if p.scoring and not conditions:
                self.warn(
                    ["players", i, "end_of_game_scoring"],
                    "end_of_game_scoring only "
                    "counts when an end_of_game_conditions entry ends the game, and there "
                    "is none",
                )
        for j, name in enumerate(conditions):
            check_name([cond_key, j], name, "item")
        has_elimination = any(e.kind == "eliminate" for t in kinds for e in t.effects)
        if not conditions and not has_elimination:
            for i, p in enumerate(players):
                if p is not None and not p.goals:
                    self.warn(
                        ["players", i],
                        "this player has no goals, and with no "
                        "'eliminate' effect and no end_of_game_conditions it can never win",
                    )
        if "push" in turn and self.width and self.height:
            cols = {v for v in self.get_list(board, "unpushable_columns") if _is_int(v)}
            rows = {v for v in self.get_list(board, "unpushable_rows") if _is_int(v)}
            if cols >= set(range(self.width)) and rows >= set(range(self.height)):
                self.warn(
                    ["turn_structure"],
                    "'push' is listed but every row and column is "
                    "unpushable, so it is always skipped",
                )
        if (
            "exchange" in turn
            and self.get_bool(self.data, "exchange_only_flipped", False)
            and not any(t.face_down for t in kinds)
        ):
            self.warn(
                ["exchange_only_flipped"],
                "no tile starts face down, so 'exchange' is always skipped",
            )
        if max_items == 0 and any(e.kind == "collect" for t in kinds for e in t.effects):
            self.warn(
                ["max_player_items"],
                "a tile has the 'collect' effect but players never "
                "hold items (max_player_items is 0)",
            )
        if hand > 0 and "add" not in turn and "exchange" not in turn:
            self.warn(
                ["max_hand_size"],
                "players hold tiles but turn_structure has neither "
                "'add' nor 'exchange' to use them",
            )


# -- entry points -----------------------------------------------------------------------------
def check_rules(data: Any, name: str = "") -> RulesReport:
    """Check a parsed JSON value; never raises for anything the value contains."""
    n = 1
    if isinstance(data, dict) and isinstance(data.get("board"), dict):
        value = data["board"].get("paths_on_tile_side", 1)
        n = value if _is_int(value) and 1 <= value <= MAX_PATHS_ON_SIDE else 1
    problems = _unique(_schema_problems(data, n))
    if not isinstance(data, dict):
        return RulesReport(None, tuple(problems))
    checker = _Checker(data)
    rules = checker.run(name)
    # A schema error is reported once even if a cross-field check saw the same spot.
    seen = {(p.path, p.message) for p in problems}
    problems += [p for p in checker.problems if (p.path, p.message) not in seen]
    problems.sort(key=lambda p: (p.severity != "error", _path_key(p.path)))
    if any(p.severity == "error" for p in problems):
        rules = None
    elif rules is not None:
        rules = _with_warnings(rules, problems)
    return RulesReport(rules, tuple(problems))


def _unique(problems: Iterator[Problem]) -> list[Problem]:
    out: list[Problem] = []
    seen: set[Problem] = set()
    for p in problems:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


def _with_warnings(rules: Rules, problems: list[Problem]) -> Rules:
    from dataclasses import replace

    return replace(rules, warnings=tuple(problems))


def _path_key(path: str) -> list[tuple[int, str | int]]:
    out: list[tuple[int, str | int]] = []
    for token in re.findall(r"\[(\d+)\]|\[(\"[^\"]*\")\]|([^.\[\]]+)", path):
        if token[0]:
            out.append((0, int(token[0])))
        else:
            out.append((1, token[1] or token[2]))
    return out


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def check_rules_text(text: str, name: str = "") -> RulesReport:
    """Check the text of a rules file (JSON syntax, duplicate keys, then :func:`check_rules`)."""
    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicates)
    except _DuplicateKey as exc:
        return RulesReport(
            None,
            (
                Problem(
                    "(file)",
                    f"the key {exc.key!r} appears twice in one "
                    "object; JSON readers would silently keep the last",
                ),
            ),
        )
    except json.JSONDecodeError as exc:
        return RulesReport(
            None,
            (
                Problem(
                    "(file)", f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
                ),
            ),
        )
    except RecursionError:
        return RulesReport(None, (Problem("(file)", "not valid JSON: nested too deeply"),))
    return check_rules(data, name)


def check_rules_file(path: str | Path) -> RulesReport:
    """Read and check a rules file; unreadable files are reported as problems too."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return RulesReport(None, (Problem("(file)", f"larger than {MAX_FILE_BYTES} bytes"),))
        raw = path.read_bytes()
    except OSError as exc:
        return RulesReport(None, (Problem("(file)", f"cannot read {path}: {exc.strerror}"),))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return RulesReport(None, (Problem("(file)", f"not UTF-8 text (byte {exc.start})"),))
    return check_rules_text(text, path.stem)


def load_rules(data: Any, name: str = "") -> Rules:
    """Checked :class:`Rules` from a parsed JSON value; raises :class:`RulesError`."""
    report = check_rules(data, name)
    if report.rules is None:
        raise RulesError(report.problems, name)
    return report.rules


def load_rules_file(path: str | Path) -> Rules:
    report = check_rules_file(path)
    if report.rules is None:
        raise RulesError(report.problems, Path(path).stem)
    return report.rules


def shipped_rules() -> dict[str, Path]:
    """The rules files that ship with Herna, by name (file stem)."""
    return {p.stem: p for p in sorted(RULES_DIR.glob("*.json"))}


def resolve_rules_path(name_or_path: str) -> Path:
    """A shipped rules name (``labyrinth``) or a file path -> path."""
    shipped = shipped_rules()
    if name_or_path in shipped:
        return shipped[name_or_path]
    return Path(name_or_path)


def rules_key(data: Any) -> str:
    """A short fingerprint of a rules object (same content, same key, whatever the spacing)."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]
