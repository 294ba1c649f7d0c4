"""The parsed form of a ``rules.json`` (seed 004) and the parsers of its string mini-languages
(goals, effects, items, connections ...), shared by the checks in :mod:`.rules_checks` and the
entry points in :mod:`.rules`, which re-exports everything here."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from herna.core.errors import HernaError
from herna.games.tiles.geometry import Cell, make_point, parse_point

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
UNKNOWN_N = 10**6
"""``paths_on_tile_side`` while checking a file whose own value is unreadable: large enough
that no point index is out of range, so one bad field gives one message."""

ACTIONS = ("move", "moveAll", "push", "add", "exchange")
RULES_DIR = Path(__file__).with_name("rules")
SCHEMA_PATH = Path(__file__).with_name("rules.schema.json")

ALIASES: dict[str, str] = {
    "random_goal_pools": "random_goal_pool",
    "fill_unspecified_files": "fill_unspecified_tiles",
    "end_of_game conditions": "end_of_game_conditions",
}
"""The seed's other spellings (accepted with a warning) -> canonical field name."""

NAME_PATTERN = r"[A-Za-z_][A-Za-z0-9_-]*"
NUM_PATTERN = r"(?:0|[1-9][0-9]*)"
POS_PATTERN = r"[1-9][0-9]*"
NAME_RE = re.compile(rf"^{NAME_PATTERN}$")


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
GOAL_HELP = "expected a goal: 'reach X Y', 'collect N NAME' or 'find NAME'"
EFFECT_HELP = (
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
    if m := re.fullmatch(rf"reach ({NUM_PATTERN}) ({NUM_PATTERN})", text):
        return Goal("reach", x=int(m[1]), y=int(m[2]))
    if m := re.fullmatch(rf"collect ({POS_PATTERN}) ({NAME_PATTERN})", text):
        return Goal("collect", count=int(m[1]), name=m[2])
    if m := re.fullmatch(rf"find ({NAME_PATTERN})", text):
        return Goal("find", name=m[1])
    if m := re.fullmatch(rf"random ({POS_PATTERN})", text):
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
    return f"{GOAL_HELP}{extra}; got {text!r}"


def parse_effect(text: str, n: int) -> Effect | str:
    """An effect string -> :class:`Effect`, or a message saying what is wrong.

    >>> parse_effect("move 0 0 D 1", 2).point
    5
    """
    if m := re.fullmatch(rf"move ({NUM_PATTERN}) ({NUM_PATTERN}) ([UDLR]) ({NUM_PATTERN})", text):
        index = int(m[4])
        if index >= n:
            return (
                f"path index {index} is out of range: with paths_on_tile_side = {n} "
                f"indices are 0..{n - 1}"
            )
        return Effect("move", x=int(m[1]), y=int(m[2]), point=make_point(m[3], index, n), text=text)
    if text in ("eliminate", "collect", "return"):
        return Effect(text, text=text)  # type: ignore[arg-type]
    if m := re.fullmatch(rf"send ({NUM_PATTERN}) ({NUM_PATTERN})", text):
        return Effect("send", x=int(m[1]), y=int(m[2]), text=text)
    if m := re.fullmatch(rf"skip ({POS_PATTERN})", text):
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
    return f"{EFFECT_HELP}; got {text!r}"


def parse_item(text: str) -> tuple[str, int] | str:
    """``"coin 3"`` -> ``("coin", 3)``; ``"diamond"`` -> ``("diamond", 1)``."""
    if m := re.fullmatch(rf"({NAME_PATTERN})(?: ({POS_PATTERN}))?", text):
        return m[1], int(m[2]) if m[2] else 1
    return f"expected an item: 'NAME' or 'NAME COUNT' (COUNT >= 1), e.g. 'coin 3'; got {text!r}"


def parse_condition(text: str) -> str:
    """``"no coin"`` -> ``"coin"``; raises ValueError with a message otherwise."""
    if m := re.fullmatch(rf"no ({NAME_PATTERN})", text):
        return m[1]
    raise ValueError(f"expected an end condition 'no NAME', e.g. 'no coin'; got {text!r}")


def parse_scoring(text: str) -> Scoring | str:
    if m := re.fullmatch(rf"items ({NAME_PATTERN})(?: ({NUM_PATTERN}) ({NUM_PATTERN}))?", text):
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
        if not re.fullmatch(rf"[UDLR]{NUM_PATTERN}", part):
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


def is_int(value: Any) -> bool:
    """A JSON integer (``true`` is not one, although Python's ``bool`` is an ``int``)."""
    return isinstance(value, int) and not isinstance(value, bool)
