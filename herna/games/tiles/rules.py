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
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped]

from herna.core.catalogs import say_in
from herna.core.lang import N_
from herna.games.tiles.rules_checks import RulesChecker
from herna.games.tiles.rules_model import (
    ACTIONS,
    ALIASES,
    EFFECT_HELP,
    GOAL_HELP,
    MAX_BOARD_SIDE,
    MAX_FILE_BYTES,
    MAX_PATHS_ON_SIDE,
    MAX_PLAYERS,
    MAX_TILES,
    NAME_PATTERN,
    NAME_RE,
    NUM_PATTERN,
    POS_PATTERN,
    RULES_DIR,
    SCHEMA_PATH,
    UNKNOWN_N,
    Effect,
    Goal,
    PlayerSpec,
    Problem,
    RandomGoals,
    Rules,
    RulesError,
    RulesReport,
    Scoring,
    TileKind,
    format_path,
    is_int,
    parse_condition,
    parse_connection,
    parse_effect,
    parse_goal,
    parse_item,
    parse_scoring,
)

__all__ = [
    "ACTIONS",
    "ALIASES",
    "EFFECT_HELP",
    "GOAL_HELP",
    "MAX_BOARD_SIDE",
    "MAX_FILE_BYTES",
    "MAX_PATHS_ON_SIDE",
    "MAX_PLAYERS",
    "MAX_TILES",
    "NAME_PATTERN",
    "NAME_RE",
    "NUM_PATTERN",
    "POS_PATTERN",
    "RULES_DIR",
    "SCHEMA_PATH",
    "UNKNOWN_N",
    "Effect",
    "Goal",
    "PlayerSpec",
    "Problem",
    "RandomGoals",
    "Rules",
    "RulesError",
    "RulesReport",
    "Scoring",
    "TileKind",
    "check_rules",
    "check_rules_file",
    "check_rules_text",
    "format_path",
    "is_int",
    "load_rules",
    "load_rules_file",
    "parse_condition",
    "parse_connection",
    "parse_effect",
    "parse_goal",
    "parse_item",
    "parse_scoring",
    "resolve_rules_path",
    "rules_key",
    "schema",
    "shipped_rules",
]


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
        return result if isinstance(result, str) else GOAL_HELP
    if field_name == "effects":
        effect = parse_effect(text, max(n, 1))
        return effect if isinstance(effect, str) else EFFECT_HELP
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


# -- entry points -----------------------------------------------------------------------------
def check_rules(data: Any, name: str = "") -> RulesReport:
    """Check a parsed JSON value; never raises for anything the value contains."""
    n = 1
    if isinstance(data, dict) and isinstance(data.get("board"), dict):
        value = data["board"].get("paths_on_tile_side", 1)
        n = value if is_int(value) and 1 <= value <= MAX_PATHS_ON_SIDE else 1
    problems = _unique(_schema_problems(data, n))
    if not isinstance(data, dict):
        return RulesReport(None, tuple(problems))
    checker = RulesChecker(data)
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


def _noting_duplicates(found: list[str]) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """A JSON object hook that keeps the last value of a repeated key, as JSON readers do,
    and notes the key in ``found`` (so the rest of the file is still checked)."""

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                found.append(key)
            out[key] = value
        return out

    return hook


def check_rules_text(text: str, name: str = "") -> RulesReport:
    """Check the text of a rules file (JSON syntax, duplicate keys, then :func:`check_rules`)."""
    duplicates: list[str] = []
    try:
        data = json.loads(text, object_pairs_hook=_noting_duplicates(duplicates))
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
    report = check_rules(data, name)
    if not duplicates:
        return report
    repeated = [
        Problem(
            "(file)",
            f"the key {key!r} appears twice in one object; JSON readers would silently keep "
            "the last (the checks below read the last)",
        )
        for key in dict.fromkeys(duplicates)
    ]
    return RulesReport(None, (*repeated, *report.problems))


def check_rules_file(path: str | Path) -> RulesReport:
    """Read and check a rules file; unreadable files are reported as problems too."""
    path = Path(path)
    too_large = RulesReport(None, (Problem("(file)", f"larger than {MAX_FILE_BYTES} bytes"),))
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return too_large
        # Read no further than the limit: /dev/zero, a pipe or a growing file reports size 0.
        with path.open("rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            return too_large
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


@cache
def _shipped_data() -> dict[str, dict[str, Any]]:
    return {
        name: json.loads(path.read_text(encoding="utf-8")) for name, path in shipped_rules().items()
    }


def shipped_name(data: Any) -> str | None:
    """The name of the shipped rules file ``data`` is, when a client sent one whole rather than
    by name (the play page does so to seat fewer players than the file has: the same file
    with its first players only); None for rules of one's own. So a game of Labyrinth is
    recorded as ``labyrinth`` however it was asked for, not as ``custom``."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        return None
    players = data["players"]
    rest = {k: v for k, v in data.items() if k != "players"}
    for name, shipped in _shipped_data().items():
        if (
            players
            and shipped.get("players", [])[: len(players)] == players
            and rest == {k: v for k, v in shipped.items() if k != "players"}
        ):
            return name
    return None


RULES_TITLES = {
    "gold_rush": N_("Gold rush"),
    "labyrinth": N_("Labyrinth"),
    "dungeon": N_("Dungeon"),
    "tsuro": N_("Tsuro"),
}
"""The titles of the rules files Herna ships, each a message of the catalogs ("Zlatá
horečka" on a Czech page); static/games/tiles.js's RULES_TITLES marks the same (a test
checks the two match)."""


def rules_title(name: str, lang: str = "en") -> str:
    """A rules file's name as people read it: ``gold_rush`` -> ``Gold rush`` (``Zlatá
    horečka`` in Czech); a designer's own file by its name as written (``my_maze`` -> ``My
    maze``)."""
    if name in RULES_TITLES:
        return say_in(lang)(RULES_TITLES[name])
    words = name.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:]


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
